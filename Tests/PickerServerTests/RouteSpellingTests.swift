import Foundation
import PickerClient
import Testing
import TestSupport

/// Every spelling of a route is decided as its canonical form or refused: no repeated or
/// trailing slash, dot segment, percent-encoding, change of case or trailing `?`/`#` lets a
/// principal reach what the canonical path would not let it reach.
@Suite struct RouteSpellingTests {
    /// The spellings of `target` (a path with an optional query) that a client could send.
    static func spellings(of target: String) -> [String] {
        let (path, query) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[$0...])) } ?? (target, "")
        let parts = path.split(separator: "/").map(String.init)
        func joined(_ parts: [String]) -> String { "/" + parts.joined(separator: "/") }
        var paths = ["/" + path, "//" + path, "///" + path.dropFirst(), path + "/", "/." + path, "/x/.." + path, "/%2E" + path,
                     "/%2e%2e" + path, joined(parts).replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "%2F", with: "/", options: .anchored)]
        for index in parts.indices {
            var doubled = parts, dotted = parts, undone = parts
            doubled[index] += "/"
            dotted[index] += "/."
            undone[index] += "/../" + parts[index]
            paths += [joined(doubled), joined(dotted), joined(undone)]
            if index + 1 < parts.count { paths.append(joined(parts[..<index] + [parts[index] + "%2F" + parts[index + 1]] + parts[(index + 2)...])) }
        }
        if let first = parts.first, let letter = first.unicodeScalars.first {
            let rest = parts.dropFirst().joined(separator: "/")
            paths += ["/" + first.uppercased() + "/" + rest, "/" + first.capitalized + "/" + rest,
                      "/%" + String(letter.value, radix: 16, uppercase: true) + first.dropFirst() + "/" + rest]
        }
        var targets = paths.filter { $0 != target && $0 != path }.map { $0 + query }
        targets += [path + query + "#fragment", path + (query.isEmpty ? "?" : query + "&"), path + "#" + query, path + "?#"]
        return targets
    }

    /// The picker page's routes (method, path under the picker URI).
    private static func pickerRoutes(asset: String) -> [(method: String, path: String)] {
        [("GET", ""), ("GET", "autoclose"), ("GET", "api/session"), ("GET", "api/albums"), ("GET", "api/albums/smart%3Aall/assets?limit=5"),
         ("GET", "api/assets/\(asset)/image?w=64&h=64&mode=fill"), ("GET", "api/assets/\(asset)/original"),
         ("POST", "api/assets/\(asset)/fetch"), ("POST", "api/prefetch"),
         ("POST", "api/thumbnails"), ("POST", "api/selection/\(asset)"), ("DELETE", "api/selection/\(asset)"),
         ("PUT", "api/selection"), ("POST", "api/done"), ("POST", "api/cancel"), ("POST", "api/upload?filename=a.jpg"), ("POST", "api/albums")]
    }

    /// Statuses that refuse: nothing of the library is in them.
    private static let refusals: Set<Int> = [400, 401, 403, 404, 405, 410]

    @Test func noSpellingOfAPickerRouteLetsTheClientOrAStrangerIn() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession(PickerSessionOptions(maxItemCount: 3))
        let person = server.picker(session)
        let asset = try #require(try await person.cameraRollIDs(media: "photo").first)
        #expect(try await person.get("assets/\(asset)/image?w=64&h=64&mode=fill").status == 200)
        let origin = "Origin: \(server.baseURL.absoluteString.dropLast(server.baseURL.absoluteString.hasSuffix("/") ? 1 : 0))"
        for route in Self.pickerRoutes(asset: asset) {
            for target in Self.spellings(of: session.pickerPath + route.path) {
                for headers in [["Authorization: Bearer \(server.clientKey)", origin], []] {
                    let answer = try #require(await RawHTTPExchange.exchange(port: server.baseURL.port!, method: route.method, body: route.method == "GET" ? "" : "{}",
                                                                             [(target, headers)]).responses.first, "\(route.method) \(target)")
                    #expect(Self.refusals.contains(answer.status), "\(route.method) \(target) answered \(answer.status) with \(headers.count) headers")
                    let text = String(decoding: answer.body, as: UTF8.self)
                    for secret in [asset, "camera", "DCIM", "Trips"] {
                        #expect(!text.localizedCaseInsensitiveContains(secret), "\(route.method) \(target) mentions \(secret)")
                    }
                }
            }
        }
        let state = try await person.get("session").json
        #expect(state["state"] as? String == "picking")
        #expect((state["selection"] as? [String: Any])?["count"] as? Int == 0)
    }

    @Test func noSpellingOfAClientRouteLetsThePersonOrAStrangerIn() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession(PickerSessionOptions(maxItemCount: 3))
        let asset = try #require(try await server.picker(session).cameraRollIDs(media: "photo").first)
        try await server.picker(session).pick([asset])
        let media = try await server.mediaPath(session: session.id, item: asset)
        let routes = [("POST", "/v1/sessions"), ("GET", "/v1/sessions/\(session.id)"), ("GET", "/v1/mediaItems?sessionId=\(session.id)"),
                      ("GET", media + "=w64-h64"), ("GET", media + "=d"), ("DELETE", "/v1/sessions/\(session.id)")]
        let cookie = "Cookie: \(server.personCookie)"
        for (method, path) in routes {
            for target in [path] + Self.spellings(of: path) {
                for headers in [[cookie, "Origin: \(server.baseURL.absoluteString)"], []] {
                    let answer = try #require(await RawHTTPExchange.exchange(port: server.baseURL.port!, method: method, [(target, headers)]).responses.first,
                                              "\(method) \(target)")
                    #expect(Self.refusals.contains(answer.status), "\(method) \(target) answered \(answer.status) with \(headers.count) headers")
                    #expect(!String(decoding: answer.body, as: UTF8.self).contains(asset), "\(method) \(target)")
                }
            }
        }
        #expect(try await server.client.session(session.id).mediaItemsSet)
    }

    @Test func noSpellingOfADemoClientRouteLetsTheClientOrAStrangerIn() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let own = try await server.server.makeOwnSession()
        let person = PersonAtPicker(server: server, apiPath: "/picker/\(own.id)/\(own.pickerToken)/api/")
        let asset = try #require(try await person.cameraRollIDs(media: "photo").first)
        try await person.pick([asset])
        let media = try await server.mediaPath(session: own.id, item: asset)
        let routes = [("GET", "/demo/"), ("POST", "/demo/v1/sessions"), ("GET", "/demo/v1/sessions/\(own.id)"),
                      ("GET", "/demo/v1/mediaItems?sessionId=\(own.id)"), ("GET", "/demo" + media + "=w64-h64"),
                      ("GET", "/demo" + media + "=d"), ("DELETE", "/demo/v1/sessions/\(own.id)")]
        #expect(try await server.request("GET", "/demo" + media + "=w64-h64", authorized: false, asPerson: true).status == 200)
        let origin = "Origin: \(server.baseURL.absoluteString)"
        for (method, path) in routes {
            for target in [path] + Self.spellings(of: path) {
                for headers in [["Authorization: Bearer \(server.clientKey)", origin], []] {
                    let answer = try #require(await RawHTTPExchange.exchange(port: server.baseURL.port!, method: method, body: method == "GET" ? "" : "{}",
                                                                             [(target, headers)]).responses.first, "\(method) \(target)")
                    #expect(Self.refusals.contains(answer.status), "\(method) \(target) answered \(answer.status) with \(headers.count) headers")
                    #expect(!String(decoding: answer.body, as: UTF8.self).contains(asset), "\(method) \(target)")
                }
            }
        }
        #expect(server.sessionCount == 1)
        #expect(try await server.client.session(own.id).mediaItemsSet)
    }

    @Test func theSpellingsThePersonSendsAreDecidedAsTheirCanonicalForm() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession(PickerSessionOptions(maxItemCount: 3))
        let person = server.picker(session)
        let asset = try #require(try await person.cameraRollIDs(media: "photo").first)
        let cookie = "Cookie: \(server.personCookie)"
        for route in Self.pickerRoutes(asset: asset) where route.method == "GET" {
            let path = session.pickerPath + route.path
            let canonical = try #require(await RawHTTPExchange.exchange(port: server.baseURL.port!, [(path, [cookie])]).responses.first)
            for target in Self.spellings(of: path) {
                let answer = try #require(await RawHTTPExchange.exchange(port: server.baseURL.port!, [(target, [cookie])]).responses.first, "\(target)")
                // A page is served at its canonical path only: another spelling is sent to the path the
                // router reads in it, which is the page's (or, for a spelling that reads as another
                // session, one unknown).
                if answer.status == 308, let location = answer.header("Location") {
                    let followed = try #require(await RawHTTPExchange.exchange(port: server.baseURL.port!, [(location, [cookie])]).responses.first)
                    #expect(location == path || followed.status == 404, "\(target) sent to \(location): \(followed.status)")
                    continue
                }
                #expect(answer.status == canonical.status || [400, 404].contains(answer.status), "\(target): \(answer.status), canonically \(canonical.status)")
            }
        }
    }

    /// The outside attack's F4: `//demo/` and `//picker/S/T/` served the pages, whose scripts then
    /// built `new URL("//demo/", …)`, a URL of the host `demo`.
    @Test func thePersonsPagesAreServedAtTheirCanonicalPathsOnlyAndOtherSpellingsSentThere() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let picker = session.pickerPath, inside = String(picker.dropFirst("/picker/".count).dropLast())
        let port = server.baseURL.port!, cookie = "Cookie: \(server.personCookie)"
        let spellings: [(target: String, canonical: String)] = [
            ("//demo/", "/demo/"), ("//demo/?session=abc", "/demo/?session=abc"), ("/demo//", "/demo/"), ("///demo", "/demo/"),
            ("//picker/\(inside)/", picker), ("/picker//\(inside)/", picker), ("/picker/\(inside)//", picker),
            ("//picker/\(inside)/?x=1", picker + "?x=1"),
        ]
        for (target, canonical) in spellings {
            let answer = try #require(await RawHTTPExchange.exchange(port: port, [(target, [cookie])]).responses.first, "\(target)")
            #expect(answer.status == 308 && answer.header("Location") == canonical, "\(target): \(answer.status) \(answer.header("Location") ?? "")")
            #expect(answer.body.isEmpty, "\(target)")
            // Without the sign-in, or with the client key, it is the sign-in page as at the canonical path: no script in it.
            for headers in [[], ["Authorization: Bearer \(server.clientKey)"]] {
                let stranger = try #require(await RawHTTPExchange.exchange(port: port, [(target, headers)]).responses.first)
                #expect(stranger.status == 401, "\(target)")
                #expect(!String(decoding: stranger.body, as: UTF8.self).contains("<script"), "\(target)")
            }
        }
        // Without the trailing slash a page is itself (its scripts add it; URLSession drops it following a redirect).
        for page in ["/demo/", picker, "/demo/?session=abc", "/demo", String(picker.dropLast())] {
            let answer = try #require(await RawHTTPExchange.exchange(port: port, [(page, [cookie])]).responses.first)
            #expect(answer.status == 200, "\(page)")
        }
        // What changes something is never redirected: the page's API is decided on its canonical form, as before.
        let post = try #require(await RawHTTPExchange.exchange(port: port, method: "POST", body: "{}", [("//demo/v1/sessions", [cookie, "Origin: http://127.0.0.1:\(port)"])]).responses.first)
        #expect(post.status == 200)
    }

    @Test func everyKindOfSpellingIsMade() {
        let spellings = Self.spellings(of: "/picker/S/T/api/albums?limit=5")
        for expected in ["//picker/S/T/api/albums?limit=5", "/picker//S/T/api/albums?limit=5", "/picker/S/T/api/albums/?limit=5",
                         "/picker/./S/T/api/albums?limit=5", "/x/../picker/S/T/api/albums?limit=5", "/picker%2FS/T/api/albums?limit=5",
                         "/%2E/picker/S/T/api/albums?limit=5", "/PICKER/S/T/api/albums?limit=5", "/%70icker/S/T/api/albums?limit=5",
                         "/picker/S/T/api/albums?limit=5#fragment", "/picker/S/T/api/albums?limit=5&", "/picker/S/T/api/albums?#"] {
            #expect(spellings.contains(expected), "\(expected)")
        }
    }
}
