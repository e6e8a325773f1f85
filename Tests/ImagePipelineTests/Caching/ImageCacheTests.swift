import AssetsKit
import Foundation
import ImagePipeline
import Testing
import TestSupport

@Suite("Memory and disk caches")
struct ImageCacheTests {
    static func image(bytes: Int, width: Int = 10) -> ImageResult {
        ImageResult(data: Data(repeating: UInt8(truncatingIfNeeded: bytes), count: bytes), format: .jpeg,
                    pixelSize: PixelSize(width: width, height: width), isDegraded: false, source: .rendered)
    }

    static func key(_ asset: String, size: Int = 100, mtime: Int64 = 1) -> RenditionKey {
        RenditionKey(source: SourceVersion(assetKey: asset, byteSize: 1000, modificationTime: mtime),
                      request: ImageRequest(targetSize: PixelSize(width: size, height: size), contentMode: .fill))
    }

    @Test("the memory cache never holds more bytes than its budget, and drops the least recently used")
    func memoryBudget() {
        let cache = MemoryImageCache(byteLimit: 10_000)
        for index in 0..<200 {
            cache.store(Self.image(bytes: 700 + index * 13 % 900), for: Self.key("a\(index)"))
            #expect(cache.totalBytes <= 10_000)
            if index == 100 { _ = cache.image(for: Self.key("a95")) } // used recently: survives the next stores
        }
        #expect(cache.image(for: Self.key("a0")) == nil)
        #expect(cache.image(for: Self.key("a199")) != nil)
        cache.store(Self.image(bytes: 20_000), for: Self.key("huge"))
        #expect(cache.image(for: Self.key("huge")) == nil, "larger than the whole budget")
        #expect(cache.totalBytes <= 10_000)
    }

    @Test("the memory cache finds a smaller rendition of the same file version only")
    func smallerRendition() {
        let cache = MemoryImageCache(byteLimit: 1 << 20)
        cache.store(Self.image(bytes: 100, width: 64), for: Self.key("a", size: 64))
        cache.store(Self.image(bytes: 100, width: 128), for: Self.key("a", size: 128))
        cache.store(Self.image(bytes: 100, width: 200), for: Self.key("a", size: 200, mtime: 2))
        let found = cache.largestRendition(of: Self.key("a").source, smallerThan: PixelSize(width: 256, height: 256))
        #expect(found?.pixelSize.width == 128)
        #expect(cache.largestRendition(of: Self.key("a").source, smallerThan: PixelSize(width: 64, height: 64)) == nil)
    }

    @Test("the disk cache keeps images across instances and stays within its byte budget")
    func diskBudget() throws {
        let directory = TestSources.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DiskImageCache(directory: directory, byteLimit: 50_000)
        for index in 0..<40 { cache.store(Self.image(bytes: 3_000), for: Self.key("d\(index)")) }
        #expect(cache.totalBytes <= 50_000)
        let used = try FileManager.default.contentsOfDirectory(atPath: directory.path).reduce(Int64(0)) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? NSNumber)?.int64Value ?? 0)
        }
        #expect(used <= 50_000)
        let reopened = try DiskImageCache(directory: directory, byteLimit: 50_000)
        #expect(reopened.image(for: Self.key("d39"))?.data == Self.image(bytes: 3_000).data)
        #expect(reopened.image(for: Self.key("d0")) == nil, "evicted first")
    }

    @Test("a reopened disk cache counts the files already there once it writes, oldest evicted first")
    func reopenedBudget() throws {
        let directory = TestSources.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try DiskImageCache(directory: directory, byteLimit: 50_000)
        for index in 0..<15 { first.store(Self.image(bytes: 3_000), for: Self.key("d\(index)")) }
        let reopened = try DiskImageCache(directory: directory, byteLimit: 50_000)
        #expect(reopened.image(for: Self.key("d14")) != nil, "read before any stock is taken")
        for index in 15..<20 { reopened.store(Self.image(bytes: 3_000), for: Self.key("d\(index)")) }
        let used = try FileManager.default.contentsOfDirectory(atPath: directory.path).reduce(Int64(0)) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? NSNumber)?.int64Value ?? 0)
        }
        #expect(used <= 50_000)
        #expect(reopened.totalBytes == used)
        #expect(reopened.image(for: Self.key("d0")) == nil, "the oldest file of the first instance went first")
        #expect(reopened.image(for: Self.key("d19")) != nil)
    }

    @Test("a truncated, altered or foreign disk-cache file is never served", arguments: ["truncate", "flip", "swap", "empty"])
    func damagedDiskFile(_ damage: String) throws {
        let directory = TestSources.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DiskImageCache(directory: directory, byteLimit: 1 << 20)
        let key = Self.key("victim")
        cache.store(Self.image(bytes: 5_000), for: key)
        let file = directory.appendingPathComponent(try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first))
        var bytes = try Data(contentsOf: file)
        switch damage {
        case "truncate": bytes = bytes.prefix(bytes.count - 100)
        case "flip": bytes[bytes.count - 10] ^= 0xFF
        case "swap":
            cache.store(Self.image(bytes: 5_000), for: Self.key("other"))
            bytes = try Data(contentsOf: directory.appendingPathComponent(DiskImageCache.fileName(for: Self.key("other"))))
        default: bytes = Data()
        }
        try bytes.write(to: file)
        #expect(cache.image(for: key) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the damaged file is removed")
    }

    @Test("a damaged disk-cache file is rendered again through the manager")
    func damagedFileIsRerendered() async throws {
        let directory = TestSources.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let request = ImageRequest(targetSize: PixelSize(width: 200, height: 200), contentMode: .fill, deliveryMode: .highQualityFormat)
        let source = try await TestSources.source("A_camera_exif/pillow__flower.jpg")
        let first = CachingImageManager(diskCache: try DiskImageCache(directory: directory, byteLimit: 1 << 30))
        let original = try await first.image(for: source, request: request).first { _ in true }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 1)
        let file = directory.appendingPathComponent(files[0])
        try Data(try Data(contentsOf: file).prefix(300)).write(to: file)
        let second = CachingImageManager(diskCache: try DiskImageCache(directory: directory, byteLimit: 1 << 30))
        let again = try await second.image(for: source, request: request).first { _ in true }
        #expect(await second.renderCount == 1)
        #expect(again?.source == .rendered)
        #expect(again?.data == original?.data)
        let third = CachingImageManager(diskCache: try DiskImageCache(directory: directory, byteLimit: 1 << 30))
        #expect(try await third.image(for: source, request: request).first { _ in true }?.source == .diskCache)
        #expect(await third.renderCount == 0)
    }

    @Test("a changed original never gets its old thumbnail")
    func changedOriginal() async throws {
        let directory = TestSources.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.jpg")
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/pillow__flower.jpg"), to: file)
        let manager = CachingImageManager(diskCache: try DiskImageCache(directory: directory.appendingPathComponent("cache"), byteLimit: 1 << 30))
        let request = ImageRequest(targetSize: PixelSize(width: 100, height: 100), contentMode: .fill, deliveryMode: .highQualityFormat)
        let before = try await manager.image(for: try await TestSources.source(at: file, key: "same-asset"), request: request).first { _ in true }
        try FileManager.default.removeItem(at: file)
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: file)
        let after = try await manager.image(for: try await TestSources.source(at: file, key: "same-asset"), request: request).first { _ in true }
        #expect(await manager.renderCount == 2)
        #expect(before?.data != after?.data)
        #expect(after?.source == .rendered)
    }
}
