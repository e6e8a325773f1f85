import AssetsKit
import Foundation
import GRDB
@testable import IndexedLibrary
import LibraryTree
import Synchronization
import Testing

@Suite("The album list: counts and key assets of every collection from a fixed number of queries")
struct AlbumSummaryTests {
    /// A scanned tree with nested, empty and hidden folders, tied creation dates (the same file
    /// twice in one folder and in two folders), favourites, hidden and deleted assets, folders
    /// holding only hidden or only deleted assets, and albums (one in a folder, one empty).
    private static func makeLibrary(_ engine: IndexEngine, now: @escaping @Sendable () -> Date) async throws -> (TemporaryTree, IndexedLibrary) {
        let tree = try TemporaryTree(engine: engine)
        let files = [
            ("A_camera_exif/jhead__sony.jpg", "2019/sony.jpg"), ("A_camera_exif/jhead__sony.jpg", "2019/sony-copy.jpg"),
            ("A_camera_exif/goexif__sample1.jpg", "2019/sample.jpg"), ("A_camera_exif/jhead__olympus.jpg", "2019/trip/olympus.jpg"),
            ("E_formats/puremagic__test.mp4", "2019/trip/day2/clip.mp4"), ("E_formats/exiftool__QuickTime.mov", "2019/trip/day2/movie.mov"),
            ("E_formats/puremagic__test.mp4", "2020/clip.mp4"), ("A_camera_exif/jhead__sony.jpg", "2020/sony.jpg"),
            ("A_camera_exif/jhead__canon-300d.jpg", "2020/canon.jpg"), ("A_camera_exif/jhead__hp.jpg", "hidden-only/hp.jpg"),
            ("A_camera_exif/jhead__fuji-dx10.jpg", "deleted-only/fuji.jpg"), ("A_camera_exif/goexif__sample1.jpg", ".hidden/sample.jpg"),
        ]
        for (source, destination) in files { try tree.copy(source, to: destination) }
        try FileManager.default.createDirectory(at: tree.url("empty/nested-empty"), withIntermediateDirectories: true)
        let library = try await tree.openLibrary(now: now)
        try await library.scan()
        func id(_ path: String) async throws -> AssetIdentifier {
            let uuid = AssetUUID.forFile(atRelativePath: path)
            return try #require(try await library.index.records(uuids: [uuid])[uuid]).asset.id
        }
        let folder = try await library.performChanges([.createFolder(title: "Trips")]).insertedCollections[0]
        let albums = try await library.performChanges([
            .createAlbum(title: "Best"), .createAlbum(title: "Beijing", inFolder: folder), .createAlbum(title: "Nothing yet"),
        ]).insertedCollections
        try await library.performChanges([
            .addAssets([try await id("2019/sony.jpg"), try await id("2019/trip/olympus.jpg"), try await id("2020/clip.mp4"),
                        try await id("2020/sony.jpg"), try await id("2019/sample.jpg")], toAlbum: albums[0]),
            .addAssets([try await id("2019/sony-copy.jpg"), try await id("2019/sony.jpg"), try await id("2019/trip/day2/movie.mov")],
                       toAlbum: albums[1]),
            .setFavorite([try await id("2019/sony-copy.jpg"), try await id("2020/clip.mp4"), try await id("2020/canon.jpg")], true),
            .setHidden([try await id("2019/sample.jpg"), try await id("hidden-only/hp.jpg")], true),
            .delete([try await id("2020/sony.jpg"), try await id("deleted-only/fuji.jpg")]),
        ])
        return (tree, library)
    }

    /// The album list as the protocol's default makes it: a count and a key asset per collection.
    private static func perCollection(_ library: IndexedLibrary, filter: MediaFilter) async throws -> [AlbumSummary] {
        var summaries: [AlbumSummary] = []
        for collection in try await library.collections() {
            let count = try await library.assetCount(in: collection.id, filter: filter)
            let key = count == 0 ? nil : try await library.keyAsset(of: collection.id, filter: filter)
            summaries.append(AlbumSummary(collection: collection, count: count, keyAsset: key))
        }
        return summaries
    }

