import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerServer
import PickerSessions
import PostgresIndex
import PostgresSessions
import PostgresTestSupport
import Testing

/// Picker servers sharing the person's sign-ins through one PostgreSQL database: a browser
/// signed in on one is signed in on the others (also after the first is stopped), a link printed
/// by one works once on any, a refusal is a refusal everywhere, and a database that fails
/// answers 503, neither "signed out" nor signed in.
@Suite struct SharedSignInTests {
    @Test func aBrowserSignedInOnOneServerIsSignedInOnTheOthers() async throws {
        let address = try await PostgresServer.shared().makeDatabase()
        let first = try await TestServer.indexed(signIn: PersonSignIn(store: try await PostgresSignInStore.open(at: address)))
        let second = try await TestServer.indexed(signIn: PersonSignIn(store: try await PostgresSignInStore.open(at: address)))
        defer { Task { await second.stop() } }
        let onFirst = try await first.client.createSession(), onSecond = try await second.client.createSession()

        // Signed in through a link the first server printed, opened on the first.
        let opened = try await first.request("GET", PickerServer.signInPath(link: try await first.server.signIn.makeLink()), authorized: false)
        let browser = try Self.token(try #require(TestServer.cookie(from: opened)))
        #expect(try await second.request("GET", onSecond.pickerPath + "api/session", headers: second.cookie(browser), authorized: false).status == 200)
        #expect(try await second.request("GET", onSecond.pickerPath, headers: second.cookie(browser), authorized: false).status == 200)

        // A link the first printed, opened on the second: it works there once, and then nowhere.
        let link = PickerServer.signInPath(link: try await first.server.signIn.makeLink())
        let elsewhere = try await second.request("GET", link, authorized: false)
        #expect(elsewhere.status == 200)
        #expect(TestServer.cookie(from: elsewhere) != nil)
        #expect(try await first.request("GET", link, authorized: false).status == 401)
        #expect(try await second.request("GET", link, authorized: false).status == 401)

        // A refusal stays a refusal: the browser's id with another secret, on either server.
        let forged = "\(browser.split(separator: ".")[0]).\(String(repeating: "A", count: 43))"
        for (server, session) in [(first, onFirst), (second, onSecond)] {
            #expect(try await server.request("GET", session.pickerPath + "api/session", headers: server.cookie(forged), authorized: false).status == 401)
        }

        // The first server stopped, a server that never saw the browser finds it signed in.
        await first.stop()
        let third = try await TestServer.indexed(signIn: PersonSignIn(store: try await PostgresSignInStore.open(at: address)))
        defer { Task { await third.stop() } }
        let onThird = try await third.client.createSession()
        #expect(try await third.request("GET", onThird.pickerPath + "api/session", headers: third.cookie(browser), authorized: false).status == 200)
        #expect(try await third.request("GET", onThird.pickerPath + "api/session", headers: third.cookie(forged), authorized: false).status == 401)
    }

    @Test func aFailingDatabaseAnswers503NeitherSignedOutNorIn() async throws {
        let address = try await PostgresServer.shared().makeDatabase()
        let server = try await TestServer.indexed(signIn: PersonSignIn(store: try await PostgresSignInStore.open(at: address)))
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        // A browser signed in through another server, which this one has not seen.
        let other = PersonSignIn(store: try await PostgresSignInStore.open(at: address))
        let browser = try #require(try await other.redeem(link: other.makeLink()))

        let database = try await PostgresPool(address: address)
        try await database.withSession { try await $0.execute("DROP TABLE person_sign_in") }

        let unseen = try await server.request("GET", session.pickerPath + "api/session", headers: server.cookie(browser), authorized: false)
        #expect(unseen.status == 503)
        #expect(unseen.header("Retry-After") != nil)
        #expect((unseen.json["error"] as? [String: Any])?["code"] as? String == "signInUnavailable")
        #expect(!unseen.errorMessage.contains(address.database))
        // A page opened without signing in: no sign-in page, as no link can be kept.
        #expect(try await server.request("GET", session.pickerPath, authorized: false).status == 503)
        #expect(try await server.request("GET", PickerServer.signInPath(link: "made.up"), authorized: false).status == 503)
        // The browser this server signed in itself is still answered from its memory.
        #expect(try await server.request("GET", session.pickerPath + "api/session", authorized: false, asPerson: true).status == 200)
    }

    /// The browser token of a cookie's `name=value`.
    /// Another site on the host can set many cookies of the person's name, which the browser
    /// sends before the person's: four well-formed made-up ones signed the person out on a
    /// server that had to look the browser up, while only the first four were looked at (an
    /// outside attack). Now every one is, and the store is asked once.
    @Test func madeUpCookiesBeforeThePersonsDoNotSignThePersonOutOnAServerThatLooksItUp() async throws {
        let address = try await PostgresServer.shared().makeDatabase()
        let server = try await TestServer.indexed(signIn: PersonSignIn(store: try await PostgresSignInStore.open(at: address)))
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let name = try #require(server.personCookie.split(separator: "=").first)
        let other = PersonSignIn(store: try await PostgresSignInStore.open(at: address))
        let browser = try #require(try await other.redeem(link: other.makeLink()))
        let tossed = (0..<150).map { index in
            "\(name)=\(String(format: "%022d", index)).\(String(repeating: "A", count: 43))"
        }
        let cookie = (tossed + ["\(name)=\(browser)"]).joined(separator: "; ")
        #expect(try await server.request("GET", session.pickerPath + "api/session", headers: ["Cookie": cookie], authorized: false).status == 200)
        // The made-up ones alone are refused, as they were.
        let alone = tossed.joined(separator: "; ")
        #expect(try await server.request("GET", session.pickerPath + "api/session", headers: ["Cookie": alone], authorized: false).status == 401)
    }

    private static func token(_ cookie: String) throws -> String {
        String(try #require(cookie.split(separator: "=", maxSplits: 1).last))
    }
}

extension TestServer {
    /// A `Cookie` header carrying browser `token` under this server's cookie name.
    func cookie(_ token: String) -> [String: String] {
        ["Cookie": "\(personCookie.split(separator: "=")[0])=\(token)"]
    }
}
