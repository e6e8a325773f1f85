import Foundation
import Hummingbird

/// The client API's OpenAPI 3 document (`openapi.json`, bundled), served at `/openapi.json`.
struct OpenAPIDocument: Sendable {
    let bytes: ByteBuffer

    /// The document bundled with this module.
    static func bundled() throws -> OpenAPIDocument {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "openapi.json is missing from the bundle"])
        }
        return OpenAPIDocument(bytes: ByteBuffer(data: try Data(contentsOf: url)))
    }

    var response: Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                 body: .init(byteBuffer: bytes))
    }
}
