import AssetsKit
import Foundation
import LibraryOpening
import Testing
import TestSupport

/// An image request gets the size and mode it asks for, the same on the folder backend as on
/// the indexed one: fit, fill, originals smaller than the target (the asked shape kept, never
/// enlarged), EXIF-rotated photos, HEIC, PNG and a video's poster frame.
@Suite("Image requests: the size asked, on both backends")
struct ImageRequestSizeTests {
    /// One request and the size its final image must have (± `slack` pixels on a side, for a
    /// fit whose exact size is not a whole number of pixels).
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let target: PixelSize
        let mode: ContentMode
        let expected: PixelSize
        var slack = 0

        var testDescription: String { "\(file) \(mode) \(target) → \(expected)" }
    }

    static let cases: [Case] = [
        // JPEG 500x375.
        Case(file: "A_camera_exif/goexif__sample1.jpg", target: PixelSize(width: 200, height: 200), mode: .fit, expected: PixelSize(width: 200, height: 150)),
        Case(file: "A_camera_exif/goexif__sample1.jpg", target: PixelSize(width: 300, height: 200), mode: .fill, expected: PixelSize(width: 300, height: 200)),
        Case(file: "A_camera_exif/goexif__sample1.jpg", target: PixelSize(width: 64, height: 64), mode: .fill, expected: PixelSize(width: 64, height: 64)),
        // Larger than the original: fit never enlarges; fill keeps the asked shape inside the original.
        Case(file: "A_camera_exif/goexif__sample1.jpg", target: PixelSize(width: 1000, height: 1000), mode: .fit, expected: PixelSize(width: 500, height: 375)),
        Case(file: "A_camera_exif/goexif__sample1.jpg", target: PixelSize(width: 1000, height: 200), mode: .fill, expected: PixelSize(width: 500, height: 100)),
        // HEIF 128x128 (smaller than the target), HEIC 1025x900, HEIC 300x200.
        Case(file: "E_formats/pheif__RGBA_10__128x128.heif", target: PixelSize(width: 300, height: 200), mode: .fill, expected: PixelSize(width: 128, height: 85)),
        Case(file: "E_formats/pheif__RGBA_10__128x128.heif", target: PixelSize(width: 300, height: 200), mode: .fit, expected: PixelSize(width: 128, height: 128)),
        Case(file: "E_formats/pheif__empty_icc.heic", target: PixelSize(width: 205, height: 180), mode: .fit, expected: PixelSize(width: 205, height: 180)),
        Case(file: "E_formats/pheif__empty_icc.heic", target: PixelSize(width: 300, height: 200), mode: .fill, expected: PixelSize(width: 300, height: 200)),
        Case(file: "E_formats/exiv2__Stonehenge.heic", target: PixelSize(width: 600, height: 300), mode: .fill, expected: PixelSize(width: 300, height: 150)),
        // PNG 32x32.
        Case(file: "C_pngsuite/basn2c08.png", target: PixelSize(width: 16, height: 8), mode: .fill, expected: PixelSize(width: 16, height: 8)),
        Case(file: "C_pngsuite/basn2c08.png", target: PixelSize(width: 300, height: 200), mode: .fill, expected: PixelSize(width: 32, height: 21)),
        Case(file: "C_pngsuite/basn2c08.png", target: PixelSize(width: 64, height: 64), mode: .fit, expected: PixelSize(width: 32, height: 32)),
        // EXIF-rotated: stored 205x102 and 80x40, orientation 6, upright 102x205 and 40x80.
        Case(file: "A_camera_exif/goexif__has-lens-info.jpg", target: PixelSize(width: 50, height: 100), mode: .fill, expected: PixelSize(width: 50, height: 100)),
        Case(file: "A_camera_exif/goexif__has-lens-info.jpg", target: PixelSize(width: 100, height: 100), mode: .fit, expected: PixelSize(width: 50, height: 100), slack: 1),
        Case(file: "B_orientation/goexif__f6-exif.jpg", target: PixelSize(width: 30, height: 30), mode: .fill, expected: PixelSize(width: 30, height: 30)),
        Case(file: "B_orientation/goexif__f6-exif.jpg", target: PixelSize(width: 300, height: 200), mode: .fill, expected: PixelSize(width: 40, height: 27)),
        // A video's poster frame, 720x480.
        Case(file: "E_formats/puremagic__test.mp4", target: PixelSize(width: 300, height: 200), mode: .fill, expected: PixelSize(width: 300, height: 200)),
        Case(file: "E_formats/puremagic__test.mp4", target: PixelSize(width: 200, height: 200), mode: .fit, expected: PixelSize(width: 200, height: 133), slack: 1),
        Case(file: "E_formats/puremagic__test.mp4", target: PixelSize(width: 1000, height: 500), mode: .fill, expected: PixelSize(width: 720, height: 360)),
    ]

    /// A new library folder holding the cases' files, and a place for its index outside it.
    private struct Place {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("image-sizes-\(UUID().uuidString)", isDirectory: true)
        var root: URL { base.appendingPathComponent("library", isDirectory: true) }
        var index: URL { base.appendingPathComponent("index/library.sqlite") }

        init() throws {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for file in Set(ImageRequestSizeTests.cases.map(\.file)) {
                try FileManager.default.copyItem(at: Corpus.file(file), to: root.appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent))
            }
        }

        func open(_ backend: LibraryBackend) async throws -> any PhotoLibrary {
            try await LibraryOpener().open(root: root, backend: backend, indexURL: backend == .indexed ? index : nil)
        }

        func remove() { try? FileManager.default.removeItem(at: base) }
    }

    private static func assets(of library: any PhotoLibrary) async throws -> [String: Asset] {
        let camera = try #require(try await library.collections().first)
        var found: [String: Asset] = [:]
        for try await asset in try await library.assets(in: camera.id, options: FetchOptions()) { found[asset.filename] = asset }
        return found
    }

    @Test("fit, fill and smaller originals give the asked size", arguments: [LibraryBackend.folder, .indexed])
    func sizes(_ backend: LibraryBackend) async throws {
        let place = try Place()
        defer { place.remove() }
        let library = try await place.open(backend)
        let assets = try await Self.assets(of: library)
        for check in Self.cases {
            let asset = try #require(assets[URL(fileURLWithPath: check.file).lastPathComponent], "\(check.file)")
            for delivery in [DeliveryMode.highQualityFormat, .opportunistic] {
                let request = ImageRequest(targetSize: check.target, contentMode: check.mode, deliveryMode: delivery)
                let results = try await collect(library.image(for: asset, request: request))
                let final = try #require(results.last, "\(check.testDescription)")
                #expect(!final.isDegraded && results.dropLast().allSatisfy(\.isDegraded), "\(check.testDescription)")
                let size = final.pixelSize
                #expect(abs(size.width - check.expected.width) <= check.slack && abs(size.height - check.expected.height) <= check.slack,
                        "\(backend) \(delivery) \(check.testDescription): got \(size)")
            }
        }
    }

    @Test("opportunistic delivery gives the EXIF thumbnail first, then the final image at the asked size", arguments: [LibraryBackend.folder, .indexed])
    func degradedThenFinal(_ backend: LibraryBackend) async throws {
        let place = try Place()
        defer { place.remove() }
        let library = try await place.open(backend)
        let asset = try #require(try await Self.assets(of: library)["goexif__sample1.jpg"])
        let results = try await collect(library.image(for: asset, request: ImageRequest(targetSize: PixelSize(width: 300, height: 200), contentMode: .fill)))
        #expect(results.map(\.isDegraded) == [true, false])
        #expect(results.first?.source == .embeddedThumbnail)
        #expect(results.last?.pixelSize == PixelSize(width: 300, height: 200))
        // Asked again, the final image comes from the cache, alone.
        let again = try await collect(library.image(for: asset, request: ImageRequest(targetSize: PixelSize(width: 300, height: 200), contentMode: .fill)))
        #expect(again.count == 1 && again.first?.source == .memoryCache && again.first?.pixelSize == PixelSize(width: 300, height: 200))
    }

    private func collect(_ stream: AsyncThrowingStream<ImageResult, Error>) async throws -> [ImageResult] {
        var results: [ImageResult] = []
        for try await result in stream { results.append(result) }
        return results
    }
}
