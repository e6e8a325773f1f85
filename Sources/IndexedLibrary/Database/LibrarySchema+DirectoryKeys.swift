import GRDB

extension LibrarySchema {
    /// Version 4: each directory's key asset per media type (the oldest visible one, ties by row
    /// id), a copy of its `asset` row kept by triggers in `directory_key`, so the album list reads
    /// the posters of 2,000 folders from one small table in directory order instead of 2,000 rows
    /// scattered over the asset table (11 ms of the 14 ms album list at 100,000 assets in 2,000
    /// folders). The table has `asset`'s columns in `asset`'s order (``AssetRecord/init(row:)``
    /// decodes either), declared from `asset` as it stands then (``assetColumns(_:)``); a later
    /// migration that adds a column to `asset` adds it here too.
    ///
    /// The triggers: a visible asset that precedes its group's key (or whose group has none)
    /// becomes the key; when the key row is updated or deleted, the group's key is looked up
    /// again (one seek into `asset_directory_media_timeline`), so the copy is never stale. An
    /// update of another row costs one seek, unless it changes what orders or places it (then it
    /// may take the key); either update trigger may run first, as both leave the same key.
    static func createVersion4(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE directory_key (
                \(try assetColumns(db)),
                PRIMARY KEY (directoryId, mediaType)
            ) WITHOUT ROWID;
            INSERT INTO directory_key
                SELECT asset.* FROM (
                    SELECT (SELECT asset.id FROM asset
                            WHERE asset.directoryId = groups.directoryId AND asset.mediaType = groups.mediaType
                              AND asset.deletedAt IS NULL AND asset.isHidden = 0
                            ORDER BY asset.creationDate, asset.id LIMIT 1) AS keyId
                    FROM (SELECT DISTINCT directoryId, mediaType FROM asset_count) AS groups
                ) AS keys JOIN asset ON asset.id = keys.keyId;

            CREATE TRIGGER directory_key_insert AFTER INSERT ON asset BEGIN
                \(takeKey("NEW"))
            END;
            CREATE TRIGGER directory_key_delete AFTER DELETE ON asset BEGIN
                \(dropKey("OLD"))
            END;
            CREATE TRIGGER directory_key_update_key AFTER UPDATE ON asset
                WHEN EXISTS (SELECT 1 FROM directory_key WHERE directoryId = OLD.directoryId AND mediaType = OLD.mediaType AND id = OLD.id) BEGIN
                \(dropKey("OLD"))
                \(takeKey("NEW"))
            END;
            CREATE TRIGGER directory_key_update_order AFTER UPDATE OF directoryId, mediaType, creationDate, deletedAt, isHidden ON asset
                WHEN NEW.deletedAt IS NULL AND NEW.isHidden = 0 BEGIN
                \(takeKey("NEW"))
            END;
            """)
    }

    /// The `asset` table's columns as `directory_key` declares them: in `asset`'s order, with
    /// their types and `NOT NULL` (a primary key counts as not null), without defaults,
    /// uniqueness or references, which belong to `asset` alone. Read from the table itself, so
    /// the copy cannot drift from what it copies.
    private static func assetColumns(_ db: Database) throws -> String {
        try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\" OR pk > 0 AS required FROM pragma_table_info('asset') ORDER BY cid")
            .map { row -> String in
                let name: String = row["name"], type: String = row["type"], required: Bool = row["required"]
                return "\(name) \(type)" + (required ? " NOT NULL" : "")
            }
            .joined(separator: ",\n")
    }

    /// The trigger statements making the `row` asset its group's key if it is visible and
    /// precedes the key (or the group has none).
    private static func takeKey(_ row: String) -> String {
        """
        DELETE FROM directory_key WHERE \(row).deletedAt IS NULL AND \(row).isHidden = 0
            AND directoryId = \(row).directoryId AND mediaType = \(row).mediaType
            AND (creationDate, id) > (\(row).creationDate, \(row).id);
        INSERT OR IGNORE INTO directory_key
            SELECT * FROM asset WHERE asset.id = \(row).id AND asset.deletedAt IS NULL AND asset.isHidden = 0;
        """
    }

    /// The trigger statements looking the key of the `row` asset's group up again when `row`
    /// was that key.
    private static func dropKey(_ row: String) -> String {
        """
        DELETE FROM directory_key WHERE directoryId = \(row).directoryId AND mediaType = \(row).mediaType AND id = \(row).id;
        INSERT OR IGNORE INTO directory_key
            SELECT * FROM asset
            WHERE asset.directoryId = \(row).directoryId AND asset.mediaType = \(row).mediaType
              AND asset.deletedAt IS NULL AND asset.isHidden = 0
              AND NOT EXISTS (SELECT 1 FROM directory_key WHERE directoryId = \(row).directoryId AND mediaType = \(row).mediaType)
            ORDER BY asset.creationDate, asset.id LIMIT 1;
        """
    }
}
