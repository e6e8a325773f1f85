import AssetsKit
import Foundation
import LibraryOpening

/// The in-process side of the large-library benchmark, run in a child process of its own so that
/// its peak memory is its own: open a library, list its albums as the picker page lists them
/// (counts under the filter and posters), take the newest 60 of All Photos; then the newest 60 of
/// the largest folder or album (apart from the first screen: the page a person opens next); then the same
/// again in the same process (the second open), once the reads a folder library left to the
/// background are over (their time is reported).
struct FirstScreenScenario {
    let library: URL
    let backend: LibraryBackend
    let index: URL

    /// One pass: the three steps' milliseconds and how many albums were listed; then the first
    /// page of the largest album and its size.
    struct Pass: Codable {
        var open: Double
        var albums: Double
        var firstPage: Double
        var albumCount: Int
        var largestAlbumPage: Double
        var largestAlbumCount: Int
        /// A folder library's background reads (after a provisional first screen): the time from
        /// the end of the first screen until they were over.
        var backgroundReads: Double
        var total: Double { open + albums + firstPage }
    }

    /// What the child prints: the first and the second pass, and its peak resident memory.
    struct Report: Codable {
        var first: Pass
        var second: Pass
        var peakResidentMiB: Double
    }

    func run() async throws -> Report {
        let first = try await pass()
        let second = try await pass()
        return Report(first: first, second: second, peakResidentMiB: Measure.peakResidentMiB())
    }

    private func pass() async throws -> Pass {
        var opened: (any PhotoLibrary)?
        var summaries: [AlbumSummary] = []
        let open = try await Measure.milliseconds {
            opened = try await LibraryOpener().open(root: library, backend: backend, indexURL: index)
        }
        guard let opened else { throw CocoaError(.fileReadUnknown) }
        let albums = try await Measure.milliseconds { summaries = try await Self.albumList(of: opened) }
        let firstPage = try await Measure.milliseconds { _ = try await Self.newest60(of: opened.cameraRoll().id, in: opened) }
        let largest = summaries.filter { [.directory, .album].contains($0.collection.kind) }.max { $0.count < $1.count }
        var largestPage = 0.0
        if let largest {
            largestPage = try await Measure.milliseconds { _ = try await Self.newest60(of: largest.collection.id, in: opened) }
        }
        let backgroundReads = await Measure.milliseconds { await opened.backgroundSettling?.settled() }
        return Pass(open: open, albums: albums, firstPage: firstPage, albumCount: summaries.count,
                    largestAlbumPage: largestPage, largestAlbumCount: largest?.count ?? 0, backgroundReads: backgroundReads)
    }

    /// The album list as the picker page shows it: every collection with its count and poster.
    static func albumList(of library: any PhotoLibrary) async throws -> [AlbumSummary] {
        try await library.albumSummaries(filter: .all)
    }

    /// The newest 60 of a collection, as the grid's first screen asks for them.
    private static func newest60(of collection: CollectionIdentifier, in library: any PhotoLibrary) async throws -> [Asset] {
        let result = try await library.assets(in: collection, options: FetchOptions(sortOrder: .newestFirst, limit: 60))
        return try await result.assets(in: 0..<result.count)
    }
}
