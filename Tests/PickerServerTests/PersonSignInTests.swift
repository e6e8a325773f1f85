import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerClient
import PickerServer
import PickerSessions
import Testing
import TestSupport

/// Two principals: the client holds the client key, the person signs in to the picker. The
/// client, with its key and a `pickerUri`, reaches nothing of the library.
@Suite struct PersonSignInTests {
    /// Every route of the picker page (method, path under the picker URI), with a body where it takes one.
    private static func pickerRoutes(asset: String) -> [(method: String, path: String, body: Data?)] {
        let json = { (object: Any) in try? JSONSerialization.data(withJSONObject: object) }
        return [
            ("GET", "", nil), ("GET", "api/session", nil), ("GET", "api/albums", nil),
            ("GET", "api/albums/smart%3Aall/assets?limit=500", nil), ("GET", "api/albums/smart%3Arecently-deleted/assets", nil),
            ("GET", "api/assets/\(asset)/image?w=64&h=64&mode=fill", nil), ("GET", "api/assets/\(asset)/original", nil),
            ("POST", "api/assets/\(asset)/fetch", nil),
            ("POST", "api/prefetch", json(["ids": [asset], "w": 64, "h": 64])), ("POST", "api/selection/\(asset)", nil),
            ("DELETE", "api/selection/\(asset)", nil), ("PUT", "api/selection", json(["ids": [asset]])),
            ("POST", "api/done", nil), ("POST", "api/cancel", nil), ("GET", "api/events", nil),
            ("POST", "api/upload?filename=a.jpg", Data([0xFF, 0xD8, 0xFF])), ("POST", "api/albums", json(["title": "Mine"])),
            ("GET", "api/no/such/route", nil),
        ]
    }

    @Test func theClientKeyAndThePickerUriAloneReachNothingOfTheLibrary() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession(PickerSessionOptions(maxItemCount: 3))
        let person = server.picker(session)
        let asset = try #require(try await person.cameraRollIDs(media: "photo").first)
        // The person warmed the thumbnail, so that the event-loop fast path would have it at hand.
        #expect(try await person.get("assets/\(asset)/image?w=64&h=64&mode=fill").status == 200)
        let madeUp = "/picker/\(UUID().uuidString)/AAAAAAAAAAAAAAAAAAAAAA/"

