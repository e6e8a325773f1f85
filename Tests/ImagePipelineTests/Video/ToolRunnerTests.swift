import Foundation
import Testing
@testable import ImagePipeline

@Suite("ToolRunner")
struct ToolRunnerTests {
    @Test func capturesStandardOutputAndExitStatus() async throws {
        let output = try await ToolRunner.run(ExternalTool("printf"), arguments: ["%s|%s", "a b", "$HOME;"])
        #expect(output.succeeded)
        // Arguments reach the tool verbatim: no shell splitting or expansion.
        #expect(String(decoding: output.standardOutput, as: UTF8.self) == "a b|$HOME;")
    }

    @Test func reportsNonZeroExitAndStandardError() async throws {
        let output = try await ToolRunner.run(ExternalTool("ls"), arguments: ["/no/such/path-for-tool-runner"])
        #expect(!output.succeeded)
        #expect(output.terminationStatus != 0)
        #expect(output.standardError.contains("/no/such/path-for-tool-runner"))
    }

    @Test func drainsLargeOutputOnBothPipesWithoutDeadlock() async throws {
        // 1 MiB on stdout and 1 MiB on stderr, far beyond a pipe's buffer.
        let script = "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2"
        let output = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", script], timeout: .seconds(10))
        #expect(output.succeeded)
        #expect(output.standardOutput.count == 1_048_576)
        #expect(output.standardError.utf8.count == ToolRunner.standardErrorLimit)
    }

    @Test func missingToolIsATypedErrorWithTheInstallHint() async throws {
        let tool = ExternalTool("no-such-tool-4f2a", installHint: "install the no-such package")
        let error = await #expect(throws: ToolError.self) {
            _ = try await ToolRunner.run(tool, arguments: [])
        }
        #expect(error == .notFound(tool: "no-such-tool-4f2a", installHint: "install the no-such package"))
        #expect(error?.description == "no-such-tool-4f2a not found: install the no-such package")
        #expect(ExternalTool.ffprobe.installHint == "install ffmpeg (apt-get install ffmpeg)")
    }

    @Test func timeoutStopsTheToolQuickly() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: ToolError.self) {
            _ = try await ToolRunner.run(ExternalTool("sleep"), arguments: ["60"], timeout: .milliseconds(500))
        }
        #expect(error == .timedOut(tool: "sleep", seconds: 0.5))
        #expect(clock.now - start < .seconds(30), "stopped long before the tool's own 60 s")
    }

    @Test func timeoutKillsAToolThatIgnoresSIGTERM() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: ToolError.timedOut(tool: "sh", seconds: 0.3)) {
            _ = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", "trap '' TERM; sleep 60 & wait; sleep 60"],
                                         timeout: .milliseconds(300))
        }
        #expect(clock.now - start < .seconds(30), "stopped long before the tool's own 60 s")
    }

    @Test func cancellationStopsTheTool() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let task = Task {
            try await ToolRunner.run(ExternalTool("sleep"), arguments: ["60"], timeout: .seconds(120))
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(clock.now - start < .seconds(30), "stopped long before the tool's own 60 s")
    }

    @Test func cancelledBeforeStartDoesNotRun() async throws {
        let task = Task {
            try await ToolRunner.run(ExternalTool("sleep"), arguments: ["5"])
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }
}
