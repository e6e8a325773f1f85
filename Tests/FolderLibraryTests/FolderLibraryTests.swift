import AssetsKit
import FolderLibrary
import Foundation
import ImagePipeline
import LibraryTree
import Testing
import TestSupport

@Suite("FolderLibrary over the shared corpus")
struct FolderLibraryTests {
    let library = FolderLibrary(root: Corpus.root)
    static let sony = "A_camera_exif/jhead__sony.jpg"

    func asset(named filename: String) async throws -> Asset {
        let all = try await library.assets(in: FolderLibrary.cameraRollID, options: FetchOptions())
        for try await asset in all where asset.filename == filename { return asset }
        throw LibraryError.assetNotFound(filename)
    }

    @Test("the camera roll comes first, then one group per folder, one without media (LICENSES) too")
    func collections() async throws {
        let collections = try await library.collections()
        #expect(collections.first?.kind == .cameraRoll)
        #expect(collections.first?.title == "All Photos")
        #expect(collections.dropFirst().map(\.title) == ["A_camera_exif", "B_orientation", "C_pngsuite", "D_hostile", "E_formats", "LICENSES"])
        #expect(try await library.cameraRoll().id == FolderLibrary.cameraRollID)
    }

    @Test("exact counts per media filter; the estimate counts files by name")
    func counts() async throws {
        let groups = try await library.collections()
        let camera = try #require(groups.first { $0.title == "A_camera_exif" })
        #expect(camera.estimatedAssetCount == 15)
        #expect(try await library.assetCount(in: camera.id, filter: .all) == 15)
        #expect(try await library.assetCount(in: camera.id, filter: .video) == 0)
        let formats = try #require(groups.first { $0.title == "E_formats" })
        let videos = try await library.assetCount(in: formats.id, filter: .video)
        #expect(videos == 4)
        let photos = try await library.assetCount(in: formats.id, filter: .photo)
        #expect(try await library.assetCount(in: formats.id, filter: .all) == photos + videos)
        let pngSuite = try #require(groups.first { $0.title == "C_pngsuite" })
        #expect(pngSuite.estimatedAssetCount == Corpus.files(in: "C_pngsuite").count)
    }

    @Test("assets sort by creation date either way, and page with limit and offset")
    func sortingAndPaging() async throws {
        let camera = try #require(try await library.collections().first { $0.title == "A_camera_exif" })
        let newest = try await library.assets(in: camera.id, options: FetchOptions(sortOrder: .newestFirst))
        let oldest = try await library.assets(in: camera.id, options: FetchOptions(sortOrder: .oldestFirst))
        let newestDates = try await newest.assets(in: 0..<15).map(\.creationDate)
        #expect(newestDates == newestDates.sorted(by: >))
        #expect(try await oldest.assets(in: 0..<15).map(\.id) == newest.assets(in: 0..<15).map(\.id).reversed())
        #expect(try await oldest.first()?.filename == "jhead__olympus.jpg") // 1999
        let page = try await library.assets(in: camera.id, options: FetchOptions(sortOrder: .oldestFirst, limit: 4, offset: 2))
        #expect(page.count == 4)
        #expect(try await page.assets(in: 0..<4).map(\.id) == oldest.assets(in: 2..<6).map(\.id))
    }

    @Test("identifiers are legacy URLs, stable across library instances, found in either form")
    func identifiers() async throws {
        let asset = try await asset(named: "jhead__sony.jpg")
        guard case .legacy(let url) = asset.id else { Issue.record("not a legacy URL"); return }
        #expect(url.fileExtension == "JPG")
        #expect(url.uuid == AssetUUID.forFile(atRelativePath: Self.sony))
        let other = FolderLibrary(root: Corpus.root)
        let missing = AssetIdentifier.local(LocalIdentifier(uuid: UUID()))
        let lookup = try await other.assets(withIdentifiers: [.local(url.localIdentifier), missing, asset.id])
        #expect(lookup.found.map(\.filename) == ["jhead__sony.jpg", "jhead__sony.jpg"])
        #expect(lookup.missing == [missing])
    }

    @Test("an opportunistic request gives the EXIF thumbnail first, then the asked size, final last")
    func opportunistic() async throws {
        let asset = try await asset(named: "goexif__sample1.jpg") // 500x375 with a thumbnail
        var results: [ImageResult] = []
        for try await result in library.image(for: asset, request: ImageRequest(targetSize: PixelSize(width: 400, height: 300))) {
            results.append(result)
        }
        #expect(results.map(\.isDegraded) == [true, false])
        #expect(results.first?.source == .embeddedThumbnail)
        #expect(results.last?.source == .rendered)
        #expect(results.last?.pixelSize == PixelSize(width: 400, height: 300))
    }

    @Test("the legacy representations, asked for by name, keep their fixed sizes")
    func legacyRepresentations() async throws {
        let asset = try await asset(named: "goexif__sample1.jpg")
        let expected: [(Representation, PixelSize)] = [
            (.squareThumbnail, PixelSize(width: 150, height: 150)), (.aspectRatioThumbnail, PixelSize(width: 256, height: 192)),
            (.fullScreen, PixelSize(width: 500, height: 375)), (.fullResolution, PixelSize(width: 500, height: 375)),
        ]
        for (representation, size) in expected {
            let image = try await library.image(for: asset, representation: representation)
            #expect(image.pixelSize == size, "\(representation)")
            #expect(image.source == representation.imageSource && !image.isDegraded)
        }
    }

