import Foundation

/// `assets-picker index` as a person runs it (issue 28), on a generated library of small PNGs
/// (`--files` in `--folders`, kept in `--workdir`), beside `find LIB -type f | wc -l`: the first
/// index (files per second), an unchanged re-index, and `index --previews` after them (the
/// previews the first index left to the background, made and waited for). Each run is the
/// `--binary` given, in a child process with an index of its own, so a build of another commit
/// can be measured on the same tree.
struct IndexCommandBenchmark {
    let work: URL
    let files: Int
    let folders: Int
    let binary: URL

    func run(into table: inout ResultTable) async throws {
        let library = SmallPNGLibrary(work: work, files: files, folders: folders)
        try library.makeIfNeeded()
        let label = "\(files / 1000)k PNGs in \(folders) folders"
        let find = try await Measure.median(runs: 5) { try Self.shell("find \"$1\" -type f | wc -l", library.root.path) }
        table.add("[\(label)] peer: find LIB -type f | wc -l", value: ResultTable.format(find) + " ms", target: "-", passed: nil)

        let data = work.appendingPathComponent("index-data-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let index = data.appendingPathComponent("library.sqlite")
        Log.stage("first index of \(library.root.lastPathComponent)")
        let first = try await Measure.milliseconds { try runIndex(library, at: index) }
        table.add("[\(label)] first index", value: String(format: "%.0f files/s (%.1f s)", Double(files) / (first / 1_000), first / 1_000),
                  target: "≥ 3000 files/s", passed: Double(files) / (first / 1_000) >= 3_000)
        Log.stage("re-index, nothing changed")
        let again = try await Measure.median(runs: 3) { try runIndex(library, at: index) }
        table.add("[\(label)] unchanged re-index", value: String(format: "%.2f s = %.1fx find", again / 1_000, again / find),
                  target: "≤ 1 s", passed: again <= 1_000)
        Log.stage("index --previews")
        var waited = 0.0
        do {
            waited = try await Measure.milliseconds { try runIndex(library, at: index, "--previews") }
            table.add("[\(label)] index --previews after it (every preview made)", value: String(format: "%.1f s", waited / 1_000),
                      target: "report", passed: nil)
            let unchanged = try await Measure.milliseconds { try runIndex(library, at: index, "--previews") }
            table.add("[\(label)] index --previews, nothing changed", value: String(format: "%.2f s", unchanged / 1_000),
                      target: "≤ 1 s", passed: unchanged <= 1_000)
        } catch {
            table.add("[\(label)] index --previews", value: "not taken by this build", target: "report", passed: nil)
        }
    }

    /// Runs `binary index LIB --index INDEX --json` and the `extra` arguments; throws unless it
    /// exits with status 0.
    private func runIndex(_ library: SmallPNGLibrary, at index: URL, _ extra: String...) throws {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["index", library.root.path, "--index", index.path, "--json"] + extra
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw CommandFailed(arguments: process.arguments ?? [], status: process.terminationStatus)
        }
    }

    private static func shell(_ script: String, _ argument: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh", argument]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }

    /// A child `assets-picker` that failed.
    struct CommandFailed: Error {
        let arguments: [String]
        let status: Int32
    }
}
