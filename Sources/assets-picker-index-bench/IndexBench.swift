import AssetsKit
import Foundation
import IndexedLibrary

/// `assets-picker-index-bench`: the IndexedLibrary targets of issue 4, measured on a synthetic
/// 100,000-asset index and on real file trees, printed as a table (metric, value, target,
/// pass/fail). Build with `swift build -c release`.
///
/// Usage: `assets-picker-index-bench [--only browse|scan] [--corpus PATH] [--files N] [--large N]`.
/// The corpus is, unless `--corpus` says otherwise, `$ASSETS_PICKER_TESTDATA` or the first
/// `shared/testdata` beside the current folder or one of its parents (`../shared/testdata` when
/// run from the package); it is only read: the benchmark indexes a copy.
@main
struct IndexBench {
    static func main() async throws {
        let arguments = BenchArguments(CommandLine.arguments.dropFirst())
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("index-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var table = ResultTable()
        if arguments.only != .scan {
            try await BrowseBenchmark(root: work.appendingPathComponent("synthetic"), assets: 100_000).run(into: &table)
        }
        if arguments.only != .browse {
            try await ScanBenchmark(work: work, arguments: arguments).run(into: &table)
        }
        print(table.render())
    }
}

/// The few options of the benchmark.
struct BenchArguments {
    /// The two halves of the benchmark, to run one alone.
    enum Part: String {
        case browse, scan
    }

    var only: Part?
    var corpus = Self.defaultCorpus()
    var files = 100_000
    var largePhotos = 200

    init(_ arguments: ArraySlice<String>) {
        var rest = arguments.makeIterator()
        while let name = rest.next() {
            guard let value = rest.next() else { break }
            switch name {
            case "--only": only = Part(rawValue: value)
            case "--corpus": corpus = URL(fileURLWithPath: value)
            case "--files": files = Int(value) ?? files
            case "--large": largePhotos = Int(value) ?? largePhotos
            default: FileHandle.standardError.write(Data("ignored \(name)\n".utf8))
            }
        }
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
