import AssetsKit
import Foundation
import IndexedLibrary
import LibraryOpening

/// `assets-picker-index-bench`: the library targets, printed as a table (metric, value, target,
/// pass/fail). Build with `swift build -c release`. Three parts:
/// - `browse`: the IndexedLibrary on a synthetic 100,000-asset index (first screen, pages, counts,
///   memory);
/// - `scan`: indexing real file trees;
/// - `index`: `assets-picker index` (`--binary`) on `--files` small PNGs in `--folders` folders
///   (default 100,000 in 300, kept in `--workdir`): first index, unchanged re-index and
///   `index --previews`, beside `find LIB -type f | wc -l`;
/// - `library`: large libraries on both backends (issue 14): generated libraries of `--assets`
///   files in 2,000 day folders and in 20 year folders (`--layouts 2000,20`), open + album list +
///   newest 60, in-process and over HTTP (`--binary`: the `assets-picker` to serve with, default
///   the one beside this program), cold and second open, beside `find LIB -type f | wc -l`. The
///   libraries and their indexes are kept in `--workdir` (default
///   `$TMPDIR/assets-picker-library-bench`) for later runs;
/// - `scale` (only when asked for by name): issue 30's side-by-side figures, a generated index of
///   `--assets` (default 1,000,000) assets in `--directories` (2,000) folders and `--albums`
///   (20,000) user albums in SQLite and, given `--database postgresql://…` (or
///   `ASSETS_PICKER_DATABASE_URL`), in that PostgreSQL database (which it fills: give it an
///   empty one), each read `--runs` (21) times; `scripts/bench-scale.sh` starts a PostgreSQL of
///   its own for it. With `--workdir`, the generated library stays there (and in the database)
///   and a later run of the same size reads it again instead of generating it (two minutes at 1M).
///
/// Usage: `assets-picker-index-bench [--only browse|scan|index|library|scale] [--corpus PATH] [--files N]
/// [--folders N] [--large N] [--assets N] [--layouts N,N] [--timeout SECONDS] [--workdir PATH] [--binary PATH]
/// [--directories N] [--albums N] [--runs N] [--database URL]`.
/// The corpus is, unless `--corpus` says otherwise, `$ASSETS_PICKER_TESTDATA` or the first
/// `shared/testdata` beside the current folder or one of its parents (`../shared/testdata` when
/// run from the package); it is only read: the benchmark indexes a copy.
@main
struct IndexBench {
    static func main() async throws {
        let arguments = BenchArguments(CommandLine.arguments.dropFirst())
        if let scenario = arguments.scenario {
            // A child of the `library` part: one in-process first screen, as one JSON line.
            let report = try await FirstScreenScenario(library: arguments.library, backend: scenario, index: arguments.index).run()
            FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data([0x0A]))
            return
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("index-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        if arguments.only == .scale {
            // With --workdir, the generated library is kept there and read again by the next run of the same size.
            let kept = arguments.workdirGiven ? arguments.workdir : nil
            let library = try ScaleLibrary(assets: arguments.assets ?? 1_000_000, folders: arguments.directories, albums: arguments.albums,
                                           keptIn: kept)
            print(try await ScaleBenchmark(work: kept ?? work, library: library, postgres: arguments.database, runs: arguments.runs,
                                           reuse: kept != nil).run())
            return
        }
        var table = ResultTable()
        if arguments.only == nil || arguments.only == .browse {
            try await BrowseBenchmark(root: work.appendingPathComponent("synthetic"), assets: 100_000).run(into: &table)
        }
        if arguments.only == nil || arguments.only == .scan {
            try await ScanBenchmark(work: work, arguments: arguments).run(into: &table)
        }
        if arguments.only == nil || arguments.only == .index {
            try FileManager.default.createDirectory(at: arguments.workdir, withIntermediateDirectories: true)
            try await IndexCommandBenchmark(work: arguments.workdir, files: arguments.files, folders: arguments.folders,
                                            binary: arguments.binary).run(into: &table)
        }
        if arguments.only == nil || arguments.only == .library {
            try FileManager.default.createDirectory(at: arguments.workdir, withIntermediateDirectories: true)
            try await LargeLibraryBenchmark(work: arguments.workdir, assets: arguments.assets ?? 100_000, layouts: arguments.layouts,
                                            timeout: arguments.timeout, binary: arguments.binary).run(into: &table)
        }
        print(table.render())
    }
}

