import AssetsKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImagePipeline
import ProcessRunning
import Synchronization
import IndexedLibrary
import LibraryOpening
import Logging
import PickerSessions
import PickerClient
import PickerServer
import TestSupport
import Testing

/// A real picker server on 127.0.0.1 (a free port) over a library in a temporary folder,
/// answering real HTTP until ``stop()``.
final class TestServer: Sendable {
    let library: any PhotoLibrary
    let root: URL
    let baseURL: URL
    let clientKey = "test-client-key-0123456789abcdef"
    let server: PickerServer
    /// The `Cookie` header of a browser the person signed in (through a one-time link, over HTTP).
    var personCookie: String { signedInCookie.withLock { $0 } }
    private let signedInCookie = Mutex("")
    /// Sign-in links the server showed its operator (made by picker pages opened without signing in).
    let shownSignInLinks = ShownLinks()
    private let task: Task<Void, any Error>

    /// A server over a new indexed library holding the corpus' camera photos and a video.
    /// - Parameter sessions: The server's session store (e.g. one on a ``TestClock``); by default a new one.
    /// - Parameters:
    ///   - signIn: The person's sign-in (e.g. one on a ``TestClock``); by default a new one.
    ///   - adding: More files for the library, copied into its `DCIM` folder before it is indexed.
    ///   - port: The port to listen on; by default a free one.
    ///   - limits: The server's timeouts and caps.
    ///   - imageManager: What renders the library's images (e.g. one with renders held); by default a new one.
    static func indexed(sessions: (any SessionStoring)? = nil, signIn: PersonSignIn = PersonSignIn(),
                        adding files: [URL] = [], port: Int = 0, limits: PickerServerLimits = .forTests,
                        imageManager: CachingImageManager? = nil) async throws -> TestServer {
        let root = try await corpusLibrary()
        for file in files { try FileManager.default.copyItem(at: file, to: root.appendingPathComponent("DCIM/\(file.lastPathComponent)")) }
        let library = try await LibraryOpener(imageManager: imageManager).open(root: root, backend: .indexed, indexURL: indexURL(forLibrary: root))
        return try await TestServer(library: library, root: root, sessions: sessions, signIn: signIn, port: port, limits: limits)
    }

    /// A server over a read-only folder library of the same files.
    static func folder() async throws -> TestServer {
        let root = try await corpusLibrary()
        let library = try await LibraryOpener().open(root: root, backend: .folder)
        return try await TestServer(library: library, root: root, sessions: nil, signIn: PersonSignIn(), port: 0)
    }

    /// A server over the same files on `backend`, once `preparing` has added to the library
    /// folder (links, say) before it is opened and indexed.
    static func over(_ backend: LibraryBackend, preparing: (URL) throws -> Void) async throws -> TestServer {
        let root = try await corpusLibrary()
        try preparing(root)
        let library = try await LibraryOpener().open(root: root, backend: backend, indexURL: indexURL(forLibrary: root))
        return try await TestServer(library: library, root: root, sessions: nil, signIn: PersonSignIn(), port: 0)
    }

    /// The index of a library made by ``corpusLibrary()``: beside it, in the same temporary folder.
    static func indexURL(forLibrary root: URL) -> URL {
        root.deletingLastPathComponent().appendingPathComponent("index/library.sqlite")
    }

