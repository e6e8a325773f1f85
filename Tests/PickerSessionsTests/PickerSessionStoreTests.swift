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

    @Test func placesKeptFreeAreTakenOnlyByReservedSessions() async throws {
        let clock = TestClock()
        let store = PickerSessionStore(lifetime: .seconds(60), capacity: 5, now: { clock.now })
        let reserved = try store.create(settings: PickerSessionSettings(), place: .reserved)
        // Shared places: the capacity less the two kept free; the reserved session takes none of them.
        for _ in 0..<3 { _ = try store.create(settings: PickerSessionSettings(), place: .shared(leavingFree: 2)) }
        #expect(throws: PickerSessionError.tooManySessions(3)) {
            try store.create(settings: PickerSessionSettings(), place: .shared(leavingFree: 2))
        }
        _ = try store.create(settings: PickerSessionSettings(), place: .reserved)
        // The capacity bounds everything.
        #expect(throws: PickerSessionError.tooManySessions(5)) { try store.create(settings: PickerSessionSettings(), place: .reserved) }
        // A reserved session's end frees a reserved place, never a shared one.
        store.delete(reserved.id)
        #expect(throws: PickerSessionError.tooManySessions(3)) {
            try store.create(settings: PickerSessionSettings(), place: .shared(leavingFree: 2))
        }
        _ = try store.create(settings: PickerSessionSettings(), place: .reserved)
        // Expiry frees them all.
        clock.advance(60)
        _ = try store.create(settings: PickerSessionSettings(), place: .shared(leavingFree: 2))
        #expect(store.count == 1)
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
