import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import ProcessRunning

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
        let output = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", script], timeout: .seconds(120))
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

    /// A run stopped by its timeout or by cancellation: the tool never got to its end (the
    /// marker it would write after its 60 s is missing) and its process group is gone. The
    /// timeouts (5 s) are far beyond the milliseconds the tool needs to start and note its id.
    @Test func timeoutStopsTheTool() async throws {
        let tool = try StoppableTool()
        defer { tool.remove() }
        let error = await #expect(throws: ToolError.self) {
            _ = try await ToolRunner.run(ExternalTool("sh"), arguments: tool.arguments(), timeout: .seconds(5))
        }
        #expect(error == .timedOut(tool: "sh", seconds: 5))
        try await tool.expectStoppedEarly()
    }

    @Test func timeoutKillsAToolThatIgnoresSIGTERM() async throws {
        let tool = try StoppableTool()
        defer { tool.remove() }
        await #expect(throws: ToolError.timedOut(tool: "sh", seconds: 5)) {
            _ = try await ToolRunner.run(ExternalTool("sh"), arguments: tool.arguments(ignoringSIGTERM: true),
                                         timeout: .seconds(5))
        }
        try await tool.expectStoppedEarly()
    }

    @Test func cancellationStopsTheTool() async throws {
        let tool = try StoppableTool()
        defer { tool.remove() }
        let task = Task {
            try await ToolRunner.run(ExternalTool("sh"), arguments: tool.arguments(), timeout: .seconds(600))
        }
        // Cancelled once the tool is surely running, however long its start takes.
        try await HangGuard.waitUntil("the tool's start") { tool.processGroup != nil }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        try await tool.expectStoppedEarly()
    }

    @Test func cancelledBeforeStartDoesNotRun() async throws {
        let task = Task {
            try await ToolRunner.run(ExternalTool("sleep"), arguments: ["5"])
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test func manyConcurrentRunsEachGetTheirOwnOutput() async throws {
        let count = 200
        let script = "head -c 100000 /dev/zero; echo err >&2"
        let outputs = try await withThrowingTaskGroup(of: ToolOutput.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", script], timeout: .seconds(600))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outputs.count == count)
        for output in outputs {
            #expect(output.succeeded)
            #expect(output.standardOutput.count == 100_000)
            #expect(output.standardError == "err\n")
        }
    }

    @Test func childSeesOnlyItsOwnDescriptorsNoBlockedSignalsAndItsOwnGroup() async throws {
        // Many at once, so other commands' pipes exist while each one starts. Each tool looks
        // at itself (/proc/self), not through a shell, which has pipes and masks of its own.
        let commands: [(String, [String])] = [
            ("ls", ["/proc/self/fd"]), ("grep", ["-E", "^Sig(Blk|Ign)", "/proc/self/status"]), ("cat", ["/proc/self/stat"]),
        ]
        let outputs = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<60 {
                let (name, arguments) = commands[index % commands.count]
                group.addTask {
                    let output = try await ToolRunner.run(ExternalTool(name), arguments: arguments)
                    return (index % commands.count, String(decoding: output.standardOutput, as: UTF8.self))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for (kind, text) in outputs {
            switch kind {
            case 0:
                // 3 is the directory ls itself is reading; anything inherited would come first.
                #expect(text == "0\n1\n2\n3\n", "only stdin, stdout and stderr are open in the child")
            case 1:
                #expect(text.contains("SigBlk:\t0000000000000000\n"), "no signal blocked: \(text)")
                // glibc's posix_spawn leaves its two internal signals (32, 33) ignored; no
                // program uses them, and every real signal must be at its default.
                let ignored = text.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }
                    .flatMap { UInt64($0.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
                #expect(ignored.map { $0 & ~UInt64(0x1_8000_0000) } == 0, "no signal ignored: \(text)")
            default:
                // "pid (comm) state ppid pgrp ..."
                let fields = text.split(separator: " ")
                #expect(fields.count > 4 && fields[0] == fields[4], "the command leads its own process group: \(text)")
            }
        }
    }

    @Test(arguments: [ToolRunner.ExitWatch.pidfdIfAvailable, .polling])
    func grandchildHoldingTheOutputIsKilledWhenTheToolExits(exitWatch: ToolRunner.ExitWatch) async throws {
        // The background sleep keeps standard output open after sh exits; it is alive until its
        // group is killed, so finding it ended shows the run did not just wait out the drain.
        let output = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", "sleep 60 & echo $!"],
                                              timeout: .seconds(600), exitWatch: exitWatch)
        #expect(output.succeeded)
        let grandchild = try #require(pid_t(String(decoding: output.standardOutput, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await hasEnded(grandchild), "the grandchild was killed with the tool's process group")
    }

    @Test(arguments: [ToolRunner.ExitWatch.pidfdIfAvailable, .polling])
    func timeoutKillsGrandchildrenToo(exitWatch: ToolRunner.ExitWatch) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tool-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("pid").path
        // 5 s: far beyond the milliseconds sh needs to start the sleep and note its id.
        await #expect(throws: ToolError.timedOut(tool: "sh", seconds: 5)) {
            _ = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", "sleep 60 & echo $! > \"$0\"; wait", pidFile],
                                         timeout: .seconds(5), exitWatch: exitWatch)
        }
        let grandchild = try #require(pid_t(try String(contentsOfFile: pidFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await hasEnded(grandchild), "the grandchild was stopped with the tool's process group")
    }

    @Test func descendantThatLeftTheGroupHoldsTheAnswerOnlyForTheDrainGrace() async throws {
        // setsid takes the sleep out of the tool's process group, so it survives the tool and
        // keeps standard output open; the drain grace is the safety net. The shell waits until
        // the sleep is in a session of its own (field 6 of its /proc stat), however long a busy
        // machine takes to start it, and exits long before its timeout (so no time-out error).
        // The sleep lasts a day, ended by the test: a busy machine may take a minute to get here.
        let script = #"setsid sleep 86400 & pid=$!; while [ "$(cut -d' ' -f6 /proc/$pid/stat)" != "$pid" ]; do :; done; echo $pid"#
        let clock = ContinuousClock()
        let start = clock.now
        let output = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", script],
                                              timeout: .seconds(600), exitWatch: .pidfdIfAvailable,
                                              drainGracePeriod: .seconds(2))
        let escaped = try #require(pid_t(String(decoding: output.standardOutput, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(escaped, SIGKILL) }
        #expect(output.succeeded)
        // The answer came while the escaped sleep still held the pipe: the grace ended the wait.
        #expect(kill(escaped, 0) == 0, "the escaped descendant is still running")
        // A lower bound only (a busy machine makes it longer, never shorter): the output was
        // read until the grace ran out, not dropped at the tool's exit.
        #expect(clock.now - start >= .seconds(2), "output was read until the drain grace ran out")
    }

    @Test func pollingExitWatchCapturesOutputAndStops() async throws {
        let output = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", "head -c 300000 /dev/zero; echo e >&2; exit 3"],
                                              timeout: .seconds(600), exitWatch: .polling)
        #expect(output.terminationStatus == 3 && !output.wasSignalled)
        #expect(output.standardOutput.count == 300_000)
        #expect(output.standardError == "e\n")
        await #expect(throws: ToolError.timedOut(tool: "sleep", seconds: 0.3)) {
            _ = try await ToolRunner.run(ExternalTool("sleep"), arguments: ["60"], timeout: .milliseconds(300), exitWatch: .polling)
        }
    }

    @Test func reportsTheSignalThatEndedTheTool() async throws {
        let output = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", "kill -KILL $$"])
        #expect(output.wasSignalled)
        #expect(output.terminationStatus == SIGKILL)
    }

    @Test func leavesNoZombieBehind() async throws {
        // Every way a run can end: success, failure, signal, timeout, cancellation, grandchild.
        _ = try await ToolRunner.run(ExternalTool("true"), arguments: [])
        _ = try await ToolRunner.run(ExternalTool("ls"), arguments: ["/no/such/path-for-tool-runner"])
        _ = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", "kill -TERM $$"])
        _ = try await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", "sleep 60 & echo $!"])
        _ = try? await ToolRunner.run(ExternalTool("sh"), arguments: ["-c", "trap '' TERM; sleep 60"], timeout: .milliseconds(200))
        let tool = try StoppableTool()
        defer { tool.remove() }
        let task = Task { try await ToolRunner.run(ExternalTool("sh"), arguments: tool.arguments()) }
        try await HangGuard.waitUntil("the tool's start") { tool.processGroup != nil }
        task.cancel()
        _ = try? await task.value
        // Not `waitpid(-1, WNOHANG)`: that would reap the children of runs in other tests. Other
        // tests' runs may be between exit and reaping at any instant, so a zombie seen now
        // counts only if it never goes: each one must be reaped eventually.
        let zombies = zombieChildren()
        try await HangGuard.waitUntil("the reaping of zombie children \(zombies)") {
            zombieChildren().isDisjoint(with: zombies)
        }
    }
}

