import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// The collections as the library lists them (smart albums, user albums and folders, then
/// every directory by path), with exact counts, read in one snapshot; the user albums and the
/// directories kept in an ``AlbumListMemo`` and read again only as far as the index changed.
enum PostgresCollections {
    static func collections(libraryName: String, recentlyAddedSince since: Date, albumList: AlbumListMemo,
                            in session: PostgresSession) async throws -> [AssetCollection] {
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
        let token = try await PostgresIndexStore.latestToken(session)
        collections += try await albumCollections(albumList, at: token, in: session)
        collections += try await directoryCollections(libraryName: libraryName, albumList: albumList, at: token, in: session)
        return collections
    }

    /// The user albums and folders (``albumCollections(in:)``) at the index's change `token`,
    /// brought up to it from what `albumList` keeps: as kept when nothing changed, the touched
    /// albums' counts read again after a few changes of assets or memberships, else read whole.
    static func albumCollections(_ albumList: AlbumListMemo, at token: Int64, in session: PostgresSession) async throws -> [AssetCollection] {
        try await albumList.collections(.albums, at: token, changes: { try await PostgresAlbumChanges.delta(since: $0, in: session) }) { kept, delta in
            guard let touched = delta.albums else { return nil }
            return AlbumListMemo.patch(kept, touched: AlbumListDelta.albumIdentifiers(touched),
                                       counts: try await PostgresAlbumChanges.albumCounts(touched, in: session))
        } whole: {
            try await albumCollections(in: session)
        }
    }

    /// Every directory, by path, with its count, at the index's change `token`, brought up to it
    /// from what `albumList` keeps as the user albums are (``albumCollections(_:at:in:)``).
    static func directoryCollections(libraryName: String, albumList: AlbumListMemo, at token: Int64,
                                     in session: PostgresSession) async throws -> [AssetCollection] {
        try await albumList.collections(.directories, at: token, changes: { try await PostgresAlbumChanges.delta(since: $0, in: session) }) { kept, delta in
            guard let touched = delta.directories else { return nil }
            let fresh = try await directoryCollections(libraryName: libraryName, only: touched, in: session)
            return AlbumListMemo.replace(kept, with: Dictionary(uniqueKeysWithValues: fresh.map { ($0.id, $0) }), id: \.id)
        } whole: {
            try await directoryCollections(libraryName: libraryName, only: nil, in: session)
        }
    }

    /// Every directory (or those of `only`), by path, with its count summed from `asset_count`.
    private static func directoryCollections(libraryName: String, only: Set<UUID>?, in session: PostgresSession) async throws -> [AssetCollection] {
        let select = """
            SELECT directory.uuid, directory.relativePath,
                   (SELECT COALESCE(SUM(count), 0)::bigint FROM asset_count WHERE asset_count.directoryId = directory.id)
            FROM directory
            """
        let rows = if let only {
            try await session.rows("\(unescaped: select) WHERE directory.uuid = ANY(\(Array(only))) ORDER BY directory.relativePath COLLATE \"C\"")
        } else {
            try await session.rows("\(unescaped: select) ORDER BY directory.relativePath COLLATE \"C\"")
        }
        return try rows.map { row in
            let (uuid, path, count) = try row.decode((UUID, String, Int).self)
            return DirectoryCollection.collection(uuid: uuid, relativePath: path, count: count, libraryName: libraryName)
        }
    }

    /// The user albums and folders, top level first, each level by position, with their
    /// unfiltered counts (a folder has none), summed from `album_count`.
    ///
    /// Two rows of column arrays, one of `album` and one of `album_count`, ordered, joined and
    /// summed here: at 20,000 albums a row each cost 60 ms in decoding alone, and ordering and
    /// summing them in the database, as one row of sorted arrays, 48 ms of the server's time.
    static func albumCollections(in session: PostgresSession) async throws -> [AssetCollection] {
        guard let albums = try await session.rows("""
            SELECT array_agg(id), array_agg(uuid), array_agg(title), array_agg(kind = 'folder'), array_agg(COALESCE(parentId, 0)),
                   array_agg(position)
            FROM album HAVING COUNT(*) > 0
            """).first else { return [] }
        let (ids, uuids, titles, folders, parents, positions) = try albums.decode(([Int64], [UUID], [String], [Bool], [Int64], [Int64]).self)
        var counts: [Int64: Int] = [:]
        if let row = try await session.rows("SELECT array_agg(albumId), array_agg(count) FROM album_count HAVING COUNT(*) > 0").first {
            let (albumIDs, albumCounts) = try row.decode(([Int64], [Int]).self)
            counts.reserveCapacity(ids.count)
            for (id, count) in zip(albumIDs, albumCounts) { counts[id, default: 0] += count }
        }
        let identifiers: [CollectionIdentifier] = uuids.map { uuid in CollectionID.album(uuid) }
        let byRowID = Dictionary(uniqueKeysWithValues: zip(ids, identifiers))
        // Top level (no parent, 0) first, then by parent's row id, each level by position.
        let order = ids.indices.sorted { (parents[$0], positions[$0]) < (parents[$1], positions[$1]) }
        return order.map { index in
            let isFolder = folders[index]
            return AssetCollection(id: identifiers[index], title: titles[index], kind: isFolder ? .folder : .album,
                                   estimatedAssetCount: isFolder ? nil : counts[ids[index], default: 0], parentID: byRowID[parents[index]])
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
