import Crypto
import Foundation
import PickerSessions
import PostgresIndex
import Testing
import TestSupport

/// The person's sign-in links and browsers on each store (``SignInStoreKind``): used once,
/// expiring by the store's clock, secrets checked, bounded, and only digests of secrets kept.
@Suite struct SignInStoringTests {
    @Test(arguments: SignInStoreKind.allCases) func aLinkSignsOneBrowserInOnce(kind: SignInStoreKind) async throws {
        let clock = TestClock()
        let signIn = PersonSignIn(store: try await kind.make(clock: clock).store, now: { clock.now })
        let link = try await signIn.makeLink()
        let browser = try #require(try await signIn.redeem(link: link))
        #expect(signIn.isSignedIn(browser: browser))
        #expect(try await signIn.redeem(link: link) == nil)
        #expect(browser.split(separator: ".").last?.count == 43) // 256 bits in base64url
    }

    @Test(arguments: SignInStoreKind.allCases) func aWrongSecretIsRefusedAndUsesNothingUp(kind: SignInStoreKind) async throws {
        let clock = TestClock()
        let signIn = PersonSignIn(store: try await kind.make(clock: clock).store, now: { clock.now })
        let link = try await signIn.makeLink()
        let id = try #require(link.split(separator: ".").first)
        #expect(try await signIn.redeem(link: "\(id).AAAAAAAAAAAAAAAAAAAAAA") == nil)
        #expect(try await signIn.redeem(link: String(id)) == nil)
        let browser = try #require(try await signIn.redeem(link: link))
        let browserID = try #require(browser.split(separator: ".").first)
        let wrong = "\(browserID).\(String(repeating: "A", count: 43))"
        #expect(!signIn.isSignedIn(browser: wrong))
        #expect(try await signIn.recall(browsers: [wrong[...]]) == nil)
        #expect(try await signIn.recall(browsers: [link[...]]) == nil)
        #expect(signIn.isSignedIn(browser: browser))
    }

