import AssetsKit
import Foundation
import Testing

@Suite("AssetsKit values")
struct ValueTests {
    static func asset(_ name: String, _ type: MediaType, bytes: Int64, date: TimeInterval = 0) -> Asset {
        Asset(id: .local(LocalIdentifier(uuid: UUID())), filename: name, mediaType: type,
              pixelSize: PixelSize(width: 40, height: 80), creationDate: Date(timeIntervalSince1970: date),
              creationDateSource: .exif, modificationDate: Date(timeIntervalSince1970: date), byteSize: bytes, format: "jpeg")
    }

    @Test("fitting keeps the aspect ratio and never enlarges")
    func fitting() {
        let photo = PixelSize(width: 4000, height: 3000)
        #expect(photo.fitting(in: PixelSize(width: 256, height: 256)) == PixelSize(width: 256, height: 192))
        #expect(photo.transposed.fitting(in: PixelSize(width: 256, height: 256)) == PixelSize(width: 192, height: 256))
        #expect(PixelSize(width: 40, height: 80).fitting(in: PixelSize(width: 256, height: 256)) == PixelSize(width: 40, height: 80))
        #expect(photo.covering(PixelSize(width: 150, height: 150)) == PixelSize(width: 200, height: 150))
    }

    @Test("a fill larger than the original keeps the asked shape inside it; anything else is unchanged")
    func fillBoundedByTheOriginal() {
        let fill = ImageRequest(targetSize: PixelSize(width: 300, height: 200), contentMode: .fill)
        #expect(fill.bounded(byOriginal: PixelSize(width: 128, height: 128)).targetSize == PixelSize(width: 128, height: 85))
        #expect(fill.bounded(byOriginal: PixelSize(width: 1000, height: 150)).targetSize == PixelSize(width: 225, height: 150))
        #expect(fill.bounded(byOriginal: PixelSize(width: 3024, height: 4032)) == fill)
        #expect(fill.bounded(byOriginal: PixelSize(width: 300, height: 200)) == fill)
        #expect(fill.bounded(byOriginal: PixelSize(width: 0, height: 0)) == fill)
        let fit = ImageRequest(targetSize: PixelSize(width: 300, height: 200), contentMode: .fit)
        #expect(fit.bounded(byOriginal: PixelSize(width: 128, height: 128)) == fit)
        let bounded = fill.bounded(byOriginal: PixelSize(width: 128, height: 128))
        #expect(bounded.contentMode == .fill && bounded.deliveryMode == fill.deliveryMode && bounded.format == fill.format)
        #expect(ImageRequest.fullResolution().bounded(byOriginal: PixelSize(width: 10, height: 10)) == .fullResolution())
    }

    @Test("WxH parses; nonsense does not", arguments: [("256x256", true), ("300X200", true), ("0x10", false), ("-1x5", false), ("abc", false), ("12x", false)])
    func parsing(_ text: String, _ valid: Bool) {
        #expect((PixelSize(parsing: text) != nil) == valid)
    }

    @Test("the byte size of picks counts photos only unless asked, and reads nothing")
    func byteSizeOfPicks() async throws {
        let picks = [Self.asset("a.jpg", .photo, bytes: 1000), Self.asset("b.mp4", .video, bytes: 50_000), Self.asset("c.jpg", .photo, bytes: 234)]
        let library = EmptyLibrary()
        #expect(library.byteSize(of: picks) == 1234)
        #expect(library.byteSize(of: picks, including: .all) == 51_234)
        #expect(library.byteSize(of: picks, including: .video) == 50_000)
    }

    @Test("a fetch result loads in pages and gives every asset once, in order")
    func fetchResultPaging() async throws {
        let assets = (0..<450).map { Self.asset("\($0).jpg", .photo, bytes: Int64($0), date: Double($0)) }
        let source = CountingSource(assets: assets)
        let result = FetchResult(source: source, pageSize: 200)
        #expect(result.count == 450)
        var seen: [Int64] = []
        for try await asset in result { seen.append(asset.byteSize) }
        #expect(seen == (0..<450).map(Int64.init))
        #expect(await source.requestedRanges == [0..<200, 200..<400, 400..<450])
        #expect(try await result.asset(at: 449).byteSize == 449)
        await #expect(throws: LibraryError.self) { try await result.asset(at: 450) }
        #expect(try await result.assets(in: 440..<999).count == 10)
    }

