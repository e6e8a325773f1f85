import AssetsKit
import Foundation
import LibraryOpening
import PostgresIndex
import PostgresTestSupport
import Testing
import TestSupport

@Suite("LibraryOpener over a PostgreSQL database: chosen by URL, errors in one line without the password")
struct DatabaseOpeningTests {
    /// A library folder with one photo, and a data folder, removed by ``remove()``.
    private struct Place {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("database-opener-\(UUID().uuidString)", isDirectory: true)
        var root: URL { base.appendingPathComponent("library", isDirectory: true) }
        var data: URL { base.appendingPathComponent("data", isDirectory: true) }

        init() throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("2019"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/jhead__sony.jpg"), to: root.appendingPathComponent("2019/sony.jpg"))
        }

        func opener(_ url: String, environment: [String: String] = [:]) throws -> LibraryOpener {
            LibraryOpener(dataFolder: data, database: try IndexDatabase.from(option: url, environment: environment))
        }

        func remove() { try? FileManager.default.removeItem(at: base) }
    }

    @Test("auto opens the database's index, scans it when new, and a second opener finds it scanned; no SQLite file is made")
    func opensAndReopens() async throws {
        let server = try await PostgresServer.shared()
        let place = try Place()
        defer { place.remove() }
        let database = try await server.makeDatabase().database
        let opener = try place.opener(server.tcpURL(database: database))
        #expect(opener.resolve(root: place.root, backend: .auto) == .indexed)
        let library = try await opener.open(root: place.root, backend: .auto)
        #expect(library.backendName == "indexed")
        #expect(try await library.collections().first { $0.kind == .cameraRoll }?.estimatedAssetCount == 1)
        let reopened = try await place.opener(server.tcpURL(database: database)).open(root: place.root, backend: .auto)
        #expect(try await reopened.indexing?.hasCompletedScan() == true)
        #expect(!FileManager.default.fileExists(atPath: opener.defaultIndexURL(forRoot: place.root).path))
    }

    @Test("ASSETS_PICKER_DATABASE_URL names the database when no option does; neither means the SQLite file")
    func environment() throws {
        let url = "postgresql://alice:secret@db.example:6543/photos"
        #expect(try IndexDatabase.from(option: nil, environment: [IndexDatabase.environmentVariable: url])
                == .postgres(try PostgresAddress(url: url)))
        #expect(try IndexDatabase.from(option: nil, environment: [:]) == .sqliteFile)
        let socket = try PostgresAddress(url: "postgresql://alice@/photos?host=/run/postgresql")
        #expect(socket.endpoint == .socket(path: "/run/postgresql/.s.PGSQL.5432") && socket.database == "photos")
    }

    @Test("a wrong password, an unreachable server, a missing database and a bad URL each fail with one line that never shows the password")
    func errors() async throws {
        let server = try await PostgresServer.shared()
        let place = try Place()
        defer { place.remove() }
        let database = try await server.makeDatabase().database
        let secret = "s3cr3t-never-shown"
        let cases: [(url: String, says: String)] = [
            (server.tcpURL(database: database, password: secret), "refused the user or password"),
            ("postgresql://assets:\(secret)@127.0.0.1:1/\(database)?sslmode=disable", "cannot be reached"),
            (server.tcpURL(database: "missing_database"), "there is no database missing_database"),
        ]
        for (url, says) in cases {
            let error = await #expect(throws: PostgresIndexError.self) {
                try await place.opener(url).open(root: place.root, backend: .auto)
            }
            let line = error.map(String.init(describing:)) ?? ""
            #expect(line.contains(says), "\(line)")
            #expect(!line.contains(secret) && !line.contains(PostgresServer.password) && !line.contains("\n"), "\(line)")
        }
        for bad in ["mysql://assets:\(secret)@host/db", "postgresql://assets:\(secret)@host/db?sslmode=sometimes", "postgresql://a:\(secret)@h:99999/db"] {
            let error = #expect(throws: PostgresIndexError.self) { try IndexDatabase.from(option: bad) }
            let line = error.map(String.init(describing:)) ?? ""
            #expect(line.hasPrefix("the database URL is not valid") && !line.contains(secret), "\(line)")
        }
        #expect(!FileManager.default.fileExists(atPath: place.data.path), "nothing written for a failed opening")
    }
}
