import AssetsKit
import Foundation
import ImageMetadata
import ImagePipeline
import SyntheticMedia
import Testing
import TestSupport

@Suite("Fast resize mode: a coarser decode, the same picture")
struct FastResizeTests {
    let renderer = ImageRenderer()

    /// A 12-MP-like photo stored turned for `orientation`, with that orientation in its EXIF.
    static func photo(orientation: Int) throws -> URL {
        let upright = PixelSize(width: 2400, height: 1800)
        let jpeg = try SyntheticPhoto(size: upright, seed: 7, label: "F", orientation: orientation).encoded(as: .jpeg, quality: 90)
        let tagged = try ExifWriter.inserting(ExifMetadata(orientation: orientation), thumbnail: nil, into: jpeg)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fast-\(orientation)-\(UUID().uuidString).jpg")
        try tagged.write(to: url)
        return url
    }

    @Test("fast and exact thumbnails have the same size and nearly the same pixels, turned photos included", arguments: [1, 6, 3])
    func fastMatchesExact(_ orientation: Int) async throws {
        try await offCooperativePool {
            let file = try Self.photo(orientation: orientation)
            defer { try? FileManager.default.removeItem(at: file) }
            for (size, mode) in [(PixelSize(width: 256, height: 256), ContentMode.fill), (PixelSize(width: 300, height: 300), .fit)] {
                let exact = try renderer.render(file, size: size, mode: mode, format: .jpeg, quality: 90, resizeMode: .exact)
                let fast = try renderer.render(file, size: size, mode: mode, format: .jpeg, quality: 90, resizeMode: .fast)
                #expect(fast.pixelSize == exact.pixelSize)
                #expect(exact.pixelSize == (mode == .fill ? size : PixelSize(width: 300, height: 225)))
                let a = try renderer.pixels(of: exact.data, name: "exact"), b = try renderer.pixels(of: fast.data, name: "fast")
                let difference = zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
                #expect(Double(difference) / Double(a.bytes.count) < 8, "orientation \(orientation), \(mode)")
            }
        }
    }

    @Test("a truncated JPEG is still refused in fast mode, naming the file")
    func truncatedRefused() async throws {
        try await offCooperativePool {
            let file = try Self.photo(orientation: 1)
            defer { try? FileManager.default.removeItem(at: file) }
            let data = try Data(contentsOf: file)
            try data.prefix(data.count / 2).write(to: file)
            #expect(throws: ImagePipelineError.self) {
                try renderer.render(file, size: PixelSize(width: 256, height: 256), mode: .fill, format: .jpeg, quality: 80, resizeMode: .fast)
            }
        }
    }
}
