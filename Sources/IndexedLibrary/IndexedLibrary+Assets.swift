import AssetsKit
import Foundation
import GRDB

extension IndexedLibrary {
    /// A lazy result: one COUNT now, then pages as they are asked for (see
    /// ``FetchResult``). Hidden and deleted assets are left out, except in Recently Deleted.
    public func assets(in collection: CollectionIdentifier, options: FetchOptions) async throws -> FetchResult {
        let since = now().addingTimeInterval(-Self.recentlyAddedInterval)
        let (query, total) = try await database.pool.read { db in
            let query = try AssetQuery(collection, filter: options.mediaFilter, recentlyAddedSince: since, in: db)
            return (query, try query.count(db))
        }
        return FetchResult(source: IndexedFetchSource(database: database, query: query, options: options, total: total))
    }

    /// Finds assets by either identifier form (a legacy URL and a local identifier of the same
    /// UUID name the same asset). Deleted assets count as missing.
    public func assets(withIdentifiers identifiers: [AssetIdentifier]) async throws -> AssetLookup {
        let uuids = Array(Set(identifiers.map(\.uuid)))
        let found = try await database.pool.read { db in
            var found: [UUID: Asset] = [:]
            for start in stride(from: 0, to: uuids.count, by: 500) {
                let chunk = uuids[start..<min(uuids.count, start + 500)]
                let records = try AssetRecord.filter(chunk.contains(Column("uuid")) && Column("deletedAt") == nil).fetchAll(db)
                for record in records { found[record.uuid] = record.asset }
            }
            return found
        }
        return AssetLookup(found: identifiers.compactMap { found[$0.uuid] },
                           missing: identifiers.filter { found[$0.uuid] == nil })
    }
}
