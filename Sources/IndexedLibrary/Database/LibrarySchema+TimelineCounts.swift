import GRDB

extension LibrarySchema {
    /// The ``TimelineBuckets`` bucket of the `row` asset (`NEW`, `OLD` or `asset`), as SQL: the
    /// quotient is positive, so `CAST`'s truncation is the floor.
    static func timelineBucket(_ row: String) -> String {
        "CAST((\(row).creationDate + \(TimelineBuckets.shift)) / \(TimelineBuckets.seconds) AS INTEGER)"
    }

    /// Version 8: visible assets counted per 30-day bucket of capture time, media type and
    /// favourite flag, kept by triggers in `timeline_count`, so a jump to any position of All
    /// Photos, Favorites or Videos (a scrubber dragged to the middle of a million assets) reads
    /// a few hundred counts to find the bucket the position falls in and skips only the rows of
    /// that bucket (``AssetQuery/page(_:order:after:offset:limit:)``), instead of every row
    /// before it (an OFFSET of 500,000 walks 500,000 index entries).
    static func addVersion8(_ db: Database) throws {
        let visible = "deletedAt IS NULL AND isHidden = 0"
        func when(_ row: String) -> String { "\(row).deletedAt IS NULL AND \(row).isHidden = 0" }
        try db.execute(sql: """
            CREATE TABLE timeline_count (
                bucket INTEGER NOT NULL,
                mediaType INTEGER NOT NULL,
                isFavorite BOOLEAN NOT NULL,
                count INTEGER NOT NULL,
                PRIMARY KEY (bucket, mediaType, isFavorite)
            ) WITHOUT ROWID;
            INSERT INTO timeline_count (bucket, mediaType, isFavorite, count)
                SELECT \(timelineBucket("asset")), mediaType, isFavorite, COUNT(*) FROM asset WHERE \(visible) GROUP BY 1, 2, 3;

            CREATE TRIGGER timeline_count_insert AFTER INSERT ON asset WHEN \(when("NEW")) BEGIN
                \(addToTimeline("NEW", 1))
            END;
            CREATE TRIGGER timeline_count_delete AFTER DELETE ON asset WHEN \(when("OLD")) BEGIN
                \(addToTimeline("OLD", -1))
            END;
            CREATE TRIGGER timeline_count_update_old AFTER UPDATE OF creationDate, mediaType, isFavorite, deletedAt, isHidden ON asset
                WHEN \(when("OLD")) BEGIN
                \(addToTimeline("OLD", -1))
            END;
            CREATE TRIGGER timeline_count_update_new AFTER UPDATE OF creationDate, mediaType, isFavorite, deletedAt, isHidden ON asset
                WHEN \(when("NEW")) BEGIN
                \(addToTimeline("NEW", 1))
            END;
            """)
    }

    /// The trigger body adding `delta` to the count of the `row` asset's bucket, dropping
    /// buckets that reach zero.
    private static func addToTimeline(_ row: String, _ delta: Int) -> String {
        """
        INSERT INTO timeline_count (bucket, mediaType, isFavorite, count)
            VALUES (\(timelineBucket(row)), \(row).mediaType, \(row).isFavorite, \(delta))
            ON CONFLICT (bucket, mediaType, isFavorite) DO UPDATE SET count = count + \(delta);
        DELETE FROM timeline_count WHERE bucket = \(timelineBucket(row)) AND mediaType = \(row).mediaType
            AND isFavorite = \(row).isFavorite AND count = 0;
        """
    }
}
