import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The over-HTTP side of the large-library benchmark: `assets-picker serve` on the library, the
/// person signed in, then what the picker page asks first: `/api/albums` and the first 60 of
/// All Photos.
struct HTTPFirstScreen {
    let binary: URL
    let library: URL
    let backend: String
    let index: URL
    let dataHome: URL

    /// The first request pair (server just started) and the median of nine more.
    struct Result {
        var first: Double
        var warm: Double
    }

    func run() async throws -> Result {
        let server = Process()
        server.executableURL = binary
        server.arguments = ["serve", "--library", library.path, "--backend", backend, "--index", index.path,
                            "--port", "0", "--json", "--no-watch", "--log-level", "error"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        environment["XDG_CACHE_HOME"] = dataHome.appendingPathComponent("cache").path
        environment["ASSETS_PICKER_CLIENT_KEY"] = UUID().uuidString + UUID().uuidString
        server.environment = environment
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let announcement = try Self.firstLine(of: output.fileHandleForReading)
        guard let signIn = announcement["signInUrl"].flatMap(URL.init(string:)),
              let picker = announcement["pickerUri"].flatMap(URL.init(string:)) else {
            throw BenchFailure("the server announced no sign-in link or picker: \(announcement)")
        }
        let client = BenchHTTPClient()
        let cookie = try await client.signIn(at: signIn)
        let albums = picker.appendingPathComponent("api/albums")
        func firstScreen() async throws {
            let list = try await client.json(albums, cookie: cookie)
            guard let first = (list["albums"] as? [[String: Any]])?.first?["id"] as? String,
                  let encoded = first.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else {
                throw BenchFailure("the album list was empty")
            }
            let page = try await client.json(URL(string: picker.absoluteString + "api/albums/\(encoded)/assets?limit=60")!, cookie: cookie)
            guard (page["items"] as? [Any])?.count == 60 else { throw BenchFailure("the first page did not hold 60 items") }
        }
        let first = try await Measure.milliseconds { try await firstScreen() }
        let warm = try await Measure.median(runs: 9) { try await firstScreen() }
        return Result(first: first, warm: warm)
    }

    /// The server's `--json` announcement, its first line of output.
    private static func firstLine(of handle: FileHandle) throws -> [String: String] {
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { throw BenchFailure("the server exited before it announced itself") }
            line.append(chunk)
        }
        let text = line.prefix { $0 != 0x0A }
        guard let object = try JSONSerialization.jsonObject(with: text) as? [String: Any] else {
            throw BenchFailure("the server's announcement is not a JSON object")
        }
        return object.compactMapValues { $0 as? String }
    }
}

/// GETs over one keep-alive session; redirects are not followed, so the sign-in's cookie is seen.
final class BenchHTTPClient: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private lazy var session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)

    /// Redeems the one-time sign-in link and returns the cookie it set.
    func signIn(at url: URL) async throws -> String {
        let (_, response) = try await session.data(from: url)
        guard let http = response as? HTTPURLResponse, let setCookie = http.value(forHTTPHeaderField: "Set-Cookie"),
              let cookie = setCookie.split(separator: ";").first else {
            throw BenchFailure("signing in set no cookie")
        }
        return String(cookie)
    }

    func json(_ url: URL, cookie: String) async throws -> [String: Any] {
        var request = URLRequest(url: url)
        request.setValue(cookie, forHTTPHeaderField: "Cookie")
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchFailure("GET \(url.path) answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        return object
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest) async -> URLRequest? {
        nil
    }
}

/// A benchmark step that could not be done, and why.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