    @Test("equals asking each collection, for every media filter, with most or few assets recently added", arguments: IndexEngine.allCases)
    func equalsPerCollection(_ engine: IndexEngine) async throws {
        let clock = Mutex(Date())
        let (tree, library) = try await Self.makeLibrary(engine, now: { clock.withLock { $0 } })
        defer { tree.remove() }
        for phase in ["all recently added", "one recently added"] {
            for filter in MediaFilter.allCases {
                let expected = try await Self.perCollection(library, filter: filter)
                #expect(try await library.albumSummaries(filter: filter) == expected, "\(phase), \(filter)")
            }
            guard phase == "all recently added" else { break }
            clock.withLock { $0 += 40 * 86_400 }
            try tree.copy("A_camera_exif/jhead__rotate.jpg", to: "2020/rotate.jpg")
            try await library.scan()
        }
        let all = try await library.albumSummaries(filter: .all)
        let listed = Set(all.map(\.collection.title))
        #expect(listed.isSuperset(of: ["2019", "trip", "day2", "2020", "Best", "Beijing", "Nothing yet", "Trips", "Recently Deleted"]))
        #expect(!listed.contains(".hidden"))
        for empty in ["empty", "nested-empty", "hidden-only", "deleted-only"] {
            #expect(all.contains { $0.collection.title == empty && $0.count == 0 && $0.keyAsset == nil }, "\(empty) is an empty album")
        }
        let recentlyAdded = try #require(all.first { $0.collection.id == SmartAlbum.recentlyAdded.collectionIdentifier })
        #expect(recentlyAdded.count == 1 && recentlyAdded.keyAsset?.filename == "rotate.jpg")
        let videos = try await library.albumSummaries(filter: .video)
        #expect(videos.contains { $0.collection.title == "Best" && $0.count == 1 && $0.keyAsset?.filename == "clip.mp4" })
        #expect(videos.contains { $0.collection.title == "2019" && $0.count == 0 && $0.keyAsset == nil })
    }

    @Test("directory posters kept by triggers (schema v4) equal the oldest visible asset after inserts, favourites, hides, deletions, moves, date changes and removals")
    func directoryKeysFollowChanges() async throws {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        for directory in ["one", "two", "three"] { try await library.insertSyntheticAssets(120, in: directory) }
        try await library.database.pool.write { db in
            let two = try Int64.fetchOne(db, sql: "SELECT id FROM directory WHERE relativePath = 'two'")
            let keys = try Int64.fetchAll(db, sql: "SELECT id FROM directory_key")
            try db.execute(sql: "UPDATE asset SET isHidden = 1 WHERE id IN (SELECT value FROM json_each(?))",
                           arguments: ["[" + keys.prefix(2).map(String.init).joined(separator: ",") + "]"])
            try db.execute(sql: "UPDATE asset SET creationDate = creationDate + 86400 WHERE id IN (SELECT id FROM directory_key)")
            try db.execute(sql: "UPDATE asset SET isFavorite = NOT isFavorite WHERE id % 11 = 0")
            try db.execute(sql: "UPDATE asset SET deletedAt = 1 WHERE id % 17 = 0 OR id IN (SELECT id FROM directory_key WHERE mediaType = 1)")
            try db.execute(sql: "UPDATE asset SET directoryId = ?, mediaType = 1 - mediaType WHERE id % 19 = 0", arguments: [two])
            try db.execute(sql: "DELETE FROM asset WHERE id % 23 = 0 OR id IN (SELECT id FROM directory_key WHERE directoryId = ?)", arguments: [two])
            try db.execute(sql: "UPDATE asset SET deletedAt = NULL WHERE id % 34 = 0")
            try db.execute(sql: "UPDATE asset SET filename = 'renamed.jpg' WHERE id IN (SELECT id FROM directory_key)")
            try db.execute(sql: "UPDATE asset SET creationDate = 0 WHERE id = (SELECT MAX(id) FROM asset WHERE deletedAt IS NULL AND isHidden = 0)")
        }
        for filter in MediaFilter.allCases {
            let expected = try await Self.perCollection(library, filter: filter)
            #expect(try await library.albumSummaries(filter: filter) == expected, "\(filter)")
        }
    }

    @Test("the number of SQL statements does not grow with the number of folders and albums")
    func constantStatements() async throws {
        func statements(folders: Int) async throws -> Int {
            let tree = try TemporaryTree()
            defer { tree.remove() }
            let library = try await tree.openLibrary()
            for folder in 0..<folders { try await library.insertSyntheticAssets(3, in: "day-\(folder)") }
            let albums = try await library.performChanges((0..<folders / 2).map { .createAlbum(title: "album \($0)") }).insertedCollections
            let members = try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions(mediaFilter: .photo, limit: 3)))
            try await library.performChanges(albums.map { .addAssets(members.map(\.id), toAlbum: $0) })
            let executed = Mutex(0)
            let summaries = try await library.database.pool.read { db in
                db.trace(options: .statement) { _ in executed.withLock { $0 += 1 } }
                defer { db.trace(options: .statement, nil) }
                return try AlbumSummaryQuery.summaries(libraryName: "library", filter: .photo, recentlyAddedSince: .distantPast,
                                                       albumList: AlbumListMemo(), in: db)
            }
            #expect(summaries.filter { $0.collection.kind == .directory && $0.keyAsset != nil }.count == folders)
            #expect(summaries.filter { $0.collection.kind == .album && $0.count == 3 }.count == folders / 2)
            return executed.withLock { $0 }
        }
        let few = try await statements(folders: 10)
        let many = try await statements(folders: 200)
        #expect(few == many)
        #expect(few < 30)
    }
}
