import GRDB

extension LibrarySchema {
    /// Version 3: visible-asset counts per directory, media type and favourite flag, kept by
    /// triggers in `asset_count`, so the counts of All Photos, Favorites, Videos and every
    /// directory (under any media filter) are sums over a few hundred rows instead of scans of
    /// 100,000 index entries. (Before, `collections()` took 83 ms on 100,000 rows: the
    /// per-directory `GROUP BY` and the Favorites count were planned on `asset_added`, reading
    /// every table row.) Recently Added depends on the clock and stays an index range count.
    static func createVersion3(_ db: Database) throws {
        let visible = "deletedAt IS NULL AND isHidden = 0"
        try db.execute(sql: """
            CREATE TABLE asset_count (
                directoryId INTEGER NOT NULL,
                mediaType INTEGER NOT NULL,
                isFavorite BOOLEAN NOT NULL,
                count INTEGER NOT NULL,
                PRIMARY KEY (directoryId, mediaType, isFavorite)
            ) WITHOUT ROWID;
            INSERT INTO asset_count (directoryId, mediaType, isFavorite, count)
                SELECT directoryId, mediaType, isFavorite, COUNT(*) FROM asset WHERE \(visible) GROUP BY 1, 2, 3;

            CREATE TRIGGER asset_count_insert AFTER INSERT ON asset WHEN NEW.\(visible.replacingOccurrences(of: "AND ", with: "AND NEW.")) BEGIN
                \(add("NEW", 1))
            END;
            CREATE TRIGGER asset_count_delete AFTER DELETE ON asset WHEN OLD.\(visible.replacingOccurrences(of: "AND ", with: "AND OLD.")) BEGIN
                \(add("OLD", -1))
            END;
            CREATE TRIGGER asset_count_update_old AFTER UPDATE OF directoryId, mediaType, isFavorite, deletedAt, isHidden ON asset
                WHEN OLD.\(visible.replacingOccurrences(of: "AND ", with: "AND OLD.")) BEGIN
                \(add("OLD", -1))
            END;
            CREATE TRIGGER asset_count_update_new AFTER UPDATE OF directoryId, mediaType, isFavorite, deletedAt, isHidden ON asset
                WHEN NEW.\(visible.replacingOccurrences(of: "AND ", with: "AND NEW.")) BEGIN
                \(add("NEW", 1))
            END;
            """)
    }

    /// The trigger body adding `delta` to the count of the `row` (`NEW` or `OLD`) asset's group,
    /// dropping groups that reach zero.
    private static func add(_ row: String, _ delta: Int) -> String {
        """
        INSERT INTO asset_count (directoryId, mediaType, isFavorite, count)
            VALUES (\(row).directoryId, \(row).mediaType, \(row).isFavorite, \(delta))
            ON CONFLICT (directoryId, mediaType, isFavorite) DO UPDATE SET count = count + \(delta);
        DELETE FROM asset_count WHERE directoryId = \(row).directoryId AND mediaType = \(row).mediaType
            AND isFavorite = \(row).isFavorite AND count = 0;
        """
    }
}
