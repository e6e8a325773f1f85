import Foundation
import HTTPTypes
import Hummingbird

/// An error answered as JSON. The client API (`/v1/…`) and the demo client's mirror of it
/// (`/demo/v1/…`) answer in the Google Photos Picker API's form,
/// `{"error": {"code": 400, "message": "…", "status": "INVALID_ARGUMENT"}}`; the picker page's API
/// keeps its own, `{"error": {"status": 400, "code": "badParameter", "message": "…"}}`.
struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    let status: HTTPResponse.Status
    /// A stable, machine-readable name for the kind of error.
    let code: String
    /// What went wrong and what to do, for a person.
    let message: String
    var headers: HTTPFields = [:]
    /// The Google API status name (`FAILED_PRECONDITION`, …) when the HTTP status alone does not say it.
    var googleStatus: String?

    /// An error answered with `status`; absolute paths in `message` are cut to file names.
    init(_ status: HTTPResponse.Status, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = PathFreeMessage.of(message)
    }

    var description: String { "\(status.code) \(code): \(message)" }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = RouteArea.answersAsClientAPI(Substring(request.uri.path))
            ? try JSONResponse.make(GoogleErrorBody(error: .init(code: status.code, message: message, status: googleStatusName)), status: status)
            : try JSONResponse.make(ErrorBody(error: .init(status: status.code, code: code, message: message)), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    /// The status name a Google API gives this error (the canonical names of `google.rpc.Code`).
    var googleStatusName: String {
        if let googleStatus { return googleStatus }
        switch status.code {
        case 400: return "INVALID_ARGUMENT"
        case 401: return "UNAUTHENTICATED"
        case 403: return "PERMISSION_DENIED"
        case 404, 410: return "NOT_FOUND"
        case 405, 501: return "UNIMPLEMENTED"
        case 409: return "ABORTED"
        case 413, 429: return "RESOURCE_EXHAUSTED"
        case 416: return "OUT_OF_RANGE"
        case 422: return "FAILED_PRECONDITION"
        case 503: return "UNAVAILABLE"
        default: return "INTERNAL"
        }
    }

    /// 400 `FAILED_PRECONDITION`: the request is well formed but the resource is not in a state to take it.
    static func failedPrecondition(_ message: String) -> APIError {
        var error = APIError(.badRequest, code: "failedPrecondition", message)
        error.googleStatus = "FAILED_PRECONDITION"
        return error
    }

    /// 400: a parameter is missing, malformed or out of range.
    static func badParameter(_ message: String) -> APIError { APIError(.badRequest, code: "badParameter", message) }

    /// 404: the same answer for every identifier the caller may not see, whatever the reason.
    static let notFound = APIError(.notFound, code: "notFound", "There is no such resource.")

    /// 401: no client key, or a wrong one.
    static var unauthorized: APIError {
        var error = APIError(.unauthorized, code: "unauthorized", "Send the server's client key as 'Authorization: Bearer <key>'.")
        error.headers[.wwwAuthenticate] = #"Bearer realm="assets-picker""#
        return error
    }

    /// 401: a picker path asked without the person's sign-in; says nothing of what the path names.
    static var signInRequired: APIError {
        var error = APIError(.unauthorized, code: "signInRequired",
                             "Only the library's owner can use the picker: open the sign-in link that 'assets-picker serve' printed, in this browser.")
        error.headers[.wwwAuthenticate] = #"SignInLink realm="assets-picker""#
        return error
    }

    /// 403: a request that changes something, sent from another site's page (or with no `Origin`).
    static let crossOrigin = APIError(.forbidden, code: "crossOrigin",
                                      "The picker takes changes only from its own pages (the request's Origin is not this server).")

    /// 503: the session store (a database shared by the servers) cannot be reached; says nothing
    /// of why, and when to try again.
    static var sessionsUnavailable: APIError {
        var error = APIError(.serviceUnavailable, code: "sessionsUnavailable",
                             "The picker's sessions cannot be reached right now; try again in a few seconds.")
        error.headers[.retryAfter] = "2"
        return error
    }

    /// 410: the picker page of a session that has ended.
    static let gone = APIError(.gone, code: "sessionEnded", "This picker session has ended.")

    private struct ErrorBody: Encodable {
        struct Detail: Encodable {
            let status: Int
            let code: String
            let message: String
        }
        let error: Detail
    }

    private struct GoogleErrorBody: Encodable {
        struct Detail: Encodable {
            let code: Int
            let message: String
            let status: String
        }
        let error: Detail
    }
}
