import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// The collections as the library lists them (smart albums, user albums and folders, then
/// every directory by path), with exact counts, read in one snapshot.
enum PostgresCollections {
    static func collections(libraryName: String, recentlyAddedSince since: Date, in session: PostgresSession) async throws -> [AssetCollection] {
        let visible = try await VisibleCounts(in: session)
        var collections: [AssetCollection] = []
        for smart in SmartAlbum.allCases {
            let count = switch smart {
            case .all: visible.all(.all)
            case .favorites: visible.favorites(.all)
            case .videos: visible.all(.video)
            case .recentlyAdded, .recentlyDeleted:
                try await PostgresAssetQuery(smart.collectionIdentifier, filter: .all, recentlyAddedSince: since, in: session).count(session)
            }
            collections.append(smart.collection(count: count))
        }
        collections += try await albumCollections(in: session)
        for row in try await session.rows("""
            SELECT directory.uuid, directory.relativePath,
                   (SELECT COALESCE(SUM(count), 0)::bigint FROM asset_count WHERE asset_count.directoryId = directory.id)
            FROM directory ORDER BY directory.relativePath COLLATE "C"
            """) {
            let (uuid, path, count) = try row.decode((UUID, String, Int).self)
            collections.append(DirectoryCollection.collection(uuid: uuid, relativePath: path, count: count, libraryName: libraryName))
        }
        return collections
    }

    /// The user albums and folders, top level first, each level by position, with their
    /// unfiltered counts (a folder has none), summed from `album_count`.
    static func albumCollections(in session: PostgresSession) async throws -> [AssetCollection] {
        try await session.rows("""
            SELECT album.uuid, album.title, album.kind, parent.uuid, COALESCE(counts.count, 0)::bigint
            FROM album LEFT JOIN album parent ON parent.id = album.parentId
            LEFT JOIN (SELECT albumId, SUM(count) AS count FROM album_count GROUP BY albumId) AS counts ON counts.albumId = album.id
            ORDER BY album.parentId IS NOT NULL, album.parentId, album.position
            """).map { row in
            let (uuid, title, kind, parent, count) = try row.decode((UUID, String, String, UUID?, Int).self)
            let isFolder = kind == "folder"
            return AssetCollection(id: CollectionID.album(uuid), title: title, kind: isFolder ? .folder : .album,
                                   estimatedAssetCount: isFolder ? nil : count, parentID: parent.map(CollectionID.album))
        }
    }
}

/// The visible assets counted by media type and favourite flag, from `asset_count`.
struct VisibleCounts {
    /// Counts by `[mediaType code][isFavorite]`.
    private var counts = [[0, 0], [0, 0]]

    init(in session: PostgresSession) async throws {
        for row in try await session.rows("SELECT mediaType, isFavorite, SUM(count)::bigint FROM asset_count GROUP BY 1, 2") {
            let (type, favorite, count) = try row.decode((Int, Bool, Int).self)
            counts[type == MediaType.video.databaseCode ? 1 : 0][favorite ? 1 : 0] = count
        }
    }

    func all(_ filter: MediaFilter) -> Int { codes(filter).reduce(0) { $0 + counts[$1][0] + counts[$1][1] } }
    func favorites(_ filter: MediaFilter) -> Int { codes(filter).reduce(0) { $0 + counts[$1][1] } }

    private func codes(_ filter: MediaFilter) -> [Int] {
        switch filter {
        case .all: [0, 1]
        case .photo: [0]
        case .video: [1]
        }
    }
}
