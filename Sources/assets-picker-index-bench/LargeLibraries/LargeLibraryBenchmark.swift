import Foundation
import LibraryOpening

/// Issue 14's targets on generated libraries of `assets` files in 2,000 day folders and in 20
/// year folders, both backends: open + album list + newest 60 in-process (each in a child process,
/// so that its peak memory is its own) and over HTTP, cold and second open, beside the time of
/// `find LIB -type f | wc -l` on the same tree.
struct LargeLibraryBenchmark {
    let work: URL
    let assets: Int
    let layouts: [Int]
    /// A child that runs longer is stopped and reported as such.
    let timeout: Double
    let binary: URL

    func run(into table: inout ResultTable) async throws {
        for folders in layouts {
            defer { removeDataHomes() }
            let library = DayFolderLibrary(work: work, assets: assets, folders: folders)
            try library.makeIfNeeded()
            let label = "\(assets / 1000)k in \(folders) folders"
            let find = try await Measure.median(runs: 5) { try Self.runFind(in: library.root) }
            table.add("[\(label)] peer: find LIB -type f | wc -l", value: ResultTable.format(find) + " ms", target: "-", passed: nil)

            let index = work.appendingPathComponent("index-\(assets)-in-\(folders).sqlite")
            if !FileManager.default.fileExists(atPath: index.path) {
                Log.stage("indexing \(label)")
                let time = try await Measure.milliseconds {
                    _ = try await LibraryOpener().open(root: library.root, backend: .indexed, indexURL: index, mayCreateIndex: true)
                }
                table.add("[\(label)] first index (made once, kept)", value: String(format: "%.1f s", time / 1000), target: "-", passed: nil)
            }

            let indexed = try child(.indexed, library: library.root, index: index, dataHome: freshDataHome())
            report(indexed, backend: "indexed", label: label, target: 20, into: &table)
            let folderData = freshDataHome()
            let cold = try child(.folder, library: library.root, index: index, dataHome: folderData)
            if let cold {
                table.add("[\(label)] folder, cold: open + albums + newest 60", value: ResultTable.format(cold.first.total) + " ms",
                          target: "≤ 1.2x find (" + ResultTable.format(find * 1.2) + " ms)", passed: cold.first.total <= find * 1.2)
                table.add("[\(label)]   ratio to find", value: String(format: "%.2fx", cold.first.total / find), target: "≤ 1.20x", passed: nil)
                table.add("[\(label)]   of which open + albums + page", value: [cold.first.open, cold.first.albums, cold.first.firstPage]
                    .map(ResultTable.format).joined(separator: " + ") + " ms", target: "-", passed: nil)
                table.add("[\(label)] folder, cold: background reads over (after the first screen)",
                          value: String(format: "%.1f s", cold.first.backgroundReads / 1000), target: "-", passed: nil)
                addMemory(cold, label: "[\(label)] folder, cold", into: &table)
            } else {
                table.add("[\(label)] folder, cold: open + albums + newest 60", value: "> \(Int(timeout)) s (stopped)", target: "≤ 1.2x find", passed: false)
            }
            if cold != nil, let warm = try child(.folder, library: library.root, index: index, dataHome: folderData) {
                table.atMost("[\(label)] folder, second open (new process, metadata cached)", milliseconds: warm.first.total, target: 50)
                table.add("[\(label)]   of which open + albums + page", value: [warm.first.open, warm.first.albums, warm.first.firstPage]
                    .map(ResultTable.format).joined(separator: " + ") + " ms", target: "-", passed: nil)
                table.atMost("[\(label)] folder, second open in the same process", milliseconds: warm.second.total, target: 50)
                addMemory(warm, label: "[\(label)] folder, warm", into: &table)
            }

            for backend in [LibraryBackend.indexed, .folder] where backend == .indexed || cold != nil {
                let http = try await HTTPFirstScreen(binary: binary, library: library.root, backend: backend.rawValue, index: index,
                                                     dataHome: backend == .folder ? folderData : freshDataHome()).run()
                let target: Double = backend == .indexed ? 30 : 50
                table.atMost("[\(label)] HTTP \(backend.rawValue): /api/albums + first page, server just started", milliseconds: http.first, target: target)
                table.atMost("[\(label)] HTTP \(backend.rawValue): /api/albums + first page (median of 9)", milliseconds: http.warm, target: target)
            }
        }
    }

    private func report(_ result: FirstScreenScenario.Report?, backend: String, label: String, target: Double, into table: inout ResultTable) {
        guard let result else {
            table.add("[\(label)] \(backend): open + albums + newest 60", value: "> \(Int(timeout)) s (stopped)", target: "≤ \(Int(target)) ms", passed: false)
            return
        }
        table.atMost("[\(label)] \(backend): open + albums (\(result.first.albumCount)) + newest 60, first open", milliseconds: result.first.total, target: target)
        table.add("[\(label)]   of which open + albums + page", value: [result.first.open, result.first.albums, result.first.firstPage]
            .map(ResultTable.format).joined(separator: " + ") + " ms", target: "-", passed: nil)
        table.atMost("[\(label)] \(backend): second open in the same process", milliseconds: result.second.total, target: target)
        table.atMost("[\(label)] \(backend): first page (newest 60) of All Photos", milliseconds: result.first.firstPage, target: target)
        table.atMost("[\(label)] \(backend): first page (newest 60) of the largest album (\(result.first.largestAlbumCount) assets)",
                     milliseconds: result.first.largestAlbumPage, target: target)
        addMemory(result, label: "[\(label)] \(backend)", into: &table)
    }

    private func addMemory(_ result: FirstScreenScenario.Report, label: String, into table: inout ResultTable) {
        let megabytes = result.peakResidentMiB * 1.048576
        table.add("\(label): peak RSS", value: String(format: "%.0f MB", megabytes), target: "≤ 150 MB", passed: megabytes <= 150)
    }

    /// A new, empty data folder (where a library's index and metadata cache would be kept).
    private func freshDataHome() -> URL {
        work.appendingPathComponent("data-\(UUID().uuidString)", isDirectory: true)
    }

    /// Removes the data folders the scenarios were given (each holds an index or a folder cache);
    /// the generated libraries and their indexes stay for the next run.
    private func removeDataHomes() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []
        for name in names where name.hasPrefix("data-") {
            try? FileManager.default.removeItem(at: work.appendingPathComponent(name, isDirectory: true))
        }
    }

    /// Runs one scenario in a child process (this program with `--scenario`); `nil` when it ran
    /// past the timeout and was stopped.
    private func child(_ backend: LibraryBackend, library: URL, index: URL, dataHome: URL) throws -> FirstScreenScenario.Report? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["--scenario", backend.rawValue, "--library", library.path, "--index", index.path]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        environment["XDG_CACHE_HOME"] = dataHome.appendingPathComponent("cache").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        Log.stage("\(backend.rawValue) on \(library.lastPathComponent)")
        try process.run()
        let stopper = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: stopper)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        stopper.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return try JSONDecoder().decode(FirstScreenScenario.Report.self, from: data)
    }

    private static func runFind(in root: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "find \"$1\" -type f | wc -l", "sh", root.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }
}
