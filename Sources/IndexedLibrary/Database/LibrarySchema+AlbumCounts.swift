import GRDB

extension LibrarySchema {
    /// Version 7: each user album's visible members counted per media type, kept by triggers in
    /// `album_count`, so the album list's counts are sums over two rows per album instead of a
    /// join of every membership with its asset (at 1,000,000 assets in 20,000 albums with
    /// 885,000 memberships, `collections()` read them all on every call).
    ///
    /// The triggers: a membership added or removed counts its asset when that is visible; an
    /// asset whose media type or visibility changes moves between the counts of its albums; an
    /// asset about to be deleted leaves its albums first (its memberships are deleted while its
    /// row still says what it was), so the cascade that would have removed them finds none.
    static func addVersion7(_ db: Database) throws {
        let visible = "asset.deletedAt IS NULL AND asset.isHidden = 0"
        try db.execute(sql: """
            CREATE TABLE album_count (
                albumId INTEGER NOT NULL,
                mediaType INTEGER NOT NULL,
                count INTEGER NOT NULL,
                PRIMARY KEY (albumId, mediaType)
            ) WITHOUT ROWID;
            INSERT INTO album_count (albumId, mediaType, count)
                SELECT album_asset.albumId, asset.mediaType, COUNT(*) FROM album_asset JOIN asset ON asset.id = album_asset.assetId
                WHERE \(visible) GROUP BY 1, 2;

            CREATE TRIGGER album_count_insert AFTER INSERT ON album_asset BEGIN
                INSERT INTO album_count (albumId, mediaType, count)
                    SELECT NEW.albumId, asset.mediaType, 1 FROM asset WHERE asset.id = NEW.assetId AND \(visible)
                    ON CONFLICT (albumId, mediaType) DO UPDATE SET count = count + 1;
            END;
            CREATE TRIGGER album_count_delete AFTER DELETE ON album_asset BEGIN
                UPDATE album_count SET count = count - 1 WHERE albumId = OLD.albumId
                    AND mediaType = (SELECT asset.mediaType FROM asset WHERE asset.id = OLD.assetId AND \(visible));
                DELETE FROM album_count WHERE albumId = OLD.albumId AND count = 0;
            END;
            CREATE TRIGGER album_count_asset_delete BEFORE DELETE ON asset BEGIN
                DELETE FROM album_asset WHERE assetId = OLD.id;
            END;
            CREATE TRIGGER album_count_asset_update AFTER UPDATE OF mediaType, deletedAt, isHidden ON asset BEGIN
                UPDATE album_count SET count = count - 1
                    WHERE OLD.deletedAt IS NULL AND OLD.isHidden = 0 AND mediaType = OLD.mediaType
                      AND albumId IN (SELECT albumId FROM album_asset WHERE assetId = OLD.id);
                INSERT INTO album_count (albumId, mediaType, count)
                    SELECT albumId, NEW.mediaType, 1 FROM album_asset WHERE assetId = NEW.id AND NEW.deletedAt IS NULL AND NEW.isHidden = 0
                    ON CONFLICT (albumId, mediaType) DO UPDATE SET count = count + 1;
                DELETE FROM album_count WHERE count = 0 AND albumId IN (SELECT albumId FROM album_asset WHERE assetId = OLD.id);
            END;
            """)
    }
}
