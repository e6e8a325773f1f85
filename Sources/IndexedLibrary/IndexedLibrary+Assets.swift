import AssetsKit
import Foundation

extension IndexedLibrary {
    /// A lazy result: one COUNT now, then pages as they are asked for (see
    /// `FetchResult`). Hidden and deleted assets are left out, except in Recently Deleted.
    public func assets(in collection: CollectionIdentifier, options: FetchOptions) async throws -> FetchResult {
        try await index.assets(in: collection, options: options, recentlyAddedSince: now().addingTimeInterval(-Self.recentlyAddedInterval))
    }

    /// Finds assets by either identifier form (a legacy URL and a local identifier of the same
    /// UUID name the same asset). Deleted assets count as missing.
    public func assets(withIdentifiers identifiers: [AssetIdentifier]) async throws -> AssetLookup {
        let found = try await index.listedAssets(withUUIDs: Array(Set(identifiers.map(\.uuid))))
        return AssetLookup(found: identifiers.compactMap { found[$0.uuid] },
                           missing: identifiers.filter { found[$0.uuid] == nil })
    }
}