    @Test("fetch options list by creation date unless album order is asked for; a negative offset is zero")
    func fetchOptionsDefaults() {
        #expect(FetchOptions().albumOrder == false)
        #expect(FetchOptions(albumOrder: true).albumOrder)
        #expect(FetchOptions(offset: -3).offset == 0)
    }

    @Test("dates print in ISO 8601 with the recorded offset, or in UTC")
    func isoDates() {
        let date = Date(timeIntervalSince1970: 1_080_643_426) // 2004-03-30T10:43:46Z
        #expect(ISO8601.string(from: date, offset: nil) == "2004-03-30T10:43:46Z")
        #expect(ISO8601.string(from: date, offset: 7200) == "2004-03-30T12:43:46+02:00")
        #expect(ISO8601.string(from: date, offset: -34200) == "2004-03-30T01:13:46-09:30")
        #expect(ISO8601.date(from: "2004-03-30T12:43:46+02:00") == date)
    }

    @Test("an asset encodes with the documented camelCase keys and decodes back")
    func assetJSON() throws {
        var asset = Self.asset("clip.mp4", .video, bytes: 5314, date: 1_080_643_426)
        asset.duration = 1.0
        asset.location = GeoLocation(latitude: 39.91556, longitude: 116.39083)
        let data = try JSONEncoder().encode(asset)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["id", "filename", "mediaType", "pixelWidth", "pixelHeight", "creationDate", "byteSize", "duration"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["creationDate"] as? String == "2004-03-30T10:43:46Z")
        #expect(object["mediaType"] as? String == "video")
        #expect(try JSONDecoder().decode(Asset.self, from: data) == asset)
    }
}

/// Records which ranges a fetch result asked for.
actor RangeLog {
    var ranges: [Range<Int>] = []
    func append(_ range: Range<Int>) { ranges.append(range) }
}

struct CountingSource: FetchResultSource {
    let assets: [Asset]
    let log = RangeLog()
    var count: Int { assets.count }
    var requestedRanges: [Range<Int>] { get async { await log.ranges } }
    func assets(in range: Range<Int>) async throws -> [Asset] {
        await log.append(range)
        return Array(assets[range])
    }
}

/// A library with nothing in it, to exercise the protocol's shared behaviour.
struct EmptyLibrary: PhotoLibrary {
    let backendName = "empty"
    let rootURL = URL(fileURLWithPath: "/nonexistent")
    func authorizationStatus() async -> AuthorizationStatus { .denied }
    func requestAuthorization() async -> AuthorizationStatus { .denied }
    func collections() async throws -> [AssetCollection] { [] }
    func cameraRoll() async throws -> AssetCollection { throw LibraryError.collectionNotFound("camera roll") }
    func assetCount(in collection: CollectionIdentifier, filter: MediaFilter) async throws -> Int { 0 }
    func assets(in collection: CollectionIdentifier, options: FetchOptions) async throws -> FetchResult {
        FetchResult(source: CountingSource(assets: []))
    }
    func assets(withIdentifiers identifiers: [AssetIdentifier]) async throws -> AssetLookup { AssetLookup(found: [], missing: identifiers) }
    func image(for asset: Asset, request: ImageRequest) -> AsyncThrowingStream<ImageResult, Error> { AsyncThrowingStream { $0.finish() } }
    func originalFile(for asset: Asset) async throws -> OriginalResource { throw LibraryError.assetNotFound(asset.id.description) }
    func startCaching(_ assets: [Asset], request: ImageRequest) async {}
    func stopCaching(_ assets: [Asset], request: ImageRequest) async {}
    func stopCachingAll() async {}
    func changes() -> AsyncStream<LibraryChange> { AsyncStream { $0.finish() } }
}
