import IndexedLibrary

extension PostgresSchema {
    /// Visible assets counted per 30-day bucket of capture time, media type and favourite flag
    /// in `timeline_count` (SQLite's version 8: the same buckets, `floor` where SQLite
    /// truncates a positive quotient), kept by one row trigger, for jumps deep into All Photos,
    /// Favorites and Videos (``PostgresAssetQuery/page(_:order:after:offset:limit:)``).
    static let version8TimelineCounts = """
        CREATE TABLE timeline_count (
            bucket bigint NOT NULL,
            mediaType bigint NOT NULL,
            isFavorite boolean NOT NULL,
            count bigint NOT NULL,
            PRIMARY KEY (bucket, mediaType, isFavorite)
        );
        INSERT INTO timeline_count (bucket, mediaType, isFavorite, count)
            SELECT \(timelineBucket("asset")), mediaType, isFavorite, COUNT(*) FROM asset
            WHERE deletedAt IS NULL AND NOT isHidden GROUP BY 1, 2, 3;

        CREATE FUNCTION timeline_count_follow() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' THEN
                IF OLD.deletedAt IS NULL AND NOT OLD.isHidden THEN
                    UPDATE timeline_count SET count = count - 1
                        WHERE bucket = \(timelineBucket("OLD")) AND mediaType = OLD.mediaType AND isFavorite = OLD.isFavorite;
                    DELETE FROM timeline_count
                        WHERE bucket = \(timelineBucket("OLD")) AND mediaType = OLD.mediaType AND isFavorite = OLD.isFavorite AND count = 0;
                END IF;
            END IF;
            IF TG_OP <> 'DELETE' THEN
                IF NEW.deletedAt IS NULL AND NOT NEW.isHidden THEN
                    INSERT INTO timeline_count (bucket, mediaType, isFavorite, count)
                        VALUES (\(timelineBucket("NEW")), NEW.mediaType, NEW.isFavorite, 1)
                        ON CONFLICT (bucket, mediaType, isFavorite) DO UPDATE SET count = timeline_count.count + 1;
                END IF;
            END IF;
            RETURN NULL;
        END $$;

        CREATE TRIGGER timeline_count_follow
            AFTER INSERT OR DELETE OR UPDATE OF creationDate, mediaType, isFavorite, deletedAt, isHidden
            ON asset FOR EACH ROW EXECUTE FUNCTION timeline_count_follow();
        """

    /// The bucket of the `row` asset, as SQL: the same numbers as SQLite's `LibrarySchema.timelineBucket`.
    static func timelineBucket(_ row: String) -> String {
        "floor((\(row).creationDate + \(TimelineBuckets.shift)) / \(TimelineBuckets.seconds))::bigint"
    }
}
