import AssetsKit
import Foundation
import ImagePipeline
@testable import IndexedLibrary
import Synchronization
import Testing
import TestSupport

/// Renders as the default rendering does, and records which files it was asked to render, in order.
final class RecordingRendering: ImageRendering {
    private let base = LibvipsImageRendering()
    private let calls = Mutex<[String]>([])

    /// The relative paths rendered so far, in the order asked.
    var rendered: [String] { calls.withLock { $0 } }

    func render(_ source: ImageSourceFile, request: ImageRequest) async throws -> ImageResult {
        calls.withLock { $0.append(source.original.relativePath) }
        return try await base.render(source, request: request)
    }

    func quickImage(_ source: ImageSourceFile, request: ImageRequest) -> ImageResult? {
        base.quickImage(source, request: request)
    }
}

@Suite("Previews follow the index: made after it, newest first, planned from the index")
struct PreviewRunTests {
    /// PNGs (no EXIF: dated by their files) taken in these years, each named for its year.
    static let years = [2001, 2003, 2002, 2004]

    /// A library of one PNG per year in `years`, scanned, whose previews are rendered through `rendering`.
    func scanned(_ engine: IndexEngine, rendering: RecordingRendering) async throws -> (TemporaryTree, IndexedLibrary) {
        let tree = try TemporaryTree(engine: engine)
        for year in Self.years {
            try tree.copy("C_pngsuite/basn2c08.png", to: "photos/\(year).png")
            let date = try #require(DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: year, month: 6, day: 1).date)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: tree.url("photos/\(year).png").path)
        }
        let library = try await tree.openLibrary(
                                         imageManager: CachingImageManager(rendering: rendering))
        try await library.scan()
        return (tree, library)
    }

