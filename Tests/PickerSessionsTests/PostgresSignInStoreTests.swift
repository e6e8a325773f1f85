import Foundation
import PickerSessions
import PostgresSessions
import PostgresTestSupport
import Testing

/// Two servers' stores on one database: a link made through one is taken through the other, once.
@Suite struct PostgresSignInStoreTests {
    @Test func aLinkMadeOnOneServerIsTakenOnTheOtherOnce() async throws {
        let address = try await PostgresServer.shared().makeDatabase()
        let first = PersonSignIn(store: try await PostgresSignInStore.open(at: address))
        let second = PersonSignIn(store: try await PostgresSignInStore.open(at: address))
        let link = try await first.makeLink()
        let browser = try #require(try await second.redeem(link: link))
        #expect(try await first.redeem(link: link) == nil)
        #expect(try await second.redeem(link: link) == nil)
        // The browser the second signed in is signed in on the first, once it has looked.
        #expect(!first.isSignedIn(browser: browser))
        #expect(try await first.recall(browsers: [browser[...]]) != nil)
        #expect(first.isSignedIn(browser: browser))
    }

    @Test func ofConcurrentTakesExactlyOneWins() async throws {
        let address = try await PostgresServer.shared().makeDatabase()
        let stores = [try await PostgresSignInStore.open(at: address), try await PostgresSignInStore.open(at: address)]
        for _ in 0..<5 {
            // Servers of their own each round: each one's throttle counts the seven refusals.
            let servers = stores.map { PersonSignIn(store: $0) }
            let link = try await servers[0].makeLink()
            let browsers = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<8 {
                    group.addTask { try await servers[index % 2].redeem(link: link) }
                }
                return try await group.reduce(into: [String]()) { if let browser = $1 { $0.append(browser) } }
            }
            #expect(browsers.count == 1)
        }
    }

    @Test func onlyOneLiveLinkIsMadeWhateverServersAskAtOnce() async throws {
        let address = try await PostgresServer.shared().makeDatabase()
        let servers = [PersonSignIn(store: try await PostgresSignInStore.open(at: address)),
                       PersonSignIn(store: try await PostgresSignInStore.open(at: address))]
        let made = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<8 {
                group.addTask { try await servers[index % 2].makeLinkUnlessOneIsLive() }
            }
            return try await group.reduce(into: 0) { if $1 != nil { $0 += 1 } }
        }
        #expect(made == 1)
    }
}
