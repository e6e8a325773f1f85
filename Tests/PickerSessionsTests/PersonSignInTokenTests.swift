import Foundation
import PickerSessions
import TestSupport
import Testing

/// The person's sign-in links and browsers: used once, expiring, secrets checked, and a bound on
/// how many links strangers can make.
@Suite struct PersonSignInTokenTests {
    @Test func aLinkSignsOneBrowserInOnce() throws {
        let signIn = PersonSignIn()
        let link = signIn.makeLink()
        let browser = try #require(signIn.redeem(link: link))
        #expect(signIn.isSignedIn(browser: browser))
        #expect(signIn.redeem(link: link) == nil)
        #expect(browser.split(separator: ".").last?.count == 43) // 256 bits in base64url
    }

    @Test func aWrongSecretIsRefusedAndUsesNothingUp() throws {
        let signIn = PersonSignIn()
        let link = signIn.makeLink()
        let id = try #require(link.split(separator: ".").first)
        #expect(signIn.redeem(link: "\(id).AAAAAAAAAAAAAAAAAAAAAA") == nil)
        #expect(signIn.redeem(link: String(id)) == nil)
        let browser = try #require(signIn.redeem(link: link))
        let browserID = try #require(browser.split(separator: ".").first)
        #expect(!signIn.isSignedIn(browser: "\(browserID).\(String(repeating: "A", count: 43))"))
        #expect(!signIn.isSignedIn(browser: link))
        #expect(signIn.isSignedIn(browser: browser))
    }

    @Test func onlyTheExactIdFindsABrowser() throws {
        let signIn = PersonSignIn()
        let browser = try #require(signIn.redeem(link: signIn.makeLink()))
        let parts = browser.split(separator: ".")
        let id = try #require(parts.first), secret = try #require(parts.last)
        #expect(!signIn.isSignedIn(browser: "\(id.dropLast()).\(secret)"))
        #expect(!signIn.isSignedIn(browser: "\(id)A.\(secret)"))
        #expect(!signIn.isSignedIn(browser: "\(id)\u{0}.\(secret)"))
        #expect(!signIn.isSignedIn(browser: "\(id).\(secret.dropLast())"))
        #expect(!signIn.isSignedIn(browser: ".\(secret)"))
        #expect(signIn.isSignedIn(browser: browser[...]))
    }

    @Test func guessesAreThrottledPerAddressAndInAllForAMinute() throws {
        let clock = TestClock()
        let signIn = PersonSignIn(now: { clock.now })
        let link = signIn.makeLink()
        let id = try #require(link.split(separator: ".").first)
        let guess = "\(id).AAAAAAAAAAAAAAAAAAAAAA"
        #expect(signIn.attempt(link: guess, from: "10.0.0.1") == .refused(isFirst: true))
        for _ in 2...10 { #expect(signIn.attempt(link: guess, from: "10.0.0.1") == .refused(isFirst: false)) }
        // The eleventh is not looked at, not even the right link: it stays unused.
        #expect(signIn.attempt(link: link, from: "10.0.0.1") == .throttled(retryAfter: 60))
        clock.advance(45)
        #expect(signIn.attempt(link: guess, from: "10.0.0.1") == .throttled(retryAfter: 15))
        // Another address is not held back by that one.
        #expect(signIn.attempt(link: guess, from: "10.0.0.2") == .refused(isFirst: true))
        clock.advance(15)
        guard case .signedIn = signIn.attempt(link: link, from: "10.0.0.1") else {
            Issue.record("the right link was refused once the minute was over")
            return
        }
        // 100 refusals from all addresses together throttle everyone for the rest of the minute.
        for address in 0..<100 { _ = signIn.attempt(link: guess, from: "10.1.0.\(address)") }
        #expect(signIn.attempt(link: signIn.makeLink(), from: "10.2.0.1") == .throttled(retryAfter: 60))
    }

    @Test func linksAndBrowsersExpire() throws {
        let clock = TestClock()
        let signIn = PersonSignIn(linkLifetime: .seconds(60), browserLifetime: .seconds(600), now: { clock.now })
        let late = signIn.makeLink()
        let browser = try #require(signIn.redeem(link: signIn.makeLink()))
        clock.advance(60)
        #expect(signIn.redeem(link: late) == nil)
        #expect(signIn.isSignedIn(browser: browser))
        clock.advance(540)
        #expect(!signIn.isSignedIn(browser: browser))
    }

    @Test func strangersMakeAtMostOneLiveLink() {
        let clock = TestClock()
        let signIn = PersonSignIn(linkLifetime: .seconds(60), now: { clock.now })
        let first = signIn.makeLinkUnlessOneIsLive()
        #expect(first != nil)
        #expect(signIn.makeLinkUnlessOneIsLive() == nil)
        clock.advance(61)
        #expect(signIn.makeLinkUnlessOneIsLive() != nil)
        // Once the live link is used, the next page may make another.
        let second = PersonSignIn()
        _ = second.redeem(link: second.makeLinkUnlessOneIsLive()!)
        #expect(second.makeLinkUnlessOneIsLive() != nil)
    }
}