        for route in Self.pickerRoutes(asset: asset) {
            let name = "\(route.method) \(route.path)"
            // The client, with its key, an Origin of this server and the live pickerUri; and anyone with a made-up one.
            let asClient = try await server.request(route.method, session.pickerPath + route.path,
                                                    headers: ["Origin": server.baseURL.absoluteString, "Content-Type": "application/json"],
                                                    body: route.body)
            let asStranger = try await server.request(route.method, madeUp + route.path, body: route.body, authorized: false)
            #expect(asClient.status == 401, "\(name)")
            #expect(asClient.header("Set-Cookie") == nil, "\(name)")
            // One refusal, the same whether the path names a live session or nothing.
            #expect(asClient.body == asStranger.body, "\(name)")
            #expect(asClient.status == asStranger.status, "\(name)")
            let text = String(decoding: asClient.body, as: UTF8.self)
            for secret in [asset, session.id, "camera", "DCIM", "Trips", server.root.path] {
                #expect(!text.localizedCaseInsensitiveContains(secret), "\(name) mentions \(secret)")
            }
            if route.path.isEmpty {
                #expect(asClient.header("Content-Type")?.hasPrefix("text/html") == true)
                #expect(text.contains("Sign in"))
            } else if route.method != "HEAD" {
                #expect((asClient.json["error"] as? [String: Any])?["code"] as? String == "signInRequired", "\(name)")
            }
        }
        // Nothing the client sent changed the session: still picking, nothing picked, no album made.
        let state = try await person.get("session").json
        #expect(state["state"] as? String == "picking")
        #expect((state["selection"] as? [String: Any])?["count"] as? Int == 0)
        let albums = try await person.get("albums").json["albums"] as? [[String: Any]] ?? []
        #expect(!albums.contains { $0["title"] as? String == "Mine" })
    }

    @Test func thePrintedLinkSignsTheBrowserInOnceAndGoesOnToThePicker() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let link = PickerServer.signInPath(link: try await server.server.signIn.makeLink(), next: session.pickerPath)
        // A link preview (HEAD) uses nothing up.
        #expect(try await server.request("HEAD", link, authorized: false).header("Set-Cookie") == nil)
        let opened = try await server.request("GET", link, authorized: false)
        #expect(opened.status == 200)
        let setCookie = try #require(opened.header("Set-Cookie"))
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age="] {
            #expect(setCookie.contains(attribute), "\(setCookie)")
        }
        #expect(String(decoding: opened.body, as: UTF8.self).contains(#"url=\#(session.pickerPath)""#))
        let cookie = try #require(TestServer.cookie(from: opened))
        #expect(try await server.request("GET", session.pickerPath, headers: ["Cookie": cookie], authorized: false).status == 200)

        let again = try await server.request("GET", link, authorized: false)
        #expect(again.status == 401)
        #expect(again.header("Set-Cookie") == nil)
        // Only picker pages are gone on to: any other `next` is dropped.
        let other = try await server.server.signIn.makeLink()
        let elsewhere = try await server.request("GET", "/signin/\(other)?next=//evil.example/", authorized: false)
        #expect(elsewhere.status == 200)
        #expect(!String(decoding: elsewhere.body, as: UTF8.self).contains("evil"))
        #expect(try await server.request("GET", "/signin/made.up", authorized: false).status == 401)
    }

    @Test func linksAndSignedInBrowsersExpire() async throws {
        let clock = TestClock()
        let signIn = PersonSignIn(linkLifetime: .seconds(60), browserLifetime: .seconds(600), now: { clock.now })
        let server = try await TestServer.indexed(signIn: signIn)
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let link = PickerServer.signInPath(link: try await signIn.makeLink())
        clock.advance(61)
        let late = try await server.request("GET", link, authorized: false)
        #expect(late.status == 401)
        #expect(late.header("Set-Cookie") == nil)
        // The browser the test server signed in at its start is still in, until its lifetime is over.
        #expect(try await server.request("GET", session.pickerPath, authorized: false, asPerson: true).status == 200)
        clock.advance(600)
        #expect(try await server.request("GET", session.pickerPath, authorized: false, asPerson: true).status == 401)
        #expect(try await server.request("GET", session.pickerPath + "api/albums", authorized: false, asPerson: true).status == 401)
    }

    @Test func aRestartSignsEveryBrowserOut() async throws {
        let first = try await TestServer.indexed()
        let cookie = first.personCookie
        #expect(try await first.request("GET", try await first.client.createSession().pickerPath, authorized: false, asPerson: true).status == 200)
        await first.stop()
        // The same address again, a new run: the first run's cookie (same name, same port) opens nothing.
        let second = try await TestServer.indexed(port: try #require(first.baseURL.port))
        defer { Task { await second.stop() } }
        let session = try await second.client.createSession()
        #expect(cookie.split(separator: "=").first == second.personCookie.split(separator: "=").first)
        let answer = try await second.request("GET", session.pickerPath + "api/session", headers: ["Cookie": cookie], authorized: false)
        #expect(answer.status == 401)
        #expect(try await second.request("GET", session.pickerPath + "api/session", authorized: false, asPerson: true).status == 200)
    }

    @Test func aPickerPageOpenedWithoutSignInShowsTheOperatorOneNewLink() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        #expect(try await server.request("GET", session.pickerPath + "api/albums", authorized: false).status == 401)
        #expect(server.shownSignInLinks.all.isEmpty) // the API shows no link; only a page does
        #expect(try await server.request("GET", session.pickerPath, authorized: false).status == 401)
        #expect(try await server.request("GET", session.pickerPath, authorized: false).status == 401)
        let shown = server.shownSignInLinks.all
        try #require(shown.count == 1) // one live link at a time, however often the page is opened
        #expect(shown[0].hasPrefix(server.baseURL.absoluteString + "/signin/"))
        #expect(shown[0].hasSuffix("?next=\(session.pickerPath)"))
        let opened = try await server.request("GET", String(shown[0].dropFirst(server.baseURL.absoluteString.count)), authorized: false)
        let cookie = try #require(TestServer.cookie(from: opened))
        #expect(try await server.request("GET", session.pickerPath, headers: ["Cookie": cookie], authorized: false).status == 200)
    }

    @Test func guessedSignInLinksAreThrottled() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let link = try await server.server.signIn.makeLink()
        let id = try #require(link.split(separator: ".").first)
        for _ in 0..<10 {
            #expect(try await server.request("GET", "/signin/\(id).AAAAAAAAAAAAAAAAAAAAAA", authorized: false).status == 401)
        }
        let throttled = try await server.request("GET", PickerServer.signInPath(link: link), authorized: false)
        #expect(throttled.status == 429)
        #expect(throttled.header("Retry-After") != nil)
        #expect(throttled.header("Set-Cookie") == nil)
    }

    @Test func forwardedAddressesFromAPeerThatIsNoTrustedProxyAreNotBelieved() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let link = try await server.server.signIn.makeLink()
        let id = try #require(link.split(separator: ".").first)
        for guess in 0..<10 {
            let forwarded = ["X-Forwarded-For": "203.0.113.\(guess)", "X-Real-IP": "203.0.113.\(guess)"]
            #expect(try await server.request("GET", "/signin/\(id).AAAAAAAAAAAAAAAAAAAAAA", headers: forwarded, authorized: false).status == 401)
        }
        let another = ["X-Forwarded-For": "198.51.100.2"]
        #expect(try await server.request("GET", PickerServer.signInPath(link: link), headers: another, authorized: false).status == 429)
    }

    /// Behind nginx every request comes from the proxy's address: counted by that, ten guesses
    /// from anyone locked everyone out of signing in (found by an outside attack).
    @Test func behindATrustedProxyEachForwardedAddressHasItsOwnRefusals() async throws {
        var limits = PickerServerLimits.forTests
        limits.trustedProxies = ["127.0.0.1"]
        let server = try await TestServer.indexed(limits: limits)
        defer { Task { await server.stop() } }
        let link = try await server.server.signIn.makeLink()
        let id = try #require(link.split(separator: ".").first)
        // X-Forwarded-For is the client's to write: only X-Real-IP, which the proxy sets, is read.
        for guess in 0..<10 {
            let forwarded = ["X-Forwarded-For": "198.51.100.\(guess)", "X-Real-IP": "203.0.113.9"]
            #expect(try await server.request("GET", "/signin/\(id).AAAAAAAAAAAAAAAAAAAAAA", headers: forwarded, authorized: false).status == 401)
        }
        let guesser = ["X-Real-IP": "203.0.113.9"]
        #expect(try await server.request("GET", "/signin/\(id).AAAAAAAAAAAAAAAAAAAAAA", headers: guesser, authorized: false).status == 429)
        let person = ["X-Real-IP": "198.51.100.2"]
        let opened = try await server.request("GET", PickerServer.signInPath(link: link), headers: person, authorized: false)
        #expect(opened.status == 200)
        #expect(TestServer.cookie(from: opened) != nil)
    }

    /// A site on another port of the host can set a cookie of the person's name; the browser
    /// then sends it first, beside the person's (found by an outside attack).
    @Test func aCookieOfThePersonsNameSetElsewhereDoesNotSignThePersonOut() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let signedIn = server.personCookie
        let name = try #require(signedIn.split(separator: "=").first)
        for cookie in ["\(name)=x.y; \(signedIn)", "\(name)=AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA; \(signedIn)"] {
            #expect(try await server.request("GET", session.pickerPath + "api/session", headers: ["Cookie": cookie], authorized: false).status == 200)
        }
        // Only the signed-in one counts: bogus cookies alone are still refused.
        let bogus = "\(name)=x.y; \(name)=z.w"
        #expect(try await server.request("GET", session.pickerPath + "api/session", headers: ["Cookie": bogus], authorized: false).status == 401)
    }

    @Test func changesFromAnotherOriginAreRefused() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let asset = try #require(try await person.cameraRollIDs().first)
        let path = session.pickerPath + "api/selection/\(asset)"
        for headers in [["Origin": "http://evil.example"], ["Origin": "null"], ["Origin": "http://127.0.0.1:1"],
                        ["Origin": server.baseURL.absoluteString, "Sec-Fetch-Site": "cross-site"], ["Origin": server.baseURL.absoluteString, "Sec-Fetch-Site": "same-site"]] {
            let answer = try await server.request("POST", path, headers: headers, authorized: false, asPerson: true)
            #expect(answer.status == 403, "\(headers)")
            #expect((answer.json["error"] as? [String: Any])?["code"] as? String == "crossOrigin")
        }
        // Without any Origin, too (browsers send one with every such request).
        let noOrigin = try await server.request("POST", session.pickerPath + "api/done", headers: ["Origin": ""], authorized: false, asPerson: true)
        #expect(noOrigin.status == 403)
        #expect((try await person.get("session").json["selection"] as? [String: Any])?["count"] as? Int == 0)
        // A Host and Origin that agree but name another site (a DNS name pointed at this server) are not this server's.
        let port = try #require(server.baseURL.port)
        for host in ["evil.example:\(port)", "evil.example", "127.0.0.1.evil.example:\(port)", "localhost.evil.example:\(port)"] {
            let (answers, _) = await RawHTTPExchange.exchange(port: port, method: "POST", host: host, [
                (path, ["Cookie: \(server.personCookie)", "Origin: http://\(host)", "Sec-Fetch-Site: same-origin"]),
            ])
            #expect(answers.first?.status == 403, "Host \(host)")
        }
        // The right host under the other scheme is another origin: the server speaks http itself (F5 of the outside attack).
        for host in ["127.0.0.1:\(port)", "localhost:\(port)"] {
            let (answers, _) = await RawHTTPExchange.exchange(port: port, method: "POST", host: host, [
                (path, ["Cookie: \(server.personCookie)", "Origin: https://\(host)", "Sec-Fetch-Site: same-origin"]),
            ])
            #expect(answers.first?.status == 403, "Origin https://\(host)")
        }
        #expect((try await person.get("session").json["selection"] as? [String: Any])?["count"] as? Int == 0)
        // The page's own request goes through, also when the page was opened as localhost or [::1]-style names of this server.
        for host in ["localhost:\(port)", "picker.localhost:\(port)"] {
            let (answers, _) = await RawHTTPExchange.exchange(port: port, method: "DELETE", host: host, [
                (path, ["Cookie: \(server.personCookie)", "Origin: http://\(host)", "Sec-Fetch-Site: same-origin"]),
            ])
            #expect(answers.first?.status == 200, "Host \(host)")
        }
        let own = try await server.request("POST", path, headers: ["Sec-Fetch-Site": "same-origin"], authorized: false, asPerson: true)
        #expect(own.status == 200)
    }
}
