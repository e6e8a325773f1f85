import HTTPTypes
import Hummingbird

/// The headers every answer of the server carries, whoever makes it (the router, through
/// ``Middleware``; the event loop's fast path, through ``StampedHead``; the answers written below
/// HTTP, ``RawAnswer``):
///
/// - `X-Content-Type-Options: nosniff`: a browser takes each answer as the type it says, so an
///   image or an original (a picked file, an upload: whatever anyone put in the library) is
///   never run as a page or a script.
/// - `Cross-Origin-Resource-Policy: same-origin`: no page of another site can load an answer
///   into itself (an `<img>`, a `<script>`, a `<video>`), signed in or not. The server's own
///   pages load only its own answers; client programs are not browsers, which alone read it.
enum ServedHeaders {
    static let fields: HTTPFields = [
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Cross-Origin-Resource-Policy")!: "same-origin",
    ]

    /// The same headers as HTTP/1.1 header lines, each ending in CRLF.
    static let lines = fields.map { "\($0.name.rawName): \($0.value)\r\n" }.joined()

    /// Adds the headers to every answer of the router, refusals included; first of all middleware.
    struct Middleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var response: Response
            do {
                response = try await next(request, context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
            for field in ServedHeaders.fields { response.headers[field.name] = field.value }
            return response
        }
    }
}
