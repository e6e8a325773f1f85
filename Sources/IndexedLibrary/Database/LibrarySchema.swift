import GRDB

/// The index's schema, as migrations. Never edit a shipped migration: add the next one.
enum LibrarySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: createVersion1)
        migrator.registerMigration("v2", migrate: addVersion2)
        migrator.registerMigration("v3", migrate: createVersion3)
        migrator.registerMigration("v4", migrate: createVersion4)
        migrator.registerMigration("v5", migrate: addVersion5)
        migrator.registerMigration("v6", migrate: addVersion6)
        migrator.registerMigration("v7", migrate: addVersion7)
        migrator.registerMigration("v8", migrate: addVersion8)
        return migrator
    }

    /// Version 1, shaped for 100,000+ assets: every count and every page of a smart album or a
    /// directory is answered from an index whose columns are, in order, the equality filters
    /// (directory, deleted, hidden, media type) and then the sort key `(creationDate, id)`, so
    /// counts read only the index and keyset pages start where the previous one ended.
    private static func createVersion1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE meta (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            ) WITHOUT ROWID;

            CREATE TABLE directory (
                id INTEGER PRIMARY KEY,
                relativePath TEXT NOT NULL UNIQUE,
                uuid BLOB NOT NULL UNIQUE
            );

            CREATE TABLE asset (
                id INTEGER PRIMARY KEY,
                uuid BLOB NOT NULL UNIQUE,
                relativePath TEXT NOT NULL UNIQUE,
                directoryId INTEGER NOT NULL REFERENCES directory(id),
                filename TEXT NOT NULL,
                mediaType INTEGER NOT NULL,
                pixelWidth INTEGER NOT NULL,
                pixelHeight INTEGER NOT NULL,
                creationDate REAL NOT NULL,
                timeZoneOffset INTEGER,
                creationDateSource TEXT NOT NULL,
                modificationTime INTEGER NOT NULL,
                byteSize INTEGER NOT NULL,
                duration REAL,
                orientation INTEGER NOT NULL DEFAULT 1,
                latitude REAL,
                longitude REAL,
                altitude REAL,
                make TEXT,
                model TEXT,
                format TEXT NOT NULL,
                hasEmbeddedThumbnail BOOLEAN NOT NULL DEFAULT 0,
                fingerprint TEXT NOT NULL,
                isFavorite BOOLEAN NOT NULL DEFAULT 0,
                isHidden BOOLEAN NOT NULL DEFAULT 0,
                deletedAt REAL,
                addedAt REAL NOT NULL,
                isImported BOOLEAN NOT NULL DEFAULT 0
            );
            CREATE INDEX asset_timeline ON asset(deletedAt, isHidden, creationDate, id);
            CREATE INDEX asset_media_timeline ON asset(deletedAt, isHidden, mediaType, creationDate, id);
            CREATE INDEX asset_directory_timeline ON asset(directoryId, deletedAt, isHidden, creationDate, id);
            CREATE INDEX asset_directory_media_timeline ON asset(directoryId, deletedAt, isHidden, mediaType, creationDate, id);
            CREATE INDEX asset_favorite_timeline ON asset(deletedAt, isHidden, creationDate, id) WHERE isFavorite;
            CREATE INDEX asset_added ON asset(deletedAt, isHidden, addedAt);
            CREATE INDEX asset_fingerprint ON asset(fingerprint);

            CREATE TABLE album (
                id INTEGER PRIMARY KEY,
                uuid BLOB NOT NULL UNIQUE,
                title TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('album', 'folder')),
                parentId INTEGER REFERENCES album(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                createdAt REAL NOT NULL
            );
            CREATE INDEX album_children ON album(parentId, position);

            CREATE TABLE album_asset (
                albumId INTEGER NOT NULL REFERENCES album(id) ON DELETE CASCADE,
                assetId INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                PRIMARY KEY (albumId, assetId)
            ) WITHOUT ROWID;
            CREATE INDEX album_asset_asset ON album_asset(assetId);

            CREATE TABLE scan_failure (
                relativePath TEXT PRIMARY KEY NOT NULL,
                directoryPath TEXT NOT NULL,
                byteSize INTEGER,
                modificationTime INTEGER,
                reason TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX scan_failure_directory ON scan_failure(directoryPath);

            CREATE TABLE change (
                token INTEGER PRIMARY KEY AUTOINCREMENT,
                assetUUID BLOB,
                collectionId TEXT,
                kind TEXT NOT NULL CHECK (kind IN ('inserted', 'removed', 'changed', 'collection'))
            );
            """)
    }

    /// Version 2: album members listed in the album's own order from an index; files a purge
    /// told the scanner to leave alone (`ignored_path`, by path and file version); and drafts
    /// of picks (`draft`, `draft_item`, identifiers kept as given, in pick order).
    private static func addVersion2(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX album_asset_order ON album_asset(albumId, position);

            CREATE TABLE ignored_path (
                relativePath TEXT PRIMARY KEY NOT NULL,
                directoryPath TEXT NOT NULL,
                byteSize INTEGER NOT NULL,
                modificationTime INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX ignored_path_directory ON ignored_path(directoryPath);

            CREATE TABLE draft (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                savedAt REAL NOT NULL
            );

            CREATE TABLE draft_item (
                draftId INTEGER NOT NULL REFERENCES draft(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                identifier TEXT NOT NULL,
                PRIMARY KEY (draftId, position)
            ) WITHOUT ROWID;
            """)
    }
}
