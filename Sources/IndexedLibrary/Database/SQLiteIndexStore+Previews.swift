import AssetsKit
import Foundation
import GRDB

/// Which photos have a preview of which version (schema v6's `preview`).
extension SQLiteIndexStore {
    /// The assets that get a preview under `coverage`: in the camera roll; photos without an
    /// embedded EXIF thumbnail, or every asset.
    private static func wantsPreview(_ coverage: PreviewCoverage) -> String {
        switch coverage {
        case .photosWithoutThumbnail:
            """
            asset.deletedAt IS NULL AND asset.isHidden = 0 AND asset.mediaType = \(MediaType.photo.databaseCode) \
            AND NOT asset.hasEmbeddedThumbnail
            """
        case .everyAsset:
            "asset.deletedAt IS NULL AND asset.isHidden = 0"
        }
    }

    func photosLackingPreviews(coverage: PreviewCoverage, newest: Int?) async throws -> [PhotoLackingPreview] {
        try await database.pool.read { db in
            // The camera roll's photos come newest first from the browse index
            // `asset_media_timeline`, with no sort; each is one lookup in `preview`.
            let previous = AssetRecord.columnCount
            let rows = try Row.fetchCursor(db, sql: """
                SELECT asset.*, preview.assetId, preview.uuid, preview.byteSize, preview.modificationTime
                FROM asset LEFT JOIN preview ON preview.assetId = asset.id
                WHERE \(Self.wantsPreview(coverage))
                  AND (preview.assetId IS NULL OR preview.uuid != asset.uuid OR preview.byteSize != asset.byteSize
                       OR preview.modificationTime != asset.modificationTime)
                ORDER BY asset.creationDate DESC, asset.id DESC
                \(newest.map { "LIMIT \(max(0, $0))" } ?? "")
                """)
            var photos: [PhotoLackingPreview] = []
            while let row = try rows.next() {
                let record = try AssetRecord(row: row)
                let earlier: Int64? = row[previous]
                photos.append(PhotoLackingPreview(record: record, previous: earlier.map {
                    PreviewRecord(assetID: $0, uuid: row[previous + 1], byteSize: row[previous + 2], modificationTime: row[previous + 3])
                }))
            }
            return photos
        }
    }

    func recordPreviews(_ previews: [PreviewRecord]) async throws {
        guard !previews.isEmpty else { return }
        try await database.pool.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO preview (assetId, uuid, byteSize, modificationTime) VALUES (?, ?, ?, ?)
                """)
            for preview in previews {
                try statement.execute(arguments: [preview.assetID, preview.uuid, preview.byteSize, preview.modificationTime])
            }
        }
    }

    func removeUnneededPreviews(coverage: PreviewCoverage) async throws -> [PreviewRecord] {
        try await database.pool.write { db in
            try Row.fetchAll(db, sql: """
                DELETE FROM preview WHERE assetId IN (
                    SELECT preview.assetId FROM preview LEFT JOIN asset ON asset.id = preview.assetId
                    WHERE asset.id IS NULL OR asset.uuid != preview.uuid OR NOT (\(Self.wantsPreview(coverage))))
                RETURNING assetId, uuid, byteSize, modificationTime
                """).map {
                PreviewRecord(assetID: $0[0], uuid: $0[1], byteSize: $0[2], modificationTime: $0[3])
            }
        }
    }

    func forgetAllPreviews() async throws {
        try await database.pool.write { db in try db.execute(sql: "DELETE FROM preview") }
    }
}
