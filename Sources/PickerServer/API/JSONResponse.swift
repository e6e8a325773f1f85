import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird

/// JSON in and out of the APIs: dates in ISO 8601, keys sorted, bodies of bounded size.
enum JSONResponse {
    /// A response whose body is `value` as JSON.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        make(json: ByteBuffer(bytes: try encoder.encode(value)), status: status)
    }

    /// A response whose body is `json`, bytes written as ``make(_:status:)`` would write them.
    static func make(json: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        headers[.contentLength] = String(json.readableBytes)
        return Response(status: status, headers: headers, body: .init(byteBuffer: json))
    }

    /// The request's JSON body decoded as `T`, at most `limit` bytes.
    /// - Parameter empty: What an empty body means; `nil` when a body is required.
    /// - Throws: ``APIError`` 400 naming what is wrong when the body is missing or not a `T`; 413
    ///   when it is larger than `limit`, before any of it is read when its `Content-Length` says
    ///   so (the connection then ends with the answer: ``RequestDeadline``).
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = 1 << 20, empty: T? = nil) async throws -> T {
        let tooLarge = APIError(.contentTooLarge, code: "bodyTooLarge", "The request body is larger than \(limit) bytes.")
        // The decoder has taken it as a length already: one past `Int` is too large too.
        if let length = request.headers[.contentLength], Int(length) ?? .max > limit { throw tooLarge }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw tooLarge
        }
        guard buffer.readableBytes > 0 else {
            guard let empty else { throw APIError.badParameter("The request needs a JSON body.") }
            return empty
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as APIError {
            // A type that checks more than its shape names what is wrong itself.
            throw error
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw APIError.badParameter("The JSON body has a wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: ".").echoed)'.")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw APIError.badParameter("The JSON body has a value it does not take at '\(context.codingPath.map(\.stringValue).joined(separator: ".").echoed)'.")
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIError.badParameter("The JSON body lacks '\(key.stringValue.echoed)'.")
        } catch {
            throw APIError.badParameter("The body is not valid JSON of the expected shape.")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(from: date, offset: nil))
        }
        return encoder
    }()
}
