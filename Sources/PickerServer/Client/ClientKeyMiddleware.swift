import Hummingbird
import PickerSessions

/// Lets through only requests that carry the server's client key as `Authorization: Bearer <key>`
/// (compared in constant time); every other request is answered 401.
struct ClientKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let clientKey: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.count > 7,
              header.prefix(7).lowercased() == "bearer ",
              SecretToken.matches(header.dropFirst(7), clientKey) else {
            throw APIError.unauthorized
        }
        return try await next(request, context)
    }
}
