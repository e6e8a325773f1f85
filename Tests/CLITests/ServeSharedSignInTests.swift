import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresTestSupport
import Testing
import TestSupport

/// `serve --database postgresql://…` keeps the person's sign-ins in that database: a link one
/// server printed works once on another, and a browser stays signed in on every server, also
/// once the one it signed in through is killed.
@Suite struct ServeSharedSignInTests {
    @Test func serversOnOneDatabaseShareTheSignInsAndOutliveAKill() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-sign-in-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/pillow__flower.jpg"), to: folder.appendingPathComponent("flower.jpg"))
        let postgres = try await PostgresServer.shared()
        let database = ["ASSETS_PICKER_DATABASE_URL": postgres.tcpURL(database: try await postgres.makeDatabase().database)]

        let first = try await ServedProcess(library: folder, scratch: folder, environment: database)
        defer { first.kill() }
        let second = try await ServedProcess(library: folder, scratch: folder, environment: database)
        defer { second.kill() }
        // The first's printed link, opened on the second: signed in there, and used up everywhere.
        let linkText = try #require(first.announcement["signInUrl"])
        let link = try #require(URLComponents(string: linkText))
        let opened = try await Self.get(port: second.port, link.percentEncodedPath)
        #expect(opened.status == 200)
        let token = try #require(opened.setCookie?.split(separator: ";")[0].split(separator: "=", maxSplits: 1).last.map(String.init))
        #expect(try await Self.get(port: first.port, link.percentEncodedPath).status == 401)
        #expect(try await Self.get(port: second.port, link.percentEncodedPath).status == 401)
        // The browser is signed in on the first too.
        let firstPicker = try Self.path(of: first.announcement["pickerUri"])
        #expect(try await Self.get(port: first.port, firstPicker, token: token).status == 200)

        // The server it signed in through killed, a server started since finds it signed in.
        second.kill()
        let third = try await ServedProcess(library: folder, scratch: folder, environment: database)
        defer { third.kill() }
        let thirdPicker = try Self.path(of: third.announcement["pickerUri"])
        #expect(try await Self.get(port: third.port, thirdPicker, token: token).status == 200)
        let forged = "\(token.split(separator: ".")[0]).\(String(repeating: "A", count: 43))"
        #expect(try await Self.get(port: third.port, thirdPicker, token: forged).status == 401)
    }

    /// The path of an announced picker URI (with its trailing slash).
    private static func path(of pickerURI: String?) throws -> String {
        let text = try #require(pickerURI)
        return try #require(URL(string: text)).path + "/"
    }

    /// `GET path` on the server at `port`, with the person's cookie (named for that port) when
    /// `token` is given; its status and `Set-Cookie`.
    private static func get(port: Int, _ path: String, token: String? = nil) async throws -> (status: Int, setCookie: String?) {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        if let token { request.setValue("assets_picker_person_\(port)=\(token)", forHTTPHeaderField: "Cookie") }
        let (_, response) = try await URLSession.cookieless.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "Set-Cookie"))
    }
}
