import AssetsKit
import Foundation
import PickerSessions
import TestSupport
import Testing

/// Sessions: random tokens, constant-time checks, expiry on a controlled clock, deletion, watchers.
@Suite struct PickerSessionStoreTests {
    @Test func tokensAreRandom128BitURLSafeStrings() {
        let tokens = (0..<1_000).map { _ in SecretToken.make() }
        #expect(Set(tokens).count == 1_000)
        #expect(tokens.allSatisfy { $0.count == 22 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
        #expect(SecretToken.matches("abc", "abc"))
        #expect(!SecretToken.matches("abd", "abc"))
        #expect(!SecretToken.matches("ab", "abc"))
    }

    @Test func secretsCompareAlikeFromEveryKindOfText() {
        let token = "x." + SecretToken.make(byteCount: 32), secret = String(token.dropFirst(2))
        let contiguous = token.dropFirst(2), bridged = Substring(Array(secret.utf8).map { Character(UnicodeScalar($0)) })
        #expect(SecretToken.matches(contiguous.utf8, secret.utf8))
        #expect(SecretToken.matches(bridged.utf8, secret.utf8))
        #expect(SecretToken.matches(Array(secret.utf8), secret.utf8))
        #expect(!SecretToken.matches(contiguous.utf8.dropLast(), secret.utf8))
        #expect(!SecretToken.matches(Array(secret.utf8.dropLast()) + [UInt8(ascii: "!")], secret.utf8))
        #expect(!SecretToken.matches((String(secret.dropLast()) + "!").utf8, secret.utf8))
    }

    @Test func sessionsExpireAfterTheirLifetime() async throws {
        let clock = TestClock()
        let store = PickerSessionStore(lifetime: .seconds(60), now: { clock.now })
        let session = try store.create(settings: PickerSessionSettings(maxItems: 3))
        #expect(session.expireTime == clock.now.addingTimeInterval(60))
        clock.advance(59)
        #expect(store.session(session.id) != nil)
        #expect(store.pickerSession(session.id, token: session.pickerToken) != nil)
        #expect(store.pickerSession(session.id, token: SecretToken.make()) == nil)
        clock.advance(1)
        #expect(store.session(session.id) == nil)
        #expect(store.pickerSession(session.id, token: session.pickerToken) == nil)
        #expect(store.count == 0)
    }

    @Test func finishingEndsPickingAndDeletingForgets() async throws {
        let store = PickerSessionStore()
        let session = try store.create(settings: PickerSessionSettings())
        let done = try store.finish(session.id, token: session.pickerToken, state: .complete)
        #expect(done.mediaItemsSet)
        #expect(throws: PickerSessionError.notPicking) {
            try store.finish(session.id, token: session.pickerToken, state: .cancelled)
        }
        #expect(store.delete(session.id))
        #expect(store.delete(session.id) == false)
        #expect(store.session(session.id) == nil)
    }

    @Test func theStoreHoldsAtMostItsCapacity() async throws {
        let store = PickerSessionStore(capacity: 2)
        _ = try store.create(settings: PickerSessionSettings())
        let second = try store.create(settings: PickerSessionSettings())
        #expect(throws: PickerSessionError.tooManySessions(2)) { try store.create(settings: PickerSessionSettings()) }
        store.delete(second.id)
        _ = try store.create(settings: PickerSessionSettings())
    }

    @Test func watchersSeeUpdatesAndTheEnd() async throws {
        let store = PickerSessionStore()
        let session = try store.create(settings: PickerSessionSettings())
        let updates = store.updates(of: session.id)
        _ = try store.finish(session.id, token: session.pickerToken, state: .cancelled)
        store.delete(session.id)
        var states: [PickerSessionState] = []
        for await update in updates { states.append(update.state) }
        #expect(states == [.cancelled])
    }
}
