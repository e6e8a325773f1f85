import HTTPTypes
import Hummingbird

/// The methods each resource of the client API takes (as `openapi.json` lists them), so that
/// any other method on one of them is answered 405 with an `Allow` header rather than as an
/// unknown path; the demo client's mirror of it (`/demo/v1/…`) answers alike. `HEAD` is taken
/// where `GET` is, and refused where it is not, as `GET` is.
enum ClientMethods {
    /// The methods the resource at `path` takes, or `nil` when `path` is not a client API resource.
    static func allowed(at path: String) -> [HTTPRequest.Method]? {
        // Most requests are the picker page's: tell them apart before splitting.
        guard path.hasPrefix("/v1/") || path.hasPrefix("/demo/v1/") || path.hasPrefix("/openapi.json") else { return nil }
        var parts = path.split(separator: "/", omittingEmptySubsequences: true)[...]
        if parts == ["openapi.json"] { return [.get] }
        if parts.first == "demo" { parts = parts.dropFirst() }
        guard parts.count >= 2, parts.first == "v1" else { return nil }
        switch (parts[parts.startIndex + 1], parts.count) {
        case ("sessions", 2): return [.post]
        case ("sessions", 3): return [.get, .delete]
        case ("mediaItems", 2): return [.get]
        case ("media", 5): return [.get]
        default: return nil
        }
    }

    /// Answers 405 to a request whose method the client API resource it names does not take;
    /// lets everything else through.
    struct Middleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            // HEAD is GET without the body: the router answers it where GET is taken (`.autoGenerateHeadEndpoints`).
            let method = request.method == .head ? .get : request.method
            if let allowed = ClientMethods.allowed(at: request.uri.path), !allowed.contains(method) {
                var error = APIError(.methodNotAllowed, code: "methodNotAllowed",
                                     "\(request.method.rawValue) is not a method of this resource; it takes \(allowed.map(\.rawValue).joined(separator: ", ")).")
                error.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
                throw error
            }
            return try await next(request, context)
        }
    }
}
