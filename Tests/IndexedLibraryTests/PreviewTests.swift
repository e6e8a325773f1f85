import AssetsKit
import Foundation
import ImagePipeline
@testable import IndexedLibrary
import Testing
import TestSupport

@Suite("Previews made at index time: beside the index, upright, the first image of a photo without an EXIF thumbnail")
struct PreviewTests {
    static let noThumbnailJPEG = "B_orientation/goexif__f6-exif.jpg"   // 80x40 stored, orientation 6, no EXIF thumbnail
    static let uprightJPEG = "B_orientation/goexif__f1-exif.jpg"       // the same picture stored upright, 40x80
    static let png = "C_pngsuite/basn2c08.png"                         // 32x32
    static let thumbnailJPEG = "A_camera_exif/goexif__sample1.jpg"     // with an EXIF thumbnail

    /// A library of `files` (corpus paths, copied under their own names), scanned, with previews made.
    func indexed(_ engine: IndexEngine, _ files: [String]) async throws -> (TemporaryTree, IndexedLibrary, PreviewSummary) {
        let tree = try TemporaryTree(engine: engine)
        for file in files { try tree.copy(file, to: file) }
        let library = try await tree.openLibrary()
        try await library.scan()
        return (tree, library, try await library.makePreviews())
    }

    func asset(named filename: String, in library: IndexedLibrary) async throws -> Asset {
        var found: Asset?
        for try await asset in try await library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions())
        where asset.filename == filename {
            found = asset
        }
        return try #require(found)
    }

    func previewURL(of file: String, in library: IndexedLibrary) async throws -> URL? {
        let asset = try await asset(named: URL(fileURLWithPath: file).lastPathComponent, in: library)
        return try await library.imageSource(of: asset).previewURL
    }

    @Test("a JPEG without an EXIF thumbnail and a PNG get a preview beside the index; a JPEG with one gets none", arguments: IndexEngine.allCases)
    func whoGetsOne(_ engine: IndexEngine) async throws {
        let (tree, library, summary) = try await indexed(engine, [Self.noThumbnailJPEG, Self.png, Self.thumbnailJPEG])
        defer { tree.remove() }
        #expect(summary.made == 2)
        #expect(summary.failed.isEmpty)
        for file in [Self.noThumbnailJPEG, Self.png] {
            let url = try #require(try await previewURL(of: file, in: library))
            #expect(FileManager.default.fileExists(atPath: url.path))
            #expect(url.path.hasPrefix(tree.indexURL.deletingLastPathComponent().appendingPathComponent("library-previews").path))
        }
        #expect(try await previewURL(of: Self.thumbnailJPEG, in: library) == nil)
        let again = try await library.makePreviews()
        #expect(again.made == 0 && again.unchanged == 3)
    }

    @Test("a preview is upright: the orientation-6 file's preview is the upright picture", arguments: IndexEngine.allCases)
    func upright(_ engine: IndexEngine) async throws {
        let (tree, library, _) = try await indexed(engine, [Self.noThumbnailJPEG])
        defer { tree.remove() }
        let url = try #require(try await previewURL(of: Self.noThumbnailJPEG, in: library))
        let renderer = ImageRenderer()
        let preview = try renderer.pixels(of: Data(contentsOf: url), name: "preview")
        let reference = try renderer.pixels(of: Data(contentsOf: Corpus.file(Self.uprightJPEG)), name: "reference")
        #expect(preview.width == 40 && preview.height == 80)
        #expect(preview.width == reference.width && preview.height == reference.height && preview.bands == reference.bands)
        let difference = zip(preview.bytes, reference.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(max(1, preview.bytes.count)) < 12, "mean difference per sample")
    }

    @Test("a fast request is answered from the preview, with no render of the original", arguments: IndexEngine.allCases)
    func degradedFromPreview(_ engine: IndexEngine) async throws {
        let (tree, library, _) = try await indexed(engine, [Self.png])
        defer { tree.remove() }
        let asset = try await asset(named: "basn2c08.png", in: library)
        var results: [ImageResult] = []
        let request = ImageRequest(targetSize: PixelSize(width: 256, height: 256), contentMode: .fill, deliveryMode: .fastFormat)
        for try await result in library.image(for: asset, request: request) { results.append(result) }
        #expect(results.map(\.source) == [.preview])
        #expect(results.first?.pixelSize == PixelSize(width: 32, height: 32))
        #expect(await library.imageManager.renderCount == 0)
    }

    @Test("quickImages gives the preview (degraded) and renders nothing; a photo with neither preview nor thumbnail gives none", arguments: IndexEngine.allCases)
    func quickImageIsThePreview(_ engine: IndexEngine) async throws {
        let (tree, library, _) = try await indexed(engine, [Self.png])
        defer { tree.remove() }
        let request = ImageRequest(targetSize: PixelSize(width: 120, height: 120), contentMode: .fill, deliveryMode: .fastFormat)
        let photo = try await asset(named: "basn2c08.png", in: library)
        let quick = try #require(await library.quickImages(for: [photo], request: request, startingBefore: .now)[photo.id.uuid])
        #expect(quick.source == .preview && quick.isDegraded)
        #expect(quick.pixelSize == PixelSize(width: 32, height: 32))
        let url = try #require(try await previewURL(of: Self.png, in: library))
        try FileManager.default.removeItem(at: url)
        #expect(await library.quickImages(for: [photo], request: request, startingBefore: .now).isEmpty)
        #expect(await library.imageManager.renderCount == 0)
    }

    @Test("a deleted photo loses its preview at the next rescan", arguments: IndexEngine.allCases)
    func removedWithItsAsset(_ engine: IndexEngine) async throws {
        let (tree, library, _) = try await indexed(engine, [Self.noThumbnailJPEG, Self.png])
        defer { tree.remove() }
        let url = try #require(try await previewURL(of: Self.png, in: library))
        try FileManager.default.removeItem(at: tree.url(Self.png))
        try await library.scan()
        let summary = try await library.makePreviews()
        #expect(summary.removed == 1)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try await previewURL(of: Self.noThumbnailJPEG, in: library).map { FileManager.default.fileExists(atPath: $0.path) } == true)
    }

    @Test("a photo whose file changed gets a preview of the new version, and the old one is removed", arguments: IndexEngine.allCases)
    func replacedWithTheFile(_ engine: IndexEngine) async throws {
        let (tree, library, _) = try await indexed(engine, [Self.png])
        defer { tree.remove() }
        let old = try #require(try await previewURL(of: Self.png, in: library))
        try Data(contentsOf: Corpus.file("C_pngsuite/basn0g16.png")).write(to: tree.url(Self.png))
        try await library.scan()
        #expect(try await library.makePreviews().made == 1)
        let new = try #require(try await previewURL(of: Self.png, in: library))
        #expect(new != old)
        #expect(FileManager.default.fileExists(atPath: new.path) && !FileManager.default.fileExists(atPath: old.path))
    }

    @Test("indexing the corpus, broken files included, makes every preview it can and reports the rest", arguments: IndexEngine.allCases)
    func corpusWithBrokenFiles(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree.corpusCopy(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        try await library.scan()
        let summary = try await library.makePreviews()
        #expect(summary.made > 40)
        #expect(summary.failed.contains { $0.path == "D_hostile/pillow__truncated_jpeg.jpg" })
        let again = try await library.makePreviews()
        #expect(again.made == 0 && again.failed.count == summary.failed.count, "a file that failed is tried again, and fails again")
    }
}
