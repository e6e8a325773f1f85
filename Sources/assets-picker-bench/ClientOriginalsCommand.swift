import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PickerClient

/// `assets-picker-bench client-originals --server URL --sign-in LINK`: what a client program
/// waits for when it downloads picked originals through their baseUrls (`=d`) from a running
/// `assets-picker serve`, over real HTTP.
///
/// As the person, it signs in through the one-time link, and picks `--picks` photos spread over
/// the camera roll in a session the client made (`PickerClient`, with the client key from
/// `ASSETS_PICKER_CLIENT_KEY`), then presses Done. As the client, it lists the picks and asks
/// each one's `=d`, one at a time, timing the first byte of the body and the whole of it;
/// `--rounds` times over the same picks (on a library in a bucket, the first round fetches each
/// original from the bucket; the later ones find it cached). Prints one JSON document.
struct ClientOriginalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-originals",
        abstract: "Time a client's =d downloads of picked originals from a running serve (first byte, whole).",
        discussion: "The client key comes from ASSETS_PICKER_CLIENT_KEY. scripts/bench-s3-library.sh runs it against a library in a bucket.")

    @Option(help: "The server's address, as serve announced it (e.g. http://127.0.0.1:8080/).", transform: { text in
        guard let url = URL(string: text), url.scheme == "http" else { throw ValidationError("--server must be an http:// URL") }
        return url
    })
    var server: URL

    @Option(help: "A one-time sign-in link serve printed, to sign in as the person who picks.")
    var signIn: String

    @Option(help: "How many photos are picked and downloaded.")
    var picks = 20

    @Option(help: "How many times each pick is downloaded (the first one of a remote original fetches it).")
    var rounds = 2

    func validate() throws {
        guard (1...2000).contains(picks), rounds >= 1 else { throw ValidationError("--picks must be 1 to 2000 and --rounds positive") }
    }

    /// One download: seconds from sending the request to the body's first byte and to its end.
    struct Download: Codable {
        var firstByteSeconds: Double
        var wholeSeconds: Double
        var bytes: Int
    }

    /// One pick and its downloads, round by round.
    struct Pick: Codable {
        var filename: String
        var downloads: [Download]
    }

    func run() async throws {
        guard let key = ProcessInfo.processInfo.environment["ASSETS_PICKER_CLIENT_KEY"], !key.isEmpty else {
            throw ValidationError("set ASSETS_PICKER_CLIENT_KEY to the server's client key")
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let picks = try await run(http: http, key: key)
            try await http.shutdown()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(["picks": picks]), as: UTF8.self))
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func run(http: HTTPClient, key: String) async throws -> [Pick] {
        let client = PickerClient(baseURL: server, clientKey: key)
        let session = try await client.createSession(PickerSessionOptions(maxItemCount: picks, mediaFilter: "photo", order: "pick"))
        let person = try await Person(http: http, server: server, signIn: signIn, pickerURI: session.pickerUri)
        let window = try await person.cameraRoll()
        guard window.count >= picks else {
            throw ValidationError("the camera roll shows \(window.count) photos, fewer than --picks \(picks)")
        }
        try await person.pickAndFinish((0..<picks).map { window[$0 * window.count / picks] })
        let items = try await client.mediaItems(in: session.id, pageSize: 100)

        var results = items.map { Pick(filename: $0.mediaFile.filename, downloads: []) }
        for _ in 0..<rounds {
            for (index, item) in items.enumerated() {
                let url = item.mediaFile.baseUrl.absoluteString + "=d"
                results[index].downloads.append(try await download(url, key: key, http: http))
            }
        }
        try await client.deleteSession(session.id)
        return results
    }

    /// Downloads `url` with the client key, timing its first byte and its end.
    private func download(_ url: String, key: String, http: HTTPClient) async throws -> Download {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        let start = ContinuousClock.now
        let response = try await http.execute(request, timeout: .seconds(600))
        guard response.status == .ok else { throw ClientOriginalsError.status(url: url, code: Int(response.status.code)) }
        var firstByte: Duration?
        var bytes = 0
        for try await buffer in response.body {
            if firstByte == nil, buffer.readableBytes > 0 { firstByte = ContinuousClock.now - start }
            bytes += buffer.readableBytes
        }
        let whole = ContinuousClock.now - start
        return Download(firstByteSeconds: Self.seconds(firstByte ?? whole), wholeSeconds: Self.seconds(whole), bytes: bytes)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The person at the picker page of one session, through the page's own API (docs/PICKER-UI-API.md):
/// signed in with the server's cookie, sending its `Origin` as the page's requests do.
private struct Person {
    let http: HTTPClient
    let origin: String
    let api: String
    let cookie: String

    init(http: HTTPClient, server: URL, signIn: String, pickerURI: URL) async throws {
        self.http = http
        origin = "http://\(server.host ?? "127.0.0.1"):\(server.port ?? 80)"
        api = pickerURI.absoluteString + "api/"
        let answer = try await http.execute(HTTPClientRequest(url: signIn), timeout: .seconds(30))
        guard let setCookie = answer.headers.first(name: "Set-Cookie"), let pair = setCookie.split(separator: ";").first else {
            throw ClientOriginalsError.notSignedIn(status: Int(answer.status.code))
        }
        cookie = String(pair)
    }

    /// The ids of the camera roll's first 500 photos, oldest first.
    func cameraRoll() async throws -> [String] {
        struct Albums: Decodable { struct Album: Decodable { var id: String }; var albums: [Album] }
        struct Window: Decodable { struct Item: Decodable { var id: String }; var items: [Item] }
        let albums = try JSONDecoder().decode(Albums.self, from: try await send(.GET, "albums"))
        guard let roll = albums.albums.first?.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { return [] }
        return try JSONDecoder().decode(Window.self, from: try await send(.GET, "albums/\(roll)/assets?limit=500&sort=oldest")).items.map(\.id)
    }

    /// Sets the selection to `ids` and presses Done.
    func pickAndFinish(_ ids: [String]) async throws {
        _ = try await send(.PUT, "selection", body: try JSONEncoder().encode(["ids": ids]))
        _ = try await send(.POST, "done")
    }

    private func send(_ method: HTTPMethod, _ path: String, body: Data? = nil) async throws -> Data {
        var request = HTTPClientRequest(url: api + path)
        request.method = method
        request.headers.add(name: "Cookie", value: cookie)
        request.headers.add(name: "Origin", value: origin)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await http.execute(request, timeout: .seconds(60))
        let data = Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)
        guard response.status == .ok else { throw ClientOriginalsError.status(url: api + path, code: Int(response.status.code)) }
        return data
    }
}

/// What went wrong between the benchmark and the server.
private enum ClientOriginalsError: Error, CustomStringConvertible {
    case notSignedIn(status: Int)
    case status(url: String, code: Int)

    var description: String {
        switch self {
        case let .notSignedIn(status): "the sign-in link set no cookie (status \(status)); give a fresh one serve printed"
        case let .status(url, code): "\(url) answered \(code)"
        }
    }
}
