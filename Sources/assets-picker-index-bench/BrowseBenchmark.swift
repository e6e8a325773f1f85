import AssetsKit
import Foundation
import IndexedLibrary

/// Opening and browsing a synthetic 100,000-asset index: the first screen, pages, counts and
/// the memory a walk through every asset takes.
struct BrowseBenchmark {
    let root: URL
    let assets: Int

    func run(into table: inout ResultTable) async throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        Log.stage("making a synthetic index of \(assets) assets")
        try SyntheticIndex.make(root: root, assets: assets, directories: 200, seed: 42)
        let all = SmartAlbum.all.collectionIdentifier
        let firstPage = FetchOptions(sortOrder: .newestFirst, limit: 60)

        // The first screen: open, every collection with its count, the newest 60 of All Photos.
        // The steps' times are kept, for the first open of the process (a command's whole work).
        var steps: [Double] = []
        func firstScreen() async throws -> IndexedLibrary {
            var library: IndexedLibrary?
            steps = [
                try await Measure.milliseconds { library = try IndexedLibrary(root: root, databaseURL: SyntheticIndex.databaseURL(root: root)) },
                try await Measure.milliseconds { _ = try await library?.collections() },
                try await Measure.milliseconds { _ = try await library?.assets(in: all, options: firstPage).assets(in: 0..<60) },
            ]
            guard let library else { throw CocoaError(.fileReadUnknown) }
            return library
        }
        let library = try await firstScreen()
        let cold = steps.reduce(0, +)
        let coldSteps = steps.map(ResultTable.format).joined(separator: " + ")
        let warm = try await Measure.median(runs: 9) { _ = try await firstScreen() }
        table.atMost("open + first screen, first open of the process", milliseconds: cold, target: 20)
        table.add("  of which open + collections() + first page", value: coldSteps + " ms", target: "-", passed: nil)
        table.atMost("open + first screen (median of 9)", milliseconds: warm, target: 20)
        let collections = try await Measure.median(runs: 9) { _ = try await library.collections() }
        table.add("  of which collections() with all counts", value: ResultTable.format(collections) + " ms", target: "-", passed: nil)

        // Pages of 60: at the start, at offset 50,000 (OFFSET), and keyset continuations deep in.
        let page0 = try await Measure.median(runs: 9) {
            _ = try await library.assets(in: all, options: firstPage).assets(in: 0..<60)
        }
        table.atMost("page of 60 at offset 0", milliseconds: page0, target: 3)
        let page50k = try await Measure.median(runs: 9) {
            _ = try await library.assets(in: all, options: FetchOptions(sortOrder: .newestFirst, limit: 60, offset: 50_000)).assets(in: 0..<60)
        }
        table.atMost("page of 60 at offset 50,000 (OFFSET)", milliseconds: page50k, target: 3)
        let fetch = try await library.assets(in: all, options: FetchOptions(sortOrder: .newestFirst))
        var keysetTimes: [Double] = []
        var start = 0
        while start + 60 <= min(fetch.count, 50_100) {
            let range = start..<(start + 60)
            keysetTimes.append(try await Measure.milliseconds { _ = try await fetch.assets(in: range) })
            start += 60
        }
        keysetTimes.sort()
        table.atMost("keyset page of 60, median to position 50,000", milliseconds: keysetTimes[keysetTimes.count / 2], target: 3)
        table.atMost("keyset page of 60, 99th percentile", milliseconds: keysetTimes[keysetTimes.count * 99 / 100], target: 3)

        // Exact counts under filters.
        let directory = try await library.collections().first { $0.kind == .directory }?.id ?? all
        for (name, collection, filter) in [("All Photos, photos only", all, MediaFilter.photo), ("All Photos, videos only", all, .video),
                                           ("Favorites", SmartAlbum.favorites.collectionIdentifier, .all),
                                           ("Recently Added", SmartAlbum.recentlyAdded.collectionIdentifier, .all),
                                           ("largest directory, photos only", directory, .photo)] {
            let time = try await Measure.median(runs: 9) { _ = try await library.assetCount(in: collection, filter: filter) }
            table.atMost("exact count: \(name)", milliseconds: time, target: 5)
        }

        // Memory: page through every asset of the library, as a grid scrolled to the end would.
        Log.stage("paging through all \(fetch.count) assets")
        var seen = 0
        for try await _ in fetch { seen += 1 }
        let peak = Measure.peakResidentMiB()
        table.add("peak RSS (VmHWM) after browsing all \(seen) assets", value: String(format: "%.0f MB", peak * 1.048576),
                  target: "≤ 150 MB", passed: peak * 1.048576 <= 150)
    }
}

/// Stage messages on stderr, so stdout holds only the table.
enum Log {
    static func stage(_ message: String) {
        FileHandle.standardError.write(Data("… \(message)\n".utf8))
    }
}
