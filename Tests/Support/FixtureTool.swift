import ProcessRunning

extension ToolRunner {
    /// Runs a tool that makes or changes a test's fixture (ffmpeg, vips, exiftool, jpegtran):
    /// making the fixture is not what is tested, so its bound is a hang's
    /// (``HangGuard/defaultLimit``), not the 20 s the library gives its own commands. With the
    /// whole suite running at once on two cores, ffmpeg once took more than those 20 s.
    public static func fixture(_ tool: ExternalTool, arguments: [String]) async throws -> ToolOutput {
        try await run(tool, arguments: arguments, timeout: HangGuard.defaultLimit)
    }
}
