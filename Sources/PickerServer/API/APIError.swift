import Foundation
import HTTPTypes
import Hummingbird

/// An error answered as JSON: `{"error": {"status": 400, "code": "badParameter", "message": "…"}}`.
struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    let status: HTTPResponse.Status
    /// A stable, machine-readable name for the kind of error.
    let code: String
    /// What went wrong and what to do, for a person.
    let message: String
    var headers: HTTPFields = [:]

    /// An error answered with `status`; absolute paths in `message` are cut to file names.
    init(_ status: HTTPResponse.Status, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = PathFreeMessage.of(message)
    }

    var description: String { "\(status.code) \(code): \(message)" }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = ErrorBody(error: .init(status: status.code, code: code, message: message))
        var response = try JSONResponse.make(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
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
}
