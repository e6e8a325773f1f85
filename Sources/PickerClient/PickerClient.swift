import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client program's side of picker sessions, in the Google Photos Picker API's wire format:
/// ask a person to pick, wait until they are done, then read exactly what they picked, at the
/// sizes the program needs.
///
/// ```swift
/// let client = PickerClient(baseURL: URL(string: "http://127.0.0.1:8080")!, clientKey: key)
/// let session = try await client.createSession(PickerSessionOptions(maxItemCount: 5))
/// print("Pick at", session.pickerUri)              // the person opens this in a browser
/// let done = try await client.waitUntilPicked(session.id)
/// for item in try await client.mediaItems(in: done.id) {
///     let jpeg = try await client.content(of: item, .crop(width: 300, height: 200))
/// }
/// try await client.deleteSession(done.id)
/// ```
public struct PickerClient: Sendable {
    /// The server, e.g. `http://127.0.0.1:8080` (the API is under its `/v1/`).
    public let baseURL: URL
    /// The server's client key, sent as `Authorization: Bearer <key>`.
    public let clientKey: String
    private let urlSession: URLSession

    public init(baseURL: URL, clientKey: String, urlSession: URLSession = .shared) {
        self.baseURL = baseURL
        self.clientKey = clientKey
        self.urlSession = urlSession
    }

    /// Starts a session (`POST /v1/sessions`); the person picks at its ``PickingSession/pickerUri``.
    public func createSession(_ options: PickerSessionOptions = PickerSessionOptions()) async throws -> PickingSession {
        try await json(PickingSession.self, "POST", "v1/sessions", body: try JSONEncoder().encode(options))
    }

    /// The session as it is now (`GET /v1/sessions/{id}`).
    public func session(_ id: String) async throws -> PickingSession {
        try await json(PickingSession.self, "GET", "v1/sessions/\(id)")
    }

    /// Polls the session at the server's `pollInterval` until the person pressed Done or Cancel.
    /// - Throws: ``PickerClientError`` (`DEADLINE_EXCEEDED` once the server's `timeoutIn` has
    ///   passed, `NOT_FOUND` once the session is gone), or `CancellationError`.
    public func waitUntilPicked(_ id: String) async throws -> PickingSession {
        let clock = ContinuousClock()
        var deadline: ContinuousClock.Instant?
        while true {
            let session = try await session(id)
            if session.mediaItemsSet { return session }
            let now = clock.now
            deadline = deadline ?? now + session.pollingConfig.timeoutIn
            guard let deadline, now < deadline else {
                throw PickerClientError(status: 0, code: "DEADLINE_EXCEEDED", message: "The person did not finish picking before the session's timeout.")
            }
            try await Task.sleep(for: max(.milliseconds(50), min(session.pollingConfig.pollInterval, deadline - now)))
        }
    }

    /// One page of the picked items (`GET /v1/mediaItems`); pass the previous page's ``MediaItemsPage/nextPageToken``.
    public func mediaItemsPage(in sessionID: String, pageSize: Int? = nil, pageToken: String? = nil) async throws -> MediaItemsPage {
        var query = [URLQueryItem(name: "sessionId", value: sessionID)]
        if let pageSize { query.append(URLQueryItem(name: "pageSize", value: String(pageSize))) }
        if let pageToken { query.append(URLQueryItem(name: "pageToken", value: pageToken)) }
        return try await json(MediaItemsPage.self, "GET", "v1/mediaItems", query: query)
    }

    /// Every picked item, in the session's order (pick order or date order), page by page.
    public func mediaItems(in sessionID: String, pageSize: Int? = nil) async throws -> [PickedMediaItem] {
        var items: [PickedMediaItem] = []
        var token: String?
        repeat {
            let page = try await mediaItemsPage(in: sessionID, pageSize: pageSize, pageToken: token)
            items += page.mediaItems
            token = page.nextPageToken
        } while token != nil
        return items
    }

    /// A picked item's bytes as `content` asks (a size, a crop, the original, the video), or the
    /// bytes in `range` of them.
    public func content(of item: PickedMediaItem, _ content: MediaContent, range: ClosedRange<Int64>? = nil) async throws -> Data {
        let headers = range.map { ["Range": "bytes=\($0.lowerBound)-\($0.upperBound)"] } ?? [:]
        let url = URL(string: item.mediaFile.baseUrl.absoluteString + content.suffix)!
        return try await send(method: "GET", url: url, headers: headers).0
    }

    /// Ends the session (`DELETE /v1/sessions/{id}`): its base URLs stop working.
    public func deleteSession(_ id: String) async throws {
        _ = try await data("DELETE", "v1/sessions/\(id)")
    }

    private func json<T: Decodable>(_ type: T.Type, _ method: String, _ path: String, query: [URLQueryItem] = [],
                                    body: Data? = nil) async throws -> T {
        let (data, _) = try await data(method, path, query: query, body: body)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            // RFC 3339 as Google writes it: with or without a fraction of a second.
            let plain = ISO8601DateFormatter(), fractional = ISO8601DateFormatter()
            fractional.formatOptions.insert(.withFractionalSeconds)
            guard let date = plain.date(from: text) ?? fractional.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an RFC 3339 time"))
            }
            return date
        }
        return try decoder.decode(T.self, from: data)
    }

    private func data(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil,
                      headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        return try await send(method: method, url: components.url!, body: body, headers: headers)
    }

    private func send(method: String, url: URL, body: Data? = nil, headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(clientKey)", forHTTPHeaderField: "Authorization")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await urlSession.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw PickerClientError(status: 0, code: "UNAVAILABLE", message: "no HTTP response") }
        guard (200..<300).contains(http.statusCode) else { throw PickerClientError(status: http.statusCode, body: data) }
        return (data, http)
    }
}