    /// The preview files and their modification dates.
    func previewFiles(of library: IndexedLibrary) throws -> [String: Date] {
        let folder = try #require(library.previews).folder
        var files: [String: Date] = [:]
        for path in (FileManager.default.subpaths(atPath: folder.path) ?? []) where path.hasSuffix(".jpg") {
            files[path] = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.modificationDate] as? Date
        }
        return files
    }

    @Test("a scan makes no preview, and the library lists and shows its photos at once (a render stands in)", arguments: IndexEngine.allCases)
    func scanReturnsBeforePreviews(_ engine: IndexEngine) async throws {
        let rendering = RecordingRendering()
        let (tree, library) = try await scanned(engine, rendering: rendering)
        defer { tree.remove() }
        #expect(try previewFiles(of: library).isEmpty)
        #expect(rendering.rendered.isEmpty)
        let assets = try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions()))
        #expect(assets.map(\.filename) == ["2004.png", "2003.png", "2002.png", "2001.png"])
        var results: [ImageResult] = []
        let request = ImageRequest(targetSize: PixelSize(width: 64, height: 64), contentMode: .fill, deliveryMode: .fastFormat)
        for try await result in library.image(for: try #require(assets.first), request: request) { results.append(result) }
        #expect(results.count == 1 && results.first?.source != .preview)
    }

    @Test("servers on two machines sharing one PostgreSQL index each make, record and forget the previews of their own folder")
    func previewsPerMachine() async throws {
        let (tree, first) = try await scanned(.postgresql, rendering: RecordingRendering())
        defer { tree.remove() }
        let run: @Sendable (IndexedLibrary) async throws -> PreviewSummary = { library in
            try await library.makePreviews(width: 1, progress: nil, isInterrupted: { false })
        }
        #expect(try await run(first).made == 4)
        let secondRendering = RecordingRendering()
        let second = try await tree.openLibrary(imageManager: CachingImageManager(rendering: secondRendering), machine: "b")
        #expect(try await run(second).made == 4, "the second machine's folder held none of the first's previews")
        #expect(secondRendering.rendered.count == 4)
        #expect(try previewFiles(of: second).count == 4 && previewFiles(of: first).count == 4)
        let again = try await run(first)
        #expect(again.made == 0 && again.unchanged == 4)
        // The second machine's folder removed by hand: it forgets its own previews, not the first's.
        try FileManager.default.removeItem(at: try #require(second.previews).folder)
        #expect(try await run(second).made == 4)
        #expect(try await run(first).made == 0)
    }

    @Test("previews are made newest first", arguments: IndexEngine.allCases)
    func newestFirst(_ engine: IndexEngine) async throws {
        let rendering = RecordingRendering()
        let (tree, library) = try await scanned(engine, rendering: rendering)
        defer { tree.remove() }
        let summary = try await library.makePreviews(width: 1, progress: nil, isInterrupted: { false })
        #expect(summary.made == 4)
        #expect(rendering.rendered == ["photos/2004.png", "photos/2003.png", "photos/2002.png", "photos/2001.png"])
    }

    @Test("an unchanged re-index renders no preview and leaves the preview files as they were", arguments: IndexEngine.allCases)
    func unchangedReindexTouchesNothing(_ engine: IndexEngine) async throws {
        let rendering = RecordingRendering()
        let (tree, library) = try await scanned(engine, rendering: rendering)
        defer { tree.remove() }
        try await library.makePreviews()
        let before = try previewFiles(of: library)
        #expect(before.count == 4)
        try await library.scan()
        let again = try await library.makePreviews()
        #expect(again.made == 0 && again.unchanged == 4 && again.removed == 0)
        #expect(rendering.rendered.count == 4)
        #expect(try previewFiles(of: library) == before)
    }

    @Test("what a killed run left half written is removed by the next run once an hour old; a write under way is left alone", arguments: IndexEngine.allCases)
    func leftoversOfKilledRunsAreSwept(_ engine: IndexEngine) async throws {
        let rendering = RecordingRendering()
        let (tree, library) = try await scanned(engine, rendering: rendering)
        defer { tree.remove() }
        try await library.makePreviews()
        let store = try #require(library.previews)
        let old = store.partialFolder.appendingPathComponent("killed.jpg"), recent = store.partialFolder.appendingPathComponent("writing.jpg")
        for file in [old, recent] { try Data(repeating: 0xFF, count: 4_096).write(to: file) }
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-2 * PreviewStore.leftoverAge)], ofItemAtPath: old.path)
        try await library.makePreviews()
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: recent.path))
        #expect(try previewFiles(of: library).keys.filter { !$0.hasPrefix(".partial/") }.count == 4, "the previews stay")
    }

    @Test("a run stopped part-way keeps what it made; the next run makes the rest, newest first", arguments: IndexEngine.allCases)
    func interruptedRunResumes(_ engine: IndexEngine) async throws {
        let rendering = RecordingRendering()
        let (tree, library) = try await scanned(engine, rendering: rendering)
        defer { tree.remove() }
        let first = try await library.makePreviews(width: 1, progress: nil, isInterrupted: { !rendering.rendered.isEmpty })
        #expect(first.made == 1)
        let second = try await library.makePreviews(width: 1, progress: nil, isInterrupted: { false })
        #expect(second.made == 3 && second.unchanged == 1)
        #expect(rendering.rendered == ["photos/2004.png", "photos/2003.png", "photos/2002.png", "photos/2001.png"])
    }

    @Test("previews already on disk that the index does not record are taken as they are; a removed preview folder is made again", arguments: IndexEngine.allCases)
    func diskAndIndexAgree(_ engine: IndexEngine) async throws {
        let rendering = RecordingRendering()
        let (tree, library) = try await scanned(engine, rendering: rendering)
        defer { tree.remove() }
        try await library.makePreviews()
        // As an index made before schema v6 knows its previews: not at all.
        try await library.index.forgetAllPreviews()
        let adopted = try await library.makePreviews()
        #expect(adopted.made == 0 && adopted.unchanged == 4)
        #expect(rendering.rendered.count == 4)
        try FileManager.default.removeItem(at: try #require(library.previews).folder)
        #expect(try await library.makePreviews().made == 4)
        #expect(try previewFiles(of: library).count == 4)
    }

    @Test("previews asked for in the background are made, and stopping waits for the run", arguments: IndexEngine.allCases)
    func background(_ engine: IndexEngine) async throws {
        let rendering = RecordingRendering()
        let (tree, library) = try await scanned(engine, rendering: rendering)
        defer { tree.remove() }
        library.makePreviewsInBackground()
        await library.backgroundPreviews.waitUntilIdle()
        #expect(try previewFiles(of: library).count == 4)
        await library.stopMakingPreviews()
        #expect(try await library.makePreviews().made == 0)
    }
}