    /// A library folder in a new temporary folder, with ten camera photos (in two folders) and
    /// a two-second video; removing its parent folder removes everything the test made.
    static func corpusLibrary() async throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("picker-server-\(UUID().uuidString)/library", isDirectory: true)
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("DCIM/100CAMERA"), withIntermediateDirectories: true)
        try manager.createDirectory(at: root.appendingPathComponent("Trips"), withIntermediateDirectories: true)
        let photos = Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }.sorted { $0.path < $1.path }.prefix(10)
        for (index, photo) in photos.enumerated() {
            let folder = index < 6 ? "DCIM/100CAMERA" : "Trips"
            try manager.copyItem(at: photo, to: root.appendingPathComponent("\(folder)/\(photo.lastPathComponent)"))
        }
        let video = root.appendingPathComponent("DCIM/100CAMERA/clip.mp4")
        let output = try await ToolRunner.fixture(.ffmpeg, arguments: [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "2",
            "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", video.path,
        ])
        guard output.succeeded else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: output.standardError]) }
        return root
    }

    /// A server over `library`, whose folder (removed by ``stop()`` with the folder above it) is `root`.
    init(library: any PhotoLibrary, root: URL, sessions: (any SessionStoring)?, signIn: PersonSignIn, port: Int,
                 limits: PickerServerLimits = .forTests) async throws {
        self.library = library
        self.root = root
        var configuration = PickerServerConfiguration(host: "127.0.0.1", port: port, clientKey: clientKey)
        configuration.limits = limits
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical // stopping by cancellation is logged as an error
        let shown = shownSignInLinks
        let server = PickerServer(library: library, configuration: configuration, sessions: sessions, signIn: signIn,
                                  showSignInLink: { link in shown.links.withLock { $0.append(link) } }, logger: logger)
        self.server = server
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        task = Task {
            defer { continuation.finish() }
            try await server.run { port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            _ = try await task.value
            throw URLError(.cannotConnectToHost)
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        let cookie = try await signInAsPerson()
        signedInCookie.withLock { $0 = cookie }
    }

    /// Opens a new one-time sign-in link as the person's browser would: the `Cookie` header it
    /// then sends.
    func signInAsPerson() async throws -> String {
        let answer = try await request("GET", PickerServer.signInPath(link: server.signIn.makeLink()), authorized: false)
        return try #require(Self.cookie(from: answer))
    }

    /// The `name=value` of the cookie an answer sets, if it sets one.
    static func cookie(from answer: HTTPAnswer) -> String? {
        answer.header("Set-Cookie")?.split(separator: ";").first.map(String.init)
    }

    var client: PickerClient { PickerClient(baseURL: baseURL, clientKey: clientKey, urlSession: .cookieless) }

    func stop() async {
        task.cancel()
        _ = try? await task.value
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
    }

    /// A raw request: status, headers and body, whatever the status.
    /// - Parameters:
    ///   - authorized: Whether it carries the client key.
    ///   - asPerson: Whether it carries the person's cookie and, as the picker page's own
    ///     requests do, this server's `Origin`.
    func request(_ method: String = "GET", _ path: String, headers: [String: String] = [:], body: Data? = nil,
                 authorized: Bool = true, asPerson: Bool = false) async throws -> HTTPAnswer {
        // The path goes on the wire as written: percent-encoding and dots are the test's to choose.
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        request.httpMethod = method
        if authorized { request.setValue("Bearer \(clientKey)", forHTTPHeaderField: "Authorization") }
        if asPerson {
            request.setValue(personCookie, forHTTPHeaderField: "Cookie")
            request.setValue(baseURL.absoluteString, forHTTPHeaderField: "Origin")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await URLSession.cookieless.data(for: request)
        return HTTPAnswer(response: response as! HTTPURLResponse, body: data)
    }

    /// The person's side: the picker page's API of a session.
    func picker(_ session: PickingSession) -> PersonAtPicker {
        PersonAtPicker(server: self, apiPath: session.pickerPath + "api/")
    }
}

/// The sign-in links a server showed its operator, in order.
final class ShownLinks: Sendable {
    let links = Mutex<[String]>([])

    var all: [String] { links.withLock { $0 } }
}

/// What came back from a raw request.
struct HTTPAnswer: Sendable {
    let response: HTTPURLResponse
    let body: Data

    var status: Int { response.statusCode }

    func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }

    /// The body as JSON.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    /// The `error.message` of a JSON error body.
    var errorMessage: String {
        (json["error"] as? [String: Any])?["message"] as? String ?? ""
    }
}

/// A person picking in the browser, through the picker page's API.
struct PersonAtPicker: Sendable {
    let server: TestServer
    let apiPath: String

    func get(_ path: String, headers: [String: String] = [:]) async throws -> HTTPAnswer {
        try await server.request("GET", apiPath + path, headers: headers, authorized: false, asPerson: true)
    }

    func send(_ method: String, _ path: String, json: Any? = nil) async throws -> HTTPAnswer {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await server.request(method, apiPath + path, headers: ["Content-Type": "application/json"], body: body,
                                        authorized: false, asPerson: true)
    }

    /// The ids of the camera roll's assets, newest first.
    func cameraRollIDs(media: String = "all") async throws -> [String] {
        let albums = try await get("albums").json["albums"] as? [[String: Any]] ?? []
        let cameraRoll = try #require(albums.first?["id"] as? String)
        let encoded = cameraRoll.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let window = try await get("albums/\(encoded)/assets?limit=500&media=\(media)").json
        return (window["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// The camera roll's photo with the most pixels (the corpus' camera photos are small).
    func largestPhotoID() async throws -> String {
        let window = try await get("albums/smart%3Aall/assets?limit=500&media=photo").json
        let items = window["items"] as? [[String: Any]] ?? []
        let largest = items.max { ($0["pixelWidth"] as? Int ?? 0) * ($0["pixelHeight"] as? Int ?? 0) < ($1["pixelWidth"] as? Int ?? 0) * ($1["pixelHeight"] as? Int ?? 0) }
        return try #require(largest?["id"] as? String)
    }

    /// Picks these ids one by one, then presses Done.
    func pick(_ ids: [String], thenDone: Bool = true) async throws {
        for id in ids {
            let answer = try await send("POST", "selection/\(id)")
            guard answer.status == 200 else { throw PickerClientError(status: answer.status, code: "pick", message: answer.errorMessage) }
        }
        if thenDone { _ = try await send("POST", "done") }
    }
}

extension PickingSession {
    /// The picker URI's path, with its trailing slash (`URL.path` drops it).
    var pickerPath: String {
        URLComponents(url: pickerUri, resolvingAgainstBaseURL: false)!.percentEncodedPath
    }
}

extension PickedMediaItem {
    /// The path of the item's base URL, for a raw request (append `=w…-h…`, `=d`, `=dv`).
    var baseURLPath: String { URLComponents(url: mediaFile.baseUrl, resolvingAgainstBaseURL: false)!.percentEncodedPath }
}

extension TestServer {
    /// The path a base URL of `item` in `session` has when the session is listed now (for
    /// identifiers the client was never given: only the item differs from a real one).
    func mediaPath(session: String, item: String) async throws -> String {
        "/v1/media/\(session)/\(item)/\(try await currentExpiry(of: session))"
    }

    /// The expiry in the base URLs of a listing of `session` now; for a session that cannot be
    /// listed (unknown, or not picked in yet), one half an hour ahead, which no listing gave.
    func currentExpiry(of session: String) async throws -> Int64 {
        let page = try await request("GET", "/v1/mediaItems?sessionId=\(session)").json
        let items = page["mediaItems"] as? [[String: Any]] ?? []
        let baseURL = (items.first?["mediaFile"] as? [String: Any])?["baseUrl"] as? String
        return baseURL.flatMap { $0.split(separator: "/").last.flatMap { Int64($0) } } ?? Int64(Date().timeIntervalSince1970) + 1_800
    }
}

extension TestServer {
    /// How many sessions the server's memory store holds alive.
    var sessionCount: Int? { (server.sessions as? MemorySessionStore)?.count }
}
