import Foundation
import ProcessRunning

/// Runs the real `assets-picker export` command as a child process, the way a person runs it,
/// and checks that it exported every photo.
///
/// The binary is the release build next to this one (`scripts/bench.sh` builds both). Each
/// child gets its own XDG cache and data folders under the work folder, so a user's caches
/// neither help nor slow it.
struct ExportRunner {
    /// A folder opened as a library, and the id of the album that holds its photos.
    struct Library {
        var folder: URL
        var albumID: String
        var count: Int
    }

    /// One export: its wall and CPU times, and its peak resident set.
    struct Run {
        var timing: Timing
        var peakResidentBytes: Int
    }

    let executable: URL
    /// Logs, outputs and the children's XDG folders go here.
    let directory: URL

    /// A runner for the `assets-picker` next to the running benchmark binary.
    init(directory: URL) throws {
        let here = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        executable = here.appendingPathComponent("assets-picker")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ToolError.notFound(tool: executable.path, installHint: "build it too: swift build -c release --product assets-picker")
        }
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// `folder` as a library: its album id, found with `assets-picker albums --json` (the
    /// folder's own directory album, which must hold `count` photos).
    func library(_ folder: URL, count: Int) throws -> Library {
        struct Albums: Decodable {
            struct Album: Decodable { var id: String; var kind: String; var count: Int }
            var albums: [Album]
        }
        let output = directory.appendingPathComponent("albums.json")
        try start(["albums", "--library", folder.path, "--json"], output: output, cpu: nil).wait()
        let albums = try JSONDecoder().decode(Albums.self, from: Data(contentsOf: output)).albums
        guard let album = albums.first(where: { $0.kind == "directory" && $0.count == count }) else {
            throw ExportError.noAlbum(folder: folder.path, count: count)
        }
        return Library(folder: folder, albumID: album.id, count: count)
    }

    /// `assets-picker export --library … --album … --out <fresh folder> <options> --json`,
    /// `jobs` at a time when given, under `taskset -c cpu` when given; timed from start to exit.
    /// Throws unless every photo was exported.
    func export(_ library: Library, options: [String], jobs: Int? = nil, cpu: Int? = nil, samplingMemory: Bool = false) throws -> Run {
        let out = directory.appendingPathComponent("out")
        try? FileManager.default.removeItem(at: out)
        defer { try? FileManager.default.removeItem(at: out) }
        let report = directory.appendingPathComponent("export.json")
        let arguments = ["export", "--library", library.folder.path, "--album", library.albumID, "--out", out.path]
            + options + (jobs.map { ["--jobs", String($0)] } ?? []) + ["--json"]
        let child = try start(arguments, output: report, cpu: cpu)
        var usage = ChildProcess.Usage(cpuMilliseconds: 0, peakResidentBytes: 0)
        let timing = try Stopwatch.time(reportingCPU: {
            usage = try child.waitForUsage(samplingMemory: samplingMemory)
            return usage.cpuMilliseconds
        })
        try check(report, expected: library.count, in: out)
        return Run(timing: timing, peakResidentBytes: usage.peakResidentBytes)
    }

    /// Checks the command's JSON report and the folder: `expected` files exported, none failed.
    private func check(_ report: URL, expected: Int, in out: URL) throws {
        struct Report: Decodable {
            struct Item: Decodable { var file: String }
            struct Failure: Decodable { var id: String; var reason: String }
            var exported: [Item]
            var failed: [Failure]
        }
        let decoded = try JSONDecoder().decode(Report.self, from: Data(contentsOf: report))
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).count
        guard decoded.exported.count == expected, decoded.failed.isEmpty, written == expected else {
            throw ExportError.incomplete(expected: expected, exported: decoded.exported.count, failed: decoded.failed.count, written: written)
        }
    }

    private func start(_ arguments: [String], output: URL, cpu: Int?) throws -> ChildProcess {
        let pinned = cpu.map { ["taskset", "-c", String($0)] } ?? []
        let environment = [
            "XDG_CACHE_HOME": directory.appendingPathComponent("xdg/cache").path,
            "XDG_DATA_HOME": directory.appendingPathComponent("xdg/data").path,
        ]
        return try ChildProcess.start(pinned + [executable.path] + arguments, environment: environment,
                                      log: directory.appendingPathComponent("stderr.log"), output: output)
    }
}

/// An export that did not do its job.
enum ExportError: Error, CustomStringConvertible {
    case noAlbum(folder: String, count: Int)
    case incomplete(expected: Int, exported: Int, failed: Int, written: Int)

    var description: String {
        switch self {
        case let .noAlbum(folder, count): "assets-picker albums lists no album of \(count) photos for \(folder)"
        case let .incomplete(expected, exported, failed, written):
            "assets-picker export: expected \(expected) files, it reported \(exported) exported and \(failed) failed, and wrote \(written)"
        }
    }
}
