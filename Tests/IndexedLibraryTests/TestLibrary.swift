import AssetsKit
import Foundation
import GRDB
import ImagePipeline
@testable import IndexedLibrary
import MediaProbing
@testable import PostgresIndex
import PostgresNIO
import PostgresTestSupport
import Synchronization
import Testing
import TestSupport

/// The database engines the index's tests run on: each test that takes an engine runs once
/// on each, against a real server for PostgreSQL (``PostgresServer``).
enum IndexEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    var testDescription: String { rawValue }
}

/// A library root in a temporary folder, with its index beside it (outside the library, as
/// the index rule has it), both removed by ``remove()``. On PostgreSQL the index is a database
/// of the test server's own, made on first use; previews and caches stay beside ``indexURL``.
struct TemporaryTree {
    /// The temporary folder holding the library and its index.
    private let base: URL
    /// The library folder.
    let root: URL
    /// Where the index's records live.
    let engine: IndexEngine
    /// The library's index (on PostgreSQL, where the index would be: previews and caches go beside it).
    var indexURL: URL { base.appendingPathComponent("index/library.sqlite") }
    /// The tree's database on the PostgreSQL test server.
    private let databaseName = "tree_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()

    init(engine: IndexEngine = .sqlite) throws {
        self.engine = engine
        base = FileManager.default.temporaryDirectory.appendingPathComponent("indexed-\(UUID().uuidString)", isDirectory: true)
        root = base.appendingPathComponent("library", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// Opens (creating when needed) the library of this tree over its index on ``engine``: a
    /// second call opens the same index again, as another process would.
    /// - Parameter machine: On PostgreSQL, the name of another machine serving the same index,
    ///   with previews and caches of its own (beside `machine-NAME/library.sqlite`).
    func openLibrary(originals: (any OriginalsStore)? = nil, reader: any MediaMetadataReading = MediaMetadataReader(),
                     imageManager: CachingImageManager? = nil, diskCacheBytes: Int64? = nil, machine: String? = nil,
                     now: @escaping @Sendable () -> Date = { Date() }) async throws -> IndexedLibrary {
        switch engine {
        case .sqlite:
            return try IndexedLibrary(root: root, databaseURL: indexURL, originals: originals, reader: reader, imageManager: imageManager,
                                      diskCacheBytes: diskCacheBytes, now: now)
        case .postgresql:
            let server = try await PostgresServer.shared()
            let database = try await PostgresPool(address: try await server.database(named: databaseName))
            let local = machine.map { base.appendingPathComponent("machine-\($0)/library.sqlite") } ?? indexURL
            let store = try await PostgresIndexStore(database: database, root: root.standardizedFileURL.path,
                                                     previewPlace: PreviewStore(besideIndexAt: local).placeKey)
            return try IndexedLibrary(root: root, index: store, localFilesBeside: local, originals: originals,
                                      reader: reader, imageManager: imageManager, diskCacheBytes: diskCacheBytes, now: now)
        }
    }

    /// A tree holding a copy of the shared corpus' media folders.
    static func corpusCopy(engine: IndexEngine = .sqlite) throws -> TemporaryTree {
        let tree = try TemporaryTree(engine: engine)
        for group in ["A_camera_exif", "B_orientation", "C_pngsuite", "D_hostile", "E_formats"] {
            try FileManager.default.copyItem(at: Corpus.root.appendingPathComponent(group), to: tree.root.appendingPathComponent(group))
        }
        return tree
    }

    func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// Copies a corpus file to `relativePath`, making folders on the way.
    func copy(_ corpusPath: String, to relativePath: String) throws {
        try FileManager.default.createDirectory(at: url(relativePath).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Corpus.file(corpusPath), to: url(relativePath))
    }

    func remove() {
        try? FileManager.default.removeItem(at: base)
    }
}

/// The real metadata reader, noting every file it reads.
final class CountingReader: MediaMetadataReading {
    private let reader = MediaMetadataReader()
    private let paths = Mutex<[String]>([])

    var readPaths: [String] { paths.withLock { $0 } }

    func read(_ url: URL, as mediaType: MediaType) async throws -> MediaMetadata {
        paths.withLock { $0.append(url.lastPathComponent) }
        return try await reader.read(url, as: mediaType)
    }

    func reset() {
        paths.withLock { $0.removeAll() }
    }
}

extension IndexedLibrary {
    /// The SQLite index the library keeps its records in, for tests that look at rows.
    var database: LibraryDatabase { (index as! SQLiteIndexStore).database }

    /// Runs a statement both engines understand on the index, for tests that set rows up.
    func executeSQL(_ sql: String) async throws {
        if let store = index as? PostgresIndexStore {
            try await store.database.write { session in try await session.execute(PostgresQuery(unsafeSQL: sql)) }
        } else {
            try await database.pool.write { db in try db.execute(sql: sql) }
        }
    }

    /// The integer a query both engines understand answers (`SELECT COUNT(*) …`), for tests that look at rows.
    func integer(_ sql: String) async throws -> Int? {
        if let store = index as? PostgresIndexStore {
            return try await store.database.withSession { session in try await session.value(PostgresQuery(unsafeSQL: sql), as: Int.self) }
        }
        return try await database.pool.read { db in try Int.fetchOne(db, sql: sql) }
    }

    /// Inserts `count` synthetic asset rows straight into the index (no files): photos with
    /// every 7th a video, every 5th a favourite, creation dates with ties every 3 rows, all in
    /// one directory.
    func insertSyntheticAssets(_ count: Int, in directory: String = "synthetic", addedAt: Date = Date()) async throws {
        @Sendable func record(_ index: Int, directoryId: Int64) -> AssetRecord {
            AssetRecord(
                uuid: UUID(), relativePath: "\(directory)/\(index).jpg", directoryId: directoryId, filename: "\(index).jpg",
                mediaType: (index % 7 == 0 ? MediaType.video : .photo).databaseCode, pixelWidth: 4000, pixelHeight: 3000,
                creationDate: 1_500_000_000 + Double(index / 3) * 60, creationDateSource: .exif,
                modificationTime: 0, byteSize: 1_000_000, orientation: 1, format: "jpeg", hasEmbeddedThumbnail: false,
                fingerprint: "synthetic:\(index)", isFavorite: index % 5 == 0, addedAt: addedAt.timeIntervalSince1970)
        }
        if let store = index as? PostgresIndexStore {
            try await store.database.write { session in
                let directoryId = try await session.directoryID(forPath: directory)
                for index in 0..<count {
                    var row = record(index, directoryId: directoryId)
                    try await row.insert(session)
                }
            }
            return
        }
        try await database.pool.write { db in
            let directoryId = try DirectoryRecord.id(forPath: directory, in: db)
            for index in 0..<count {
                var row = record(index, directoryId: directoryId)
                try row.insert(db)
            }
        }
    }
}

/// Collects every element of a stream.
func collect<S: AsyncSequence>(_ sequence: S) async throws -> [S.Element] {
    var elements: [S.Element] = []
    for try await element in sequence { elements.append(element) }
    return elements
}
