import Foundation
import Hummingbird

/// The client API's OpenAPI 3 document (`openapi.json`, bundled), served at `/openapi.json`.
enum OpenAPIDocument {
    /// The document's bytes, read once.
    static let bytes: ByteBuffer? = Bundle.module.url(forResource: "openapi", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }
        .map { ByteBuffer(data: $0) }

    static func response(request: Request) throws -> Response {
        guard let bytes else { throw APIError.notFound }
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                        body: .init(byteBuffer: bytes))
    }
}