/// A `sh` tool for the tests that stop one: it writes its process id (its process group's, as
/// ToolRunner makes it a group leader) to a file, then sleeps 60 s and only then writes a
/// marker. A stopped run leaves no marker and no process in the group.
private struct StoppableTool {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tool-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private var pidFile: URL { folder.appendingPathComponent("pid") }
    private var marker: URL { folder.appendingPathComponent("finished") }

    /// The arguments for `sh`; with `ignoringSIGTERM`, the shell and its sleep ignore `SIGTERM`.
    func arguments(ignoringSIGTERM: Bool = false) -> [String] {
        let script = (ignoringSIGTERM ? "trap '' TERM; " : "") + "echo $$ > \"$0.tmp\"; mv \"$0.tmp\" \"$0\"; sleep 60; touch \"$1\""
        return ["-c", script, pidFile.path, marker.path]
    }

    /// The tool's process group, once it has started.
    var processGroup: pid_t? {
        (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Expects the tool stopped before its end: no marker, and its process group ends (a
    /// killed member may be a zombie for a moment, until its new parent reaps it).
    func expectStoppedEarly() async throws {
        let group = try #require(processGroup, "the tool started")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the tool was stopped before its 60 s were up")
        try await HangGuard.waitUntil("the end of the tool's process group") { livingMembers(ofGroup: group).isEmpty }
    }

    func remove() {
        if let group = processGroup { kill(-group, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Our children that are zombies (exited, not reaped), from `/proc`.
private func zombieChildren() -> Set<pid_t> {
    let me = getpid()
    var zombies: Set<pid_t> = []
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        // After "pid (comm)": state, ppid, ...
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, fields[0] == "Z", pid_t(fields[1]) == me { zombies.insert(pid) }
    }
    return zombies
}

/// The processes of group `group` that are not zombies, from `/proc`.
private func livingMembers(ofGroup group: pid_t) -> [pid_t] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
        guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state, ppid, pgrp, ...
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 && fields[0] != "Z" && pid_t(fields[2]) == group ? pid : nil
    }
}

/// Whether `pid` is gone (or only a zombie awaiting its new parent), waiting for it up to a
/// hang guard of 2 minutes (it takes milliseconds).
private func hasEnded(_ pid: pid_t) async -> Bool {
    for _ in 0..<2_400 {
        if kill(pid, 0) != 0 { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        if let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].hasPrefix(" Z") { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return false
}
