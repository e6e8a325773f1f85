import GRDB

extension LibrarySchema {
    /// Version 6: which version of each photo's file has a preview (`preview`), so a run of
    /// previews plans from the index — one query for the photos that lack one — instead of
    /// probing the preview folder once per photo.
    ///
    /// A row names the asset by row and UUID (a row id SQLite hands out again after a deletion
    /// is then no match) and the size and modification time of the file the preview was made
    /// from. Rows are not removed with their asset: the next run of previews finds them (their
    /// asset gone, changed or no longer in the camera roll), removes the files and then the rows.
    static func addVersion6(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE preview (
                assetId INTEGER PRIMARY KEY NOT NULL,
                uuid BLOB NOT NULL,
                byteSize INTEGER NOT NULL,
                modificationTime INTEGER NOT NULL
            );
            """)
    }
}
