import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresTestSupport
import Testing
import TestSupport

/// The many-server setup for real: a PostgreSQL server of the test's own (so it can be stopped
/// and restarted without disturbing other tests), a library of the corpus' camera photos indexed
/// into it, two `assets-picker serve` processes sharing that database (each with data and cache
/// folders of its own, as on two machines, and one client key) and nginx round-robining over
/// them at one address, which both servers give as their public URL.
final class Cluster: Sendable {
    let postgres: PostgresServer
    let servers: [ServedProcess]
    let front: NginxFront
    /// nginx's address: what people and client programs reach.
    let base: URL
    let clientKey: String
    let folder: URL

    static let photos = ["jhead__sony.jpg", "goexif__sample1.jpg", "jhead__canon-300d.jpg", "jhead__fuji-dx10.jpg",
                         "jhead__hp.jpg", "jhead__olympus.jpg", "piexif__r_canon.jpg", "pillow__flower.jpg"]

    init(servers count: Int = 2) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-\(UUID().uuidString)", isDirectory: true)
        let library = folder.appendingPathComponent("library", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for photo in Self.photos {
            try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/\(photo)"), to: library.appendingPathComponent(photo))
        }
        postgres = try await PostgresServer.own()
        let database = postgres.tcpURL(database: try await postgres.database(named: "cluster").database)
        let index = try await CLI.run(["index", library.path, "--json"], environment: ["ASSETS_PICKER_DATABASE_URL": database])
        guard index.status == 0 else { throw FixtureError.commandFailed(index) }
        let frontPort = try LoopbackPort.free()
        base = URL(string: "http://127.0.0.1:\(frontPort)")!
        let key = UUID().uuidString + UUID().uuidString
        clientKey = key
        var servers: [ServedProcess] = []
        for machine in 1...count {
            let own = folder.appendingPathComponent("machine-\(machine)", isDirectory: true)
            servers.append(try await ServedProcess(
                library: library, scratch: own, arguments: ["--public-url", base.absoluteString + "/", "--trusted-proxy", "127.0.0.1", "--no-watch"],
                backend: "indexed", clientKey: key,
                environment: ["XDG_DATA_HOME": own.appendingPathComponent("data").path, "ASSETS_PICKER_DATABASE_URL": database]))
        }
        self.servers = servers
        front = try await NginxFront(port: frontPort, upstreams: servers.map(\.port))
    }

    /// Stops everything and removes the folders (the PostgreSQL server goes with the test process).
    func stop() {
        front.stop()
        for server in servers { server.kill() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A raw request to nginx (or to `port`, one server directly): status, headers and body.
    /// - Parameters:
    ///   - authorized: Whether it carries the client key.
    ///   - cookie: The person's cookie; with it, the picker page's `Origin` (the public URL).
    func request(_ method: String = "GET", _ path: String, port: Int? = nil, authorized: Bool = false, cookie: String? = nil,
                 json: Any? = nil, timeout: TimeInterval = 120) async throws -> ClusterAnswer {
        let target = port.map { "http://127.0.0.1:\($0)" } ?? base.absoluteString
        var request = URLRequest(url: URL(string: target + path)!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        if authorized { request.setValue("Bearer \(clientKey)", forHTTPHeaderField: "Authorization") }
        if let cookie {
            request.setValue(cookie, forHTTPHeaderField: "Cookie")
            request.setValue(base.absoluteString, forHTTPHeaderField: "Origin")
        }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        // Once, a run of these tests waited minutes past a request's timeout (URLSession on Linux):
        // past its timeout and a minute more, a request fails the test instead of holding it.
        let sent = request
        let (data, response) = try await HangGuard.answer("\(method) \(path)", within: .seconds(timeout + 60)) {
            try await URLSession.cookieless.data(for: sent)
        }
        return ClusterAnswer(response: response as! HTTPURLResponse, body: data)
    }

    /// Signs a browser in through a one-time link (its path and query, through nginx or
    /// `port`): the `Cookie` it then sends.
    func signIn(_ link: String?, port: Int? = nil) async throws -> String {
        let answer = try await request("GET", try Self.pathAndQuery(link), port: port)
        let cookie = answer.header("Set-Cookie")?.split(separator: ";").first.map(String.init)
        return try #require(cookie, "the sign-in link set a cookie: \(answer.status)")
    }

    /// The path and query of an absolute URL a server gave (`pickerUri`, a sign-in link).
    static func pathAndQuery(_ url: String?) throws -> String {
        let text = try #require(url)
        let components = try #require(URLComponents(string: text))
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// A client program's new session (through nginx): its id and the picker page's path.
    func createSession(maxItems: Int? = nil) async throws -> (id: String, pickerPath: String) {
        var body: [String: Any] = [:]
        if let maxItems { body["pickingConfig"] = ["maxItemCount": String(maxItems)] }
        let answer = try await request("POST", "/v1/sessions", authorized: true, json: body)
        #expect(answer.status == 200, "\(answer.text)")
        let id = try #require(answer.json["id"] as? String)
        let picker = try Self.pathAndQuery(answer.json["pickerUri"] as? String)
        return (id, picker.hasSuffix("/") ? picker : picker + "/")
    }

    /// The ids of the camera roll's assets as the picker page lists them.
    func assetIDs(pickerPath: String, cookie: String) async throws -> [String] {
        let answer = try await request("GET", pickerPath + "api/albums/smart%3Aall/assets?limit=500", cookie: cookie)
        return (answer.json["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }
}

/// What came back from a raw request.
struct ClusterAnswer: Sendable {
    let response: HTTPURLResponse
    let body: Data

    var status: Int { response.statusCode }
    func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }
}
