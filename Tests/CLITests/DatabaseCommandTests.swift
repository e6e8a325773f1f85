import Foundation
import PostgresTestSupport
import Testing
import TestSupport

/// The command line with the index in PostgreSQL: `--database URL` or `ASSETS_PICKER_DATABASE_URL`.
@Suite("assets-picker with --database postgresql://…")
struct DatabaseCommandTests {
    /// A library folder of two photos in a temporary folder, removed by ``remove()``.
    struct Library {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-database-\(UUID().uuidString)", isDirectory: true)

        init() throws {
            for (source, destination) in [("A_camera_exif/jhead__sony.jpg", "2019/sony.jpg"), ("A_camera_exif/goexif__sample1.jpg", "2020/sample.jpg")] {
                let target = folder.appendingPathComponent(destination)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: Corpus.file(source), to: target)
            }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("index with --database (its password in PGPASSWORD) fills the database; other commands find it through ASSETS_PICKER_DATABASE_URL; no SQLite file is made")
    func indexThenBrowse() async throws {
        let server = try await PostgresServer.shared()
        let library = try Library()
        defer { library.remove() }
        let database = try await server.makeDatabase().database
        let url = server.tcpURL(database: database)
        let withoutPassword = url.replacingOccurrences(of: ":\(PostgresServer.password)@", with: "@")
        try #require(withoutPassword != url)
        let index = try await CLI.run(["index", library.folder.path, "--json", "--database", withoutPassword],
                                      environment: ["PGPASSWORD": PostgresServer.password])
        #expect(index.status == 0, "\(index)")
        let albums = try await CLI.run(["albums", "--json", "--library", library.folder.path],
                                       environment: ["ASSETS_PICKER_DATABASE_URL": url])
        #expect(albums.status == 0, "\(albums)")
        let titles = try albums.json().objects("albums").map { try $0.string("title") }
        #expect(titles.starts(with: ["All Photos"]) && titles.contains("2019") && titles.contains("2020"), "\(titles)")
        let data = CLI.dataHome.appendingPathComponent("assets-picker/libraries")
        let files = (FileManager.default.enumerator(atPath: data.path)?.allObjects as? [String]) ?? []
        #expect(!files.contains { $0.hasSuffix(".sqlite") && $0.contains(library.folder.lastPathComponent) }, "\(files)")
    }

    @Test("a password in --database is refused: every user of the machine reads a command line (found by an outside attack)")
    func passwordOnTheCommandLine() async throws {
        let library = try Library()
        defer { library.remove() }
        let secret = "cli-s3cr3t"
        let result = try await CLI.run(["index", library.folder.path, "--database", "postgresql://assets:\(secret)@127.0.0.1:1/photos"])
        #expect(result.status != 0, "\(result)")
        #expect(result.stderrLines.contains { $0.contains("PGPASSWORD") && $0.contains("ASSETS_PICKER_DATABASE_URL") }, "\(result)")
        #expect(!result.stderrText.contains(secret) && !result.stdoutText.contains(secret), "\(result)")
    }

    @Test("a wrong password, an unreachable server and a URL of another kind each end the command with one line, never the password")
    func errors() async throws {
        let server = try await PostgresServer.shared()
        let library = try Library()
        defer { library.remove() }
        let database = try await server.makeDatabase().database
        let secret = "cli-s3cr3t"
        for (url, says) in [(server.tcpURL(database: database, password: secret), "refused the user or password"),
                            ("postgresql://assets:\(secret)@127.0.0.1:1/\(database)", "cannot be reached"),
                            ("mysql://assets:\(secret)@127.0.0.1/\(database)", "takes a postgresql://")] {
            let result = try await CLI.run(["index", library.folder.path], environment: ["ASSETS_PICKER_DATABASE_URL": url])
            #expect(result.status != 0, "\(result)")
            #expect(result.stderrLines.contains { $0.contains(says) }, "\(result)")
            #expect(!result.stderrText.contains(secret) && !result.stdoutText.contains(secret), "\(result)")
        }
    }
}
