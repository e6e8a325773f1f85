import AssetsKit
import Foundation
import IndexedLibrary

/// `assets-picker-index-bench`: the IndexedLibrary targets of issue 4, measured on a synthetic
/// 100,000-asset index and on real file trees, printed as a table (metric, value, target,
/// pass/fail). Build with `swift build -c release`.
///
/// Usage: `assets-picker-index-bench [--only browse|scan] [--corpus PATH] [--files N] [--large N]`.
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
    var corpus = URL(fileURLWithPath: "/work/shared/testdata")
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
}
