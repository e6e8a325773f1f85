import Foundation

/// A command-line program the package runs (ffprobe, ffmpeg, a benchmark's peers), named as
/// it is found on `PATH`.
///
/// It carries the hint a user needs when the program is missing, so the error can say how to
/// fix it instead of only what failed.
public struct ExternalTool: Sendable, Hashable {
    /// The executable's name (`ffprobe`), or a path to it.
    public var name: String
    /// What to do when the tool is missing, e.g. `install ffmpeg (apt-get install ffmpeg)`.
    public var installHint: String

    /// Creates a tool description.
    ///
    /// - Parameters:
    ///   - name: The executable's name, looked up on `PATH`; a name containing `/` is used as
    ///     a path as it stands.
    ///   - installHint: Shown in ``ToolError/notFound(tool:installHint:)`` when the tool is missing.
    public init(_ name: String, installHint: String = "install it or add its folder to PATH") {
        self.name = name
        self.installHint = installHint
    }

    /// FFmpeg's stream analyser, used to read a video's container and stream facts.
    public static let ffprobe = ExternalTool("ffprobe", installHint: "install ffmpeg (apt-get install ffmpeg)")
    /// FFmpeg's transcoder, used to decode a video frame.
    public static let ffmpeg = ExternalTool("ffmpeg", installHint: "install ffmpeg (apt-get install ffmpeg)")

    /// The executable this tool names, or `nil` when it is not on `PATH` (or not executable).
    public func locate(searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) -> URL? {
        let fileManager = FileManager.default
        if name.contains("/") {
            return fileManager.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil
        }
        for directory in (searchPath ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fileManager.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }
}
