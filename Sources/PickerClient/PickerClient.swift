import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client program's side of picker sessions: ask a person to pick, wait until they are done,
/// then read exactly what they picked, at the sizes the program needs.
///
/// ```swift
/// let client = PickerClient(baseURL: URL(string: "http://127.0.0.1:8080")!, clientKey: key)
/// let session = try await client.createSession(PickerSessionOptions(maxItems: 5))
/// print("Pick at", session.pickerUri)              // the person opens this in a browser
/// let done = try await client.waitUntilPicked(session.id)
/// for item in try await client.items(in: done.id) {
///     let jpeg = try await client.image(of: item.id, in: done.id, width: 300, height: 200, mode: .fill)
/// }
/// try await client.deleteSession(done.id)
/// ```
public struct PickerClient: Sendable {
    /// The server, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The server's client key, sent as `Authorization: Bearer <key>`.
    public let clientKey: String
    private let urlSession: URLSession

    public init(baseURL: URL, clientKey: String, urlSession: URLSession = .shared) {
        self.baseURL = baseURL
        self.clientKey = clientKey
        self.urlSession = urlSession
    }

    /// Starts a session; the person picks at its ``PickerSessionInfo/pickerUri``.
    public func createSession(_ options: PickerSessionOptions = PickerSessionOptions()) async throws -> PickerSessionInfo {
        try await json(PickerSessionInfo.self, "POST", "v1/sessions", body: try JSONEncoder().encode(options))
    }

    /// The session as it is now.
    public func session(_ id: String) async throws -> PickerSessionInfo {
        try await json(PickerSessionInfo.self, "GET", "v1/sessions/\(id)")
    }

    /// Polls the session at its polling interval until the person pressed Done or Cancel.
    /// - Throws: ``PickerClientError`` (e.g. 404 once the session expired), or `CancellationError`.
    public func waitUntilPicked(_ id: String) async throws -> PickerSessionInfo {
        while true {
            let session = try await session(id)
            if session.mediaItemsSet { return session }
            try await Task.sleep(for: .seconds(max(0.05, session.pollingConfig.pollInterval)))
        }
    }

    /// One page of the picked items; pass the previous page's ``PickedItemPage/nextPageToken``.
    public func itemsPage(in id: String, pageToken: String? = nil, pageSize: Int? = nil) async throws -> PickedItemPage {
        var query: [URLQueryItem] = []
        if let pageToken { query.append(URLQueryItem(name: "pageToken", value: pageToken)) }
        if let pageSize { query.append(URLQueryItem(name: "pageSize", value: String(pageSize))) }
        return try await json(PickedItemPage.self, "GET", "v1/sessions/\(id)/items", query: query)
    }

    /// Every picked item, in the session's order (pick order or date order), page by page.
    public func items(in id: String) async throws -> [PickedItem] {
        var items: [PickedItem] = []
        var token: String?
        repeat {
            let page = try await itemsPage(in: id, pageToken: token)
            items += page.items
            token = page.nextPageToken
        } while token != nil
        return items
    }

    /// A picked item rendered at `width`×`height` (upright; `fill` crops to exactly that size).
    public func image(of itemID: String, in sessionID: String, width: Int, height: Int, mode: ImageFit = .fit,
                      format: ImageEncoding = .jpeg, quality: Int = 80) async throws -> Data {
        let query = [URLQueryItem(name: "w", value: String(width)), URLQueryItem(name: "h", value: String(height)),
                     URLQueryItem(name: "mode", value: mode.rawValue), URLQueryItem(name: "format", value: format.rawValue),
                     URLQueryItem(name: "quality", value: String(quality))]
        return try await data("GET", "v1/sessions/\(sessionID)/items/\(itemID)/image", query: query).0
    }

    /// A picked item's original file, or the bytes in `range` of it.
    public func original(of itemID: String, in sessionID: String, range: ClosedRange<Int64>? = nil) async throws -> Data {
        let headers = range.map { ["Range": "bytes=\($0.lowerBound)-\($0.upperBound)"] } ?? [:]
        return try await data("GET", "v1/sessions/\(sessionID)/items/\(itemID)/original", headers: headers).0
    }

    /// Ends the session: its URLs stop working.
    public func deleteSession(_ id: String) async throws {
        _ = try await data("DELETE", "v1/sessions/\(id)")
    }

    private func json<T: Decodable>(_ type: T.Type, _ method: String, _ path: String, query: [URLQueryItem] = [],
                                    body: Data? = nil) async throws -> T {
        let (data, _) = try await data(method, path, query: query, body: body)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: data)
    }

    private func data(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil,
                      headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.setValue("Bearer \(clientKey)", forHTTPHeaderField: "Authorization")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await urlSession.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw PickerClientError(status: 0, code: "noResponse", message: "no HTTP response") }
        guard (200..<300).contains(http.statusCode) else { throw PickerClientError(status: http.statusCode, body: data) }
        return (data, http)
    }
}
