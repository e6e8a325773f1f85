import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// Which photos have a preview of which version (`preview`), as on SQLite, for this machine's
/// preview folder (``PostgresIndexStore/previewPlace``): each machine serving the library keeps
/// its own files, so each has its own rows.
extension PostgresIndexStore {
    /// The assets that get a preview under `coverage`: in the camera roll; photos without an
    /// embedded EXIF thumbnail, or every asset.
    private static func wantsPreview(_ coverage: PreviewCoverage) -> String {
        switch coverage {
        case .photosWithoutThumbnail:
            "\(PostgresAssetQuery.visible) AND asset.mediaType = \(MediaType.photo.databaseCode) AND NOT asset.hasEmbeddedThumbnail"
        case .everyAsset:
            PostgresAssetQuery.visible
        }
    }

    package func photosLackingPreviews(coverage: PreviewCoverage, newest: Int?) async throws -> [PhotoLackingPreview] {
        try await database.withSession { session in
            let previous = AssetRecord.columnCount
            let limit = newest.map { "LIMIT \(max(0, $0))" } ?? ""
            return try await session.rows("""
                SELECT asset.*, preview.assetId, preview.uuid, preview.byteSize, preview.modificationTime
                FROM asset LEFT JOIN preview ON preview.assetId = asset.id AND preview.machine = \(previewPlace)
                WHERE \(unescaped: Self.wantsPreview(coverage))
                  AND (preview.assetId IS NULL OR preview.uuid != asset.uuid OR preview.byteSize != asset.byteSize
                       OR preview.modificationTime != asset.modificationTime)
                ORDER BY asset.creationDate DESC, asset.id DESC
                \(unescaped: limit)
                """).map { row in
                let cells = row.makeRandomAccess()
                let earlier = try cells[previous].decode(Int64?.self)
                return PhotoLackingPreview(record: try AssetRecord(postgresRow: row), previous: try earlier.map {
                    PreviewRecord(assetID: $0, uuid: try cells[previous + 1].decode(UUID.self), byteSize: try cells[previous + 2].decode(Int64.self),
                                  modificationTime: try cells[previous + 3].decode(Int64.self))
                })
            }
        }
    }

    package func recordPreviews(_ previews: [PreviewRecord]) async throws {
        guard !previews.isEmpty else { return }
        try await database.write { session in
            try await session.execute("""
                INSERT INTO preview (assetId, uuid, byteSize, modificationTime, machine)
                SELECT *, \(previewPlace) FROM unnest(\(previews.map(\.assetID))::bigint[], \(previews.map(\.uuid))::uuid[],
                                     \(previews.map(\.byteSize))::bigint[], \(previews.map(\.modificationTime))::bigint[])
                ON CONFLICT (machine, assetId) DO UPDATE SET uuid = excluded.uuid, byteSize = excluded.byteSize,
                    modificationTime = excluded.modificationTime
                """)
        }
    }

    package func removeUnneededPreviews(coverage: PreviewCoverage) async throws -> [PreviewRecord] {
        try await database.write { session in
            try await session.rows("""
                DELETE FROM preview WHERE machine = \(previewPlace) AND assetId IN (
                    SELECT preview.assetId FROM preview LEFT JOIN asset ON asset.id = preview.assetId
                    WHERE preview.machine = \(previewPlace)
                      AND (asset.id IS NULL OR asset.uuid != preview.uuid OR NOT (\(unescaped: Self.wantsPreview(coverage)))))
                RETURNING assetId, uuid, byteSize, modificationTime
                """).map { row in
                let (assetID, uuid, byteSize, modificationTime) = try row.decode((Int64, UUID, Int64, Int64).self)
                return PreviewRecord(assetID: assetID, uuid: uuid, byteSize: byteSize, modificationTime: modificationTime)
            }
        }
    }

    package func forgetAllPreviews() async throws {
        try await database.write { session in try await session.execute("DELETE FROM preview WHERE machine = \(previewPlace)") }
    }
}