/// The few options of the benchmark.
struct BenchArguments {
    /// The parts of the benchmark, to run one alone.
    enum Part: String {
        case browse, scan, index, library, scale
    }

    var only: Part?
    /// Assets of a generated library: by default 100,000 for `library`, 1,000,000 for `scale`.
    var assets: Int?
    var directories = 2_000
    var albums = 20_000
    var runs = 21
    var database = ProcessInfo.processInfo.environment["ASSETS_PICKER_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    var layouts = [2_000, 20]
    var timeout = 120.0
    var workdir = FileManager.default.temporaryDirectory.appendingPathComponent("assets-picker-library-bench", isDirectory: true)
    /// Whether `--workdir` was given (the `scale` part then keeps its generated library there).
    var workdirGiven = false
    var binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("assets-picker")
    /// Set in a child of the `library` part: the scenario to run, on which library and index.
    var scenario: LibraryBackend?
    var library = URL(fileURLWithPath: ".")
    var index = URL(fileURLWithPath: "library.sqlite")
    var corpus = Self.defaultCorpus()
    var files = 100_000
    var folders = 300
    var largePhotos = 200

    static let usage = """
        usage: assets-picker-index-bench [--only browse|scan|index|library|scale] [--corpus PATH] [--files N] [--folders N] [--large N]
                                         [--assets N] [--layouts N,N] [--timeout SECONDS] [--workdir PATH] [--binary PATH]
                                         [--directories N] [--albums N] [--runs N] [--database postgresql://…]
        """

    /// Reads the options; `--help` prints the usage and exits, anything unknown or without a
    /// usable value exits with status 2 naming it (a benchmark must not start on a typo).
    init(_ arguments: ArraySlice<String>) {
        var rest = arguments.makeIterator()
        while let name = rest.next() {
            if name == "--help" || name == "-h" {
                print(Self.usage)
                exit(0)
            }
            guard let value = rest.next() else { Self.fail("\(name) needs a value") }
            func number<T: LosslessStringConvertible>(_: T.Type = T.self) -> T {
                guard let number = T(value) else { Self.fail("\(name) takes a number; got '\(value)'") }
                return number
            }
            switch name {
            case "--only":
                guard let part = Part(rawValue: value) else { Self.fail("--only takes browse, scan, index, library or scale; got '\(value)'") }
                only = part
            case "--corpus": corpus = URL(fileURLWithPath: value)
            case "--files": files = number()
            case "--folders": folders = number()
            case "--large": largePhotos = number()
            case "--assets": assets = number()
            case "--directories": directories = number()
            case "--albums": albums = number()
            case "--runs": runs = max(1, number())
            case "--database": database = value
            case "--layouts":
                layouts = value.split(separator: ",").compactMap { Int($0) }
                if layouts.isEmpty { Self.fail("--layouts takes folder counts such as 2000,20; got '\(value)'") }
            case "--timeout": timeout = number()
            case "--workdir":
                workdir = URL(fileURLWithPath: value, isDirectory: true)
                workdirGiven = true
            case "--binary": binary = URL(fileURLWithPath: value)
            case "--scenario":
                guard let backend = LibraryBackend(rawValue: value) else { Self.fail("--scenario takes a backend; got '\(value)'") }
                scenario = backend
            case "--library": library = URL(fileURLWithPath: value, isDirectory: true)
            case "--index": index = URL(fileURLWithPath: value)
            default: Self.fail("unknown option \(name)")
            }
        }
    }

    private static func fail(_ problem: String) -> Never {
        FileHandle.standardError.write(Data("assets-picker-index-bench: \(problem)\n\(usage)\n".utf8))
        exit(2)
    }

    /// `$ASSETS_PICKER_TESTDATA`, else the first `shared/testdata` holding a MANIFEST.tsv beside
    /// the current folder or one of its parents, else `../shared/testdata` (the copy then fails,
    /// naming it).
    static func defaultCorpus() -> URL {
        if let path = ProcessInfo.processInfo.environment["ASSETS_PICKER_TESTDATA"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        var folder = current.deletingLastPathComponent()
        while true {
            let candidate = folder.appendingPathComponent("shared/testdata", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("MANIFEST.tsv").path) { return candidate }
            if folder.path == "/" { break }
            folder.deleteLastPathComponent()
        }
        return current.deletingLastPathComponent().appendingPathComponent("shared/testdata", isDirectory: true)
    }
}
