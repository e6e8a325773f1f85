import AssetsKit
import Foundation
import IndexedLibrary

/// Indexing real files: the metadata rate on the shared corpus, on small photos and on
/// 12-megapixel JPEGs, and the rescan of a large tree where nothing changed.
struct ScanBenchmark {
    let work: URL
    let arguments: BenchArguments

    func run(into table: inout ResultTable) async throws {
        let corpus = work.appendingPathComponent("corpus")
        try FileTrees.corpusCopy(from: arguments.corpus, into: corpus)
        let corpusRate = try await indexingRate(corpus)
        table.add("indexing rate, shared corpus (\(corpusRate.files) files, 4 videos)", value: String(format: "%.0f files/s", corpusRate.perSecond),
                  target: "report", passed: nil)

        Log.stage("writing \(arguments.largePhotos) 12-megapixel JPEGs")
        let large = work.appendingPathComponent("large")
        try await FileTrees.twelveMegapixelPhotos(in: large, count: arguments.largePhotos)
        let largeRate = try await indexingRate(large)
        table.add("indexing rate, \(largeRate.files) 12-MP JPEGs", value: String(format: "%.0f files/s", largeRate.perSecond),
                  target: "report", passed: nil)

        Log.stage("writing \(arguments.files) small JPEGs")
        let small = work.appendingPathComponent("small")
        try FileTrees.smallPhotos(in: small, count: arguments.files, directories: 200)
        Log.stage("indexing them")
        let smallRate = try await indexingRate(small)
        table.add("indexing rate, \(smallRate.files) small JPEGs (first index)", value: String(format: "%.0f files/s", smallRate.perSecond),
                  target: "≥ 2000 files/s", passed: smallRate.perSecond >= 2_000)

        Log.stage("rescanning them unchanged")
        let library = try IndexedLibrary(root: small, databaseURL: SyntheticIndex.databaseURL(root: small))
        var summary = ScanSummary()
        let rescan = try await Measure.milliseconds { summary = try await library.scan() }
        table.add("rescan of \(summary.scanned) unchanged files (\(summary.metadataReads) read)", value: String(format: "%.2f s", rescan / 1_000),
                  target: "≤ 3 s", passed: rescan <= 3_000 && summary.metadataReads == 0)
    }

    /// Indexes `root` from nothing; files scanned per second of the whole scan.
    private func indexingRate(_ root: URL) async throws -> (files: Int, perSecond: Double) {
        let library = try IndexedLibrary(root: root, databaseURL: SyntheticIndex.databaseURL(root: root))
        var summary = ScanSummary()
        let time = try await Measure.milliseconds { summary = try await library.scan() }
        return (summary.scanned, Double(summary.scanned) / (time / 1_000))
    }
}