    @Test("high-quality and fast delivery give exactly one answer")
    func singleAnswerModes() async throws {
        for mode in [DeliveryMode.highQualityFormat, .fastFormat] {
            let library = FolderLibrary(root: Corpus.root) // nothing cached yet
            let asset = try await asset(named: "goexif__sample1.jpg")
            var results: [ImageResult] = []
            for try await result in library.image(for: asset, request: ImageRequest(targetSize: PixelSize(width: 200, height: 150), deliveryMode: mode)) {
                results.append(result)
            }
            #expect(results.count == 1)
            #expect(results.first?.isDegraded == false)
            #expect(results.first?.source == (mode == .fastFormat ? .embeddedThumbnail : .rendered))
        }
    }

    @Test("an embedded thumbnail of a turned photo is delivered upright")
    func uprightEmbeddedThumbnail() async throws {
        let asset = try await asset(named: "goexif__has-lens-info.jpg") // orientation 6, 102x205 upright, thumbnail 160x120 stored
        #expect(asset.pixelSize.height > asset.pixelSize.width)
        let results = try await collect(library.image(for: asset, request: ImageRequest(targetSize: PixelSize(width: 120, height: 200), deliveryMode: .fastFormat)))
        let thumbnail = try #require(results.first)
        #expect(thumbnail.source == .embeddedThumbnail)
        #expect(thumbnail.pixelSize.height > thumbnail.pixelSize.width)
    }

    @Test("full resolution is the whole upright original")
    func fullResolution() async throws {
        let asset = try await asset(named: "goexif__has-lens-info.jpg") // orientation 6, stored 205x102
        let image = try await library.fullResolutionImage(for: asset)
        #expect(image.pixelSize == PixelSize(width: 102, height: 205))
        #expect(image.source == .fullResolution)
    }

    @Test("a video's images come from a poster frame, at the asked size")
    func videoPoster() async throws {
        let asset = try await asset(named: "puremagic__test.mp4")
        #expect(asset.mediaType == .video)
        #expect(abs((asset.duration ?? 0) - 1.0) < 0.06)
        let image = try await library.finalImage(for: asset, request: ImageRequest(targetSize: PixelSize(width: 300, height: 200), contentMode: .fill))
        #expect(image.pixelSize == PixelSize(width: 300, height: 200))
        #expect(image.source == .videoFrame)
        let square = try await library.finalImage(for: asset, request: ImageRequest(targetSize: PixelSize(width: 64, height: 64), contentMode: .fill))
        #expect(square.pixelSize == PixelSize(width: 64, height: 64))
        let legacy = try await library.image(for: asset, representation: .aspectRatioThumbnail)
        #expect(legacy.pixelSize == PixelSize(width: 256, height: 171) && legacy.source == .aspectRatioThumbnail)
    }

    @Test("a collection's poster is its oldest asset under the filter; an empty one gives no image")
    func posters() async throws {
        let camera = try #require(try await library.collections().first { $0.title == "A_camera_exif" })
        let key = try await library.keyAsset(of: camera.id, filter: .photo)
        #expect(key?.filename == "jhead__olympus.jpg")
        let poster = try await collect(library.posterImage(for: camera.id, filter: .photo, size: PixelSize(width: 300, height: 300)))
        #expect(poster.last?.isDegraded == false)
        #expect(try await collect(library.posterImage(for: camera.id, filter: .video, size: PixelSize(width: 100, height: 100))).isEmpty)
    }

    @Test("the original file, its size and type; the byte size of picks from metadata alone")
    func originals() async throws {
        let photo = try await asset(named: "jhead__sony.jpg")
        let video = try await asset(named: "puremagic__test.mp4")
        let original = try await library.originalFile(for: photo)
        #expect(original.byteSize == 9381)
        #expect(original.contentType == "image/jpeg")
        #expect(try withExtendedLifetime(original) { try Data(contentsOf: original.file.url) }.count == 9381)
        #expect(library.byteSize(of: [photo, video]) == 9381)
        #expect(library.byteSize(of: [photo, video], including: .all) == 9381 + 5314)
    }

    @Test("a folder library is read-only: it takes no changes, keeps no index, history or drafts, needs no watching, reports what it skips, can be waited for")
    func readOnly() async throws {
        #expect(library.changing == nil)
        #expect(library.changeHistory == nil)
        #expect(library.indexing == nil)
        #expect(library.drafts == nil)
        #expect(library.watching == nil)
        #expect(library.skippedFileReport != nil)
        #expect(library.backgroundSettling != nil)
    }

    @Test("its change stream stays open while the library lives (background reads announce on it) and ends with it")
    func changeStreamEndsWithTheLibrary() async throws {
        var library: FolderLibrary? = FolderLibrary(root: Corpus.root)
        let changes = try #require(library).changes()
        library = nil
        var count = 0
        for await _ in changes { count += 1 }
        #expect(count == 0)
    }

    @Test("authorization is not determined until asked; a readable folder is then allowed")
    func authorization() async throws {
        let fresh = FolderLibrary(root: Corpus.root)
        #expect(await fresh.authorizationStatus() == .notDetermined)
        let status = await fresh.requestAuthorization()
        #expect(status.allowsReading)
        #expect(await fresh.authorizationStatus() == status)
    }

    func collect(_ stream: AsyncThrowingStream<ImageResult, Error>) async throws -> [ImageResult] {
        var results: [ImageResult] = []
        for try await result in stream { results.append(result) }
        return results
    }
}
