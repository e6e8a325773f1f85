import AssetsKit
import Hummingbird
import Logging
import PickerSessions

/// Turns what routes throw into JSON answers: ``APIError``s as they are, a library's "not
/// found" as the one 404 every unknown identifier gets, a session store or a library's database
/// out of reach as 503 with `Retry-After` (`SessionStoreFailure`, `RetryableFailure`), and
/// anything unforeseen as a 500 that is logged (its details stay in the log).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // An unknown path looks exactly like an unknown identifier.
            throw APIError.notFound
        } catch let error as HTTPError {
            // Hummingbird's own errors, answered in the APIs' form and without paths.
            var answer = APIError(error.status, code: "http", error.body ?? error.status.reasonPhrase)
            answer.headers = error.headers
            throw answer
        } catch let error as any HTTPResponseError {
            throw error
        } catch let error as LibraryError {
            switch error {
            case .assetNotFound, .collectionNotFound, .collectionNeedsIndex, .invalidIdentifier, .originalUnavailable:
                throw APIError.notFound
            default:
                context.logger.error("library error", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
                throw APIError(.unprocessableContent, code: "libraryError", error.description)
            }
        } catch let error as SessionStoreFailure {
            // The shared session store is out of reach: try again shortly; what failed goes to the log only.
            context.logger.error("session store unavailable", metadata: ["error": "\(error.reason)", "path": "\(request.uri.path)"])
            throw APIError.sessionsUnavailable
        } catch let error as any RetryableFailure where error.retryAfterSeconds != nil {
            // The library's database restarting: nothing is missing, the client tries again.
            context.logger.warning("database unavailable", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            var answer = APIError(.serviceUnavailable, code: "unavailable", "The library's database cannot answer now; try again in a moment.")
            answer.headers[.retryAfter] = String(error.retryAfterSeconds ?? 1)
            throw answer
        } catch is CancellationError {
            throw APIError(.serviceUnavailable, code: "cancelled", "The server is stopping.")
        } catch {
            context.logger.error("unexpected error", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            throw APIError(.internalServerError, code: "internal", "The server failed to answer; the details are in its log.")
        }
    }
}