    @Test(arguments: SignInStoreKind.allCases) func onlyTheExactIdFindsABrowser(kind: SignInStoreKind) async throws {
        let clock = TestClock()
        let store = try await kind.make(clock: clock).store
        let browser = try #require(try await PersonSignIn(store: store, now: { clock.now }).redeem(
            link: PersonSignIn(store: store, now: { clock.now }).makeLink()))
        // Another process on the same store: it has not seen the browser, so it asks the store.
        let other = PersonSignIn(store: store, now: { clock.now })
        let parts = browser.split(separator: ".")
        let id = try #require(parts.first), secret = try #require(parts.last)
        for wrong in ["\(id.dropLast()).\(secret)", "\(id)A.\(secret)", "\(id)\u{0}.\(secret)", "\(id).\(secret.dropLast())", ".\(secret)"] {
            #expect(try await other.recall(browsers: [wrong[...]]) == nil, "\(wrong)")
        }
        #expect(!other.isSignedIn(browser: browser))
        #expect(try await other.recall(browsers: [browser[...]]) != nil)
        // Once found, it is answered without the store.
        #expect(other.isSignedIn(browser: browser[...]))
    }

    @Test(arguments: SignInStoreKind.allCases) func guessesAreThrottledPerAddressAndInAllForAMinute(kind: SignInStoreKind) async throws {
        let clock = TestClock()
        let signIn = PersonSignIn(store: try await kind.make(clock: clock).store, now: { clock.now })
        let link = try await signIn.makeLink()
        let id = try #require(link.split(separator: ".").first)
        let guess = "\(id).AAAAAAAAAAAAAAAAAAAAAA"
        #expect(try await signIn.attempt(link: guess, from: "10.0.0.1") == .refused(isFirst: true))
        for _ in 2...10 { #expect(try await signIn.attempt(link: guess, from: "10.0.0.1") == .refused(isFirst: false)) }
        // The eleventh is not looked at, not even the right link: it stays unused.
        #expect(try await signIn.attempt(link: link, from: "10.0.0.1") == .throttled(retryAfter: 60))
        clock.advance(45)
        #expect(try await signIn.attempt(link: guess, from: "10.0.0.1") == .throttled(retryAfter: 15))
        // Another address is not held back by that one.
        #expect(try await signIn.attempt(link: guess, from: "10.0.0.2") == .refused(isFirst: true))
        clock.advance(15)
        guard case .signedIn = try await signIn.attempt(link: link, from: "10.0.0.1") else {
            Issue.record("the right link was refused once the minute was over")
            return
        }
        // 100 refusals from all addresses together throttle everyone for the rest of the minute.
        for address in 0..<100 { _ = try await signIn.attempt(link: guess, from: "10.1.0.\(address)") }
        #expect(try await signIn.attempt(link: signIn.makeLink(), from: "10.2.0.1") == .throttled(retryAfter: 60))
    }

    @Test(arguments: SignInStoreKind.allCases) func linksAndBrowsersExpireByTheStoresClock(kind: SignInStoreKind) async throws {
        let clock = TestClock()
        let store = try await kind.make(clock: clock).store
        let signIn = PersonSignIn(store: store, linkLifetime: .seconds(60), browserLifetime: .seconds(600), now: { clock.now })
        let late = try await signIn.makeLink()
        let browser = try #require(try await signIn.redeem(link: signIn.makeLink()))
        clock.advance(60)
        #expect(try await signIn.redeem(link: late) == nil)
        let other = PersonSignIn(store: store, now: { clock.now })
        #expect(try await other.recall(browsers: [browser[...]]) != nil)
        clock.advance(540)
        #expect(!signIn.isSignedIn(browser: browser))
        #expect(!other.isSignedIn(browser: browser))
        #expect(try await PersonSignIn(store: store, now: { clock.now }).recall(browsers: [browser[...]]) == nil)
        #expect(try await store.browsers(ids: [String(browser.split(separator: ".")[0])]).isEmpty)
    }

    @Test(arguments: SignInStoreKind.allCases) func strangersMakeAtMostOneLiveLink(kind: SignInStoreKind) async throws {
        let clock = TestClock()
        let store = try await kind.make(clock: clock).store
        let signIn = PersonSignIn(store: store, linkLifetime: .seconds(60), now: { clock.now })
        let first = try await signIn.makeLinkUnlessOneIsLive()
        #expect(first != nil)
        #expect(try await signIn.makeLinkUnlessOneIsLive() == nil)
        // Another server on the same store finds it live too.
        #expect(try await PersonSignIn(store: store, now: { clock.now }).makeLinkUnlessOneIsLive() == nil)
        clock.advance(61)
        let second = try #require(try await signIn.makeLinkUnlessOneIsLive())
        // Once the live link is used, the next page may make another.
        _ = try await signIn.redeem(link: second)
        #expect(try await signIn.makeLinkUnlessOneIsLive() != nil)
    }

    @Test(arguments: SignInStoreKind.allCases) func beyondCapacityTheSoonestExpiringGo(kind: SignInStoreKind) async throws {
        let clock = TestClock()
        let store = try await kind.make(clock: clock).store
        let signIn = PersonSignIn(store: store, now: { clock.now })
        // 16 links at most: the seventeenth drops the first (the soonest to expire).
        var links: [String] = []
        for _ in 0..<17 {
            links.append(try await signIn.makeLink())
            clock.advance(1)
        }
        #expect(try await signIn.redeem(link: links[0]) == nil)
        for link in links.dropFirst() { #expect(try await signIn.redeem(link: link) != nil) }
        // Browsers likewise, whatever order they were kept in: the one expiring first goes (in a
        // store of their own: the sixteen browsers signed in above expire later than these).
        let browsers = try await kind.make(clock: clock).store
        let digest = [UInt8](repeating: 1, count: 32)
        _ = try await browsers.keepBrowser(id: "long", digest: digest, lifetime: .seconds(900), capacity: 3)
        _ = try await browsers.keepBrowser(id: "short", digest: digest, lifetime: .seconds(100), capacity: 3)
        _ = try await browsers.keepBrowser(id: "middle", digest: digest, lifetime: .seconds(500), capacity: 3)
        _ = try await browsers.keepBrowser(id: "new", digest: digest, lifetime: .seconds(600), capacity: 3)
        #expect(try await browsers.browsers(ids: ["short"]).isEmpty)
        for id in ["long", "middle", "new"] { #expect(try await browsers.browsers(ids: [id])[id]?.digest == digest, "\(id)") }
        // Asked together, in one question: the live ones, none of the others.
        let together = try await browsers.browsers(ids: ["short", "new", "unknown", "long", "new"])
        #expect(Set(together.keys) == ["new", "long"] && together.values.allSatisfy { $0.digest == digest })
    }

    @Test(arguments: SignInStoreKind.allCases) func theStoreKeepsDigestsNeverSecrets(kind: SignInStoreKind) async throws {
        let clock = TestClock()
        let (store, table) = try await kind.make(clock: clock)
        let signIn = PersonSignIn(store: store, now: { clock.now })
        let unused = try await signIn.makeLink(), used = try await signIn.makeLink()
        let browser = try #require(try await signIn.redeem(link: used))
        let (browserID, browserSecret) = try Self.parts(browser)
        let kept = try #require(try await store.browsers(ids: [browserID])[browserID])
        #expect(kept.digest == Array(SHA256.hash(data: Array(browserSecret.utf8))))
        guard let table else { return }
        // The table as anyone who may read it sees it: no secret, in text or in bytes.
        let rows = try await table.read { session in
            try await session.values("SELECT t::text FROM person_sign_in t ORDER BY kind", as: String.self)
        }
        #expect(rows.count == 2)
        for secret in [try Self.parts(unused).secret, try Self.parts(used).secret, browserSecret] {
            let hex = secret.utf8.map { String(format: "%02x", $0) }.joined()
            for row in rows {
                #expect(!row.contains(secret) && !row.contains(hex), "\(row)")
            }
        }
        #expect(rows.contains { $0.contains(browserID) && $0.contains(kept.digest.map { String(format: "%02x", $0) }.joined()) })
    }

    private static func parts(_ token: String) throws -> (id: String, secret: String) {
        let parts = token.split(separator: ".")
        return (String(try #require(parts.first)), String(try #require(parts.last)))
    }
}
