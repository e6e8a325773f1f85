import AssetsKit
@testable import BucketLibrary
import Foundation
import IndexedLibrary
import S3Storage
import S3TestSupport
import Testing
import TestSupport

/// The fetched originals are held to a byte budget, least recently used evicted first.
@Suite("the cache of fetched originals")
struct OriginalsCacheTests {
    @Test("each fetch keeps the cache within its budget by evicting the original used least recently")
    func leastRecentlyUsedEvicted() async throws {
        let fixture = try await BucketFixture.make("lru")
        defer { fixture.remove() }
        var sizes: [String: Int] = [:]
        for name in ["a", "b", "c", "d"] {
            let photo = try await BucketFixture.largeJPEG(width: 800, height: 600)
            sizes[name] = photo.count
            try await fixture.put(photo, at: "\(name).jpg")
        }
        let largest = Int64(sizes.values.max()!)
        let budget = 2 * largest + largest / 2   // room for two, not three
        let store = fixture.store(byteBudget: budget)
        let library = try fixture.library(store)
        try await library.scan()
        let assets = try await library.assetsByPath()
        func fetch(_ name: String) async throws {
            _ = try await library.originalFile(for: assets["\(name).jpg"]!, request: OriginalRequest())
        }
        func local() async throws -> Set<String> {
            let here = try await library.localOriginals(of: Array(assets.values))
            return Set(assets.filter { here.contains($0.value.id) }.map { String($0.key.dropLast(4)) })
        }
        try await fetch("a")
        try await fetch("b")
        #expect(try await local() == ["a", "b"])
        // `a` used again (read without network): `b` is now the least recently used.
        _ = try await library.originalFile(for: assets["a.jpg"]!, request: OriginalRequest(isNetworkAccessAllowed: false))
        try await fetch("c")
        #expect(try await local() == ["a", "c"])
        #expect(store.cachedByteCount <= budget)
        try await fetch("d")
        #expect(store.cachedByteCount <= budget)
        #expect(try await local().contains("d"))
        #expect(try await local().count == 2)
    }

    @Test("what a fetch cut short left is swept when stale; what is being written is not")
    func leftovers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = OriginalsCache(folder: folder, byteBudget: 1 << 20)
        let stale = try cache.newPartialFile(), live = try cache.newPartialFile()
        cache.finished(stale)
        let old = try cache.newPartialFile()
        cache.finished(old)
        for file in [stale, live, old] { _ = FileManager.default.createFile(atPath: file.path, contents: Data("partial".utf8)) }
        var times = [timespec(tv_sec: 1_000, tv_nsec: 0), timespec(tv_sec: 1_000, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, old.path, &times, 0)
        _ = utimensat(AT_FDCWD, live.path, &times, 0)
        #expect(cache.removeLeftovers() == 1)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: live.path), "being written by this process")
        #expect(FileManager.default.fileExists(atPath: stale.path), "recent")
    }
}
