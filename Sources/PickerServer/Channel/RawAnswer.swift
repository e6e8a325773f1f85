/// The answers a connection gets below HTTP, as fixed bytes, when no request of it can reach
/// the router: one JSON line in the picker API's error form, `Connection: close`, and the headers
/// every answer of the server carries (``ServedHeaders``).
enum RawAnswer {
    /// 408: a request's head did not arrive whole within the header timeout (``RequestDeadline``).
    static let headerTimeout = bytes(status: "408 Request Timeout", code: "headerTimeout", "The request's headers took too long to arrive.")
    /// 408: a request's body paused, or came too slowly, while the server waited for it (``RequestDeadline``).
    static let bodyTimeout = bytes(status: "408 Request Timeout", code: "bodyTimeout",
                                   "The request's body stopped arriving, or came too slowly; send it whole and without pauses.")
    /// 400: what arrived is not HTTP/1.1 the server takes (a bad request line or header, a
    /// `Content-Length` with `Transfer-Encoding`, a broken chunk).
    static let malformed = bytes(status: "400 Bad Request", code: "malformedRequest",
                                 "The request is not valid HTTP/1.1 (its request line, headers or body framing).")

    /// An answer with `status` (code and reason phrase) whose JSON error says `code` and `message`.
    static func bytes(status: String, code: String, _ message: String, headers: String = "") -> String {
        let body = #"{"error":{"status":\#(status.prefix(3)),"code":"\#(code)","message":"\#(message)"}}"#
        return "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nConnection: close\r\n\(ServedHeaders.lines)\(headers)"
            + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }
}
