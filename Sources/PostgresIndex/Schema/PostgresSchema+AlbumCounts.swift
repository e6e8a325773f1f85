extension PostgresSchema {
    /// Each user album's visible members counted per media type in `album_count` (SQLite's
    /// version 7), kept by triggers, so the album list's counts are sums over two rows per
    /// album instead of a join of every membership with its asset.
    ///
    /// As on SQLite: a membership added or removed counts its asset when that is visible; an
    /// asset whose media type or visibility changes moves between its albums' counts; an asset
    /// about to be deleted leaves its albums first (a `BEFORE` trigger, while its row still says
    /// what it was), so the cascade that would have removed its memberships finds none.
    static let version7AlbumCounts = """
        CREATE TABLE album_count (
            albumId bigint NOT NULL,
            mediaType bigint NOT NULL,
            count bigint NOT NULL,
            PRIMARY KEY (albumId, mediaType)
        );
        INSERT INTO album_count (albumId, mediaType, count)
            SELECT album_asset.albumId, asset.mediaType, COUNT(*) FROM album_asset JOIN asset ON asset.id = album_asset.assetId
            WHERE asset.deletedAt IS NULL AND NOT asset.isHidden GROUP BY 1, 2;

        CREATE FUNCTION album_count_member() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'INSERT' THEN
                INSERT INTO album_count (albumId, mediaType, count)
                    SELECT NEW.albumId, asset.mediaType, 1 FROM asset
                    WHERE asset.id = NEW.assetId AND asset.deletedAt IS NULL AND NOT asset.isHidden
                    ON CONFLICT (albumId, mediaType) DO UPDATE SET count = album_count.count + 1;
            ELSE
                UPDATE album_count SET count = count - 1 WHERE albumId = OLD.albumId
                    AND mediaType = (SELECT asset.mediaType FROM asset WHERE asset.id = OLD.assetId AND asset.deletedAt IS NULL AND NOT asset.isHidden);
                DELETE FROM album_count WHERE albumId = OLD.albumId AND count = 0;
            END IF;
            RETURN NULL;
        END $$;

        CREATE TRIGGER album_count_member AFTER INSERT OR DELETE ON album_asset FOR EACH ROW EXECUTE FUNCTION album_count_member();

        CREATE FUNCTION album_count_asset_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM album_asset WHERE assetId = OLD.id;
            RETURN OLD;
        END $$;

        CREATE TRIGGER album_count_asset_delete BEFORE DELETE ON asset FOR EACH ROW EXECUTE FUNCTION album_count_asset_delete();

        CREATE FUNCTION album_count_asset_update() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF OLD.deletedAt IS NULL AND NOT OLD.isHidden THEN
                UPDATE album_count SET count = count - 1
                    WHERE mediaType = OLD.mediaType AND albumId IN (SELECT albumId FROM album_asset WHERE assetId = OLD.id);
            END IF;
            IF NEW.deletedAt IS NULL AND NOT NEW.isHidden THEN
                INSERT INTO album_count (albumId, mediaType, count)
                    SELECT albumId, NEW.mediaType, 1 FROM album_asset WHERE assetId = NEW.id
                    ON CONFLICT (albumId, mediaType) DO UPDATE SET count = album_count.count + 1;
            END IF;
            DELETE FROM album_count WHERE count = 0 AND albumId IN (SELECT albumId FROM album_asset WHERE assetId = OLD.id);
            RETURN NULL;
        END $$;

        CREATE TRIGGER album_count_asset_update AFTER UPDATE OF mediaType, deletedAt, isHidden ON asset
            FOR EACH ROW EXECUTE FUNCTION album_count_asset_update();
        """
}
