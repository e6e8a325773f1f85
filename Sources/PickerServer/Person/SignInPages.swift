import HTTPTypes
import Hummingbird

/// The plain pages of the person's sign-in: no script, no data of the library, no hint of what
/// the path that led there names.
enum SignInPages {
    /// Answered for every picker page asked without the person's sign-in (401).
    static var required: Response {
        page(status: .unauthorized, title: "Sign in to pick", body: """
            <h1>Sign in to pick</h1>
            <p>This picker belongs to the library's owner. Open the newest sign-in link that
            <code>assets-picker serve</code> printed in its terminal, in this browser; it works once
            and brings you back here.</p>
            """, extraHeaders: [.wwwAuthenticate: #"SignInLink realm="assets-picker""#])
    }

    /// The link worked: this browser is signed in. With `next`, the browser goes on there (a
    /// same-site navigation, so the new `SameSite=Strict` cookie goes with it).
    static func signedIn(next: String?) -> Response {
        let refresh = next.map { #"<meta http-equiv="refresh" content="0;url=\#($0)">"# } ?? ""
        let link = next.map { #"<p><a href="\#($0)">Continue to \#($0 == DemoClientRoutes.pagePath ? "the demo client" : "the picker")</a></p>"# }
            ?? "<p>Open a picker link (a session's <code>pickerUri</code>) in this browser to pick.</p>"
        return page(status: .ok, title: "Signed in", head: refresh, body: "<h1>Signed in</h1>\n<p>This browser is signed in as the library's owner.</p>\n\(link)")
    }

    /// The link was used already, expired or never was one (401).
    static var linkRefused: Response {
        page(status: .unauthorized, title: "Sign-in link not valid", body: """
            <h1>This sign-in link is not valid</h1>
            <p>Each link works once, and only for a while. Open the newest one that
            <code>assets-picker serve</code> printed in its terminal.</p>
            """)
    }

    /// Too many sign-in links refused lately, from this address or from all (429): nothing was
    /// looked at; the person waits `retryAfter` seconds.
    static func throttled(retryAfter: Int) -> Response {
        page(status: .tooManyRequests, title: "Too many sign-in attempts", body: """
            <h1>Too many sign-in attempts</h1>
            <p>Too many sign-in links were refused lately. Wait a minute, then open the newest link that
            <code>assets-picker serve</code> printed in its terminal.</p>
            """, extraHeaders: [.retryAfter: String(retryAfter)])
    }

    private static func page(status: HTTPResponse.Status, title: String, head: String = "", body: String,
                             extraHeaders: HTTPFields = [:]) -> Response {
        let html = """
            <!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <meta name="referrer" content="no-referrer">\(head)<title>\(title)</title>
            <body style="font-family: system-ui, sans-serif; padding: 3rem; max-width: 40rem"><main>
            \(body)
            </main></body></html>
            """
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                   .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"]
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers.append(contentsOf: extraHeaders)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
