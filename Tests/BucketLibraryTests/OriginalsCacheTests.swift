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

    @Test("an original larger than the budget is read whole, evicts nothing, and is gone at the next fetch; folders 0700, originals 0600")
    func largerThanBudget() async throws {
        let fixture = try await BucketFixture.make("oversize")
        defer { fixture.remove() }
        var sizes: [String: Int] = [:]
        for name in ["a", "b", "d"] {
            let photo = try await BucketFixture.largeJPEG(width: 800, height: 600)
            sizes[name] = photo.count
            try await fixture.put(photo, at: "small/\(name).jpg")
        }
        let big = try await BucketFixture.largeJPEG(width: 2400, height: 1800)
        try await fixture.put(big, at: "big.jpg")
        let largest = Int64(sizes.values.max()!)
        let budget = 2 * largest + largest / 2   // room for two small ones, never for the big one
        try #require(Int64(big.count) > budget)
        let store = fixture.store(byteBudget: budget)
        let library = try fixture.library(store)
        try await library.scan()
        let assets = try await library.assetsByPath()
        func local() async throws -> Set<String> {
            let here = try await library.localOriginals(of: Array(assets.values))
            return Set(assets.filter { here.contains($0.value.id) }.map(\.key))
        }
        for name in ["small/a.jpg", "small/b.jpg"] {
            _ = try await library.originalFile(for: assets[name]!, request: OriginalRequest())
        }
        let original = try await library.originalFile(for: assets["big.jpg"]!, request: OriginalRequest())
        #expect(try Data(contentsOf: original.file.url) == big, "served whole")
        #expect(try await local() == ["small/a.jpg", "small/b.jpg", "big.jpg"], "nothing evicted for what cannot fit")

        // The owner's alone: the folders and the originals in them.
        func mode(_ url: URL) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(store.cacheFolder) == 0o700 && mode(store.cacheFolder.appendingPathComponent("small")) == 0o700)
        #expect(try mode(store.cacheFolder.appendingPathComponent("small/a.jpg")) == 0o600)
        #expect(try mode(store.cacheFolder.appendingPathComponent("big.jpg")) == 0o600)

        _ = try await library.originalFile(for: assets["small/d.jpg"]!, request: OriginalRequest())
        #expect(try await !local().contains("big.jpg"), "not kept past the next fetch")
        #expect(try await local().contains("small/d.jpg"))
        #expect(store.cachedByteCount <= budget)
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
