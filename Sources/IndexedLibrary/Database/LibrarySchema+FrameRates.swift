import GRDB

extension LibrarySchema {
    /// Version 5: a video's frame rate (`framesPerSecond`), read by the one ffprobe run that
    /// reads the rest of its metadata, so nothing probes the file again to answer it. Added to
    /// `asset` and to its copy `directory_key`, last in both, so the two keep one column order.
    ///
    /// A video indexed before this version has none (`NULL`), which the scan takes for a changed
    /// file (``IndexedDirectory``), so it is read once more; a video read since stores its rate,
    /// or 0 when its stream records none.
    static func addVersion5(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE asset ADD COLUMN framesPerSecond REAL;
            ALTER TABLE directory_key ADD COLUMN framesPerSecond REAL;
            """)
    }
}
