import AssetsKit
import Foundation
import PickerSessions
import TestSupport
import Testing

/// What every session store does, the memory one and the PostgreSQL one alike: the selection's
/// rules, Done and Cancel once, expiry on the store's clock, places, the base-URL ledger, the
/// preselection, watchers.
@Suite struct SessionStoringTests {
    @Test(arguments: SessionStoreKind.allCases)
    func theMaximumIsHeldAndRepeatsCountOnce(kind: SessionStoreKind) async throws {
        let store = try await kind.make()
        let session = try await store.create(settings: PickerSessionSettings(maxItems: 2))
        let (a, b, c) = (pickedAsset(1), pickedAsset(2), pickedAsset(3))
        for asset in [a, a, b] { _ = try await store.pick(asset, session: session.id, token: session.pickerToken) }
        await #expect(throws: SelectionError.maximumReached(2)) { try await store.pick(c, session: session.id, token: session.pickerToken) }
        let held = try #require(try await store.session(session.id))
        #expect(held.selection.assets == [a, b])
        #expect(held.selection.byteSize == 2_000)
    }

    @Test(arguments: SessionStoreKind.allCases)
    func picksAreHandedOverInPickOrderOrOldestFirst(kind: SessionStoreKind) async throws {
        let store = try await kind.make()
        let picks = [pickedAsset(5), pickedAsset(1, .video), pickedAsset(9), pickedAsset(3)]
        for order in PickOrder.allCases {
            let session = try await store.create(settings: PickerSessionSettings(maxItems: 10, order: order))
            for pick in picks { _ = try await store.pick(pick, session: session.id, token: session.pickerToken) }
            #expect(try await store.session(session.id)?.pickedItems == [], "nothing is handed over before Done")
            let done = try await store.finish(session.id, token: session.pickerToken, state: .complete)
            let expected = order == .pick ? picks : picks.sorted { $0.creationDate < $1.creationDate }
            #expect(done.pickedItems == expected)
            #expect(try await store.session(session.id)?.pickedItems == expected)
            #expect(done.pickedItem(picks[1].uuid) == picks[1])
        }
    }

    @Test(arguments: SessionStoreKind.allCases)
    func unpickingAndReplacingAllOrNone(kind: SessionStoreKind) async throws {
        let store = try await kind.make()
        let session = try await store.create(settings: PickerSessionSettings(maxItems: 3, mediaFilter: .photo))
        let (id, token) = (session.id, session.pickerToken)
        let (a, b, c, d, film) = (pickedAsset(1), pickedAsset(2), pickedAsset(3), pickedAsset(4), pickedAsset(5, .video))
        _ = try await store.pick(a, session: id, token: token)
        _ = try await store.pick(b, session: id, token: token)
        #expect(try await store.unpick(a.uuid, session: id, token: token).selection.assets == [b])
        #expect(try await store.unpick(a.uuid, session: id, token: token).selection.assets == [b])
        await #expect(throws: SelectionError.notAllowed(filename: film.filename)) { try await store.pick(film, session: id, token: token) }
        #expect(try await store.replacePicks([c, a, c, d], session: id, token: token).selection.assets == [c, a, d])
        await #expect(throws: SelectionError.maximumReached(3)) { try await store.replacePicks([a, b, c, d], session: id, token: token) }
        await #expect(throws: SelectionError.notAllowed(filename: film.filename)) { try await store.replacePicks([film], session: id, token: token) }
        #expect(try await store.session(id)?.selection.assets == [c, a, d])
        // After a replacement, a new pick still comes last.
        _ = try await store.unpick(a.uuid, session: id, token: token)
        #expect(try await store.pick(b, session: id, token: token).selection.assets == [c, d, b])
    }

    @Test(arguments: SessionStoreKind.allCases)
    func picksNeedTheTokenAndALiveSession(kind: SessionStoreKind) async throws {
        let store = try await kind.make()
        let session = try await store.create(settings: PickerSessionSettings())
        await #expect(throws: PickerSessionError.notPicking) { try await store.pick(pickedAsset(1), session: session.id, token: SecretToken.make()) }
        await #expect(throws: PickerSessionError.notPicking) { try await store.pick(pickedAsset(1), session: SecretToken.make(), token: session.pickerToken) }
        #expect(try await store.pickerSession(session.id, token: SecretToken.make()) == nil)
        #expect(try await store.pickerSession(session.id, token: session.pickerToken)?.id == session.id)
        #expect(try await store.session(session.id)?.selection.count == 0)
    }

    @Test(arguments: SessionStoreKind.allCases)
    func doneTwiceAndCancelAfterDoneAreRefused(kind: SessionStoreKind) async throws {
        let store = try await kind.make()
        let session = try await store.create(settings: PickerSessionSettings())
        let (id, token) = (session.id, session.pickerToken)
        _ = try await store.pick(pickedAsset(1), session: id, token: token)
        let done = try await store.finish(id, token: token, state: .complete)
        #expect(done.state == .complete && done.mediaItemsSet)
        await #expect(throws: PickerSessionError.notPicking) { try await store.finish(id, token: token, state: .complete) }
        await #expect(throws: PickerSessionError.notPicking) { try await store.finish(id, token: token, state: .cancelled) }
        await #expect(throws: PickerSessionError.notPicking) { try await store.pick(pickedAsset(2), session: id, token: token) }
        // An ended session is still found: its picker URI answers "gone".
        #expect(try await store.pickerSession(id, token: token)?.state == .complete)
        #expect(try await store.session(id)?.pickedItems.count == 1)
        let cancelled = try await store.create(settings: PickerSessionSettings())
        _ = try await store.pick(pickedAsset(3), session: cancelled.id, token: cancelled.pickerToken)
        #expect(try await store.finish(cancelled.id, token: cancelled.pickerToken, state: .cancelled).pickedItems == [])
    }

    @Test(arguments: SessionStoreKind.allCases)
    func anExpiredSessionIsGoneThenForgottenAndADeletedOneAtOnce(kind: SessionStoreKind) async throws {
        let clock = TestClock()
        let store = try await kind.make(lifetime: .seconds(60), clock: clock)
        let session = try await store.create(settings: PickerSessionSettings(maxItems: 3))
        let deleted = try await store.create(settings: PickerSessionSettings(maxItems: 3))
        #expect(session.expireTime == clock.now.addingTimeInterval(60))
        #expect(try await store.currentTime() == clock.now)
        clock.advance(59)
        #expect(try await store.session(session.id) != nil)
        #expect(try await store.hasExpired(session.id, token: session.pickerToken) == false)
        #expect(try await store.delete(deleted.id))
        #expect(try await store.delete(deleted.id) == false)
        #expect(try await store.session(deleted.id) == nil)
        #expect(try await store.hasExpired(deleted.id, token: deleted.pickerToken) == false)
        clock.advance(1)
        #expect(try await store.session(session.id) == nil)
        #expect(try await store.pickerSession(session.id, token: session.pickerToken) == nil)
        await #expect(throws: PickerSessionError.notPicking) { try await store.pick(pickedAsset(1), session: session.id, token: session.pickerToken) }
        #expect(try await store.delete(session.id) == false)
        // Its picker URI answers "gone" (410) for one more lifetime, with its token only.
        #expect(try await store.hasExpired(session.id, token: session.pickerToken))
        #expect(try await store.hasExpired(session.id, token: SecretToken.make()) == false)
        clock.advance(59)
        #expect(try await store.hasExpired(session.id, token: session.pickerToken))
        clock.advance(1)
        _ = try await store.create(settings: PickerSessionSettings())
        #expect(try await store.hasExpired(session.id, token: session.pickerToken) == false)
    }

    @Test(arguments: SessionStoreKind.allCases)
    func ownPlacesAreKeptAndTheCapacityBoundsAll(kind: SessionStoreKind) async throws {
        let clock = TestClock()
        let store = try await kind.make(lifetime: .seconds(60), capacity: 5, ownCapacity: 2, clock: clock)
        let own = try await store.create(settings: PickerSessionSettings(), preselected: [], place: .own)
        #expect(try await store.isOwn(own.id))
        // Shared places: the capacity less the two kept for own sessions, which take none of them.
        var shared: [PickerSession] = []
        for _ in 0..<3 { shared.append(try await store.create(settings: PickerSessionSettings())) }
        #expect(try await store.isOwn(shared[0].id) == false)
        await #expect(throws: PickerSessionError.tooManySessions(3)) { try await store.create(settings: PickerSessionSettings()) }
        _ = try await store.create(settings: PickerSessionSettings(), preselected: [], place: .own)
        await #expect(throws: PickerSessionError.tooManyOwnSessions(2)) {
            try await store.create(settings: PickerSessionSettings(), preselected: [], place: .own)
        }
        // An own session's end frees an own place, never a shared one.
        try await store.delete(own.id)
        #expect(try await store.isOwn(own.id) == false)
        await #expect(throws: PickerSessionError.tooManySessions(3)) { try await store.create(settings: PickerSessionSettings()) }
        let again = try await store.create(settings: PickerSessionSettings(), preselected: [], place: .own)
        // Expiry frees them all.
        clock.advance(60)
        #expect(try await store.isOwn(again.id) == false)
        for _ in 0..<3 { _ = try await store.create(settings: PickerSessionSettings()) }
        for _ in 0..<2 { _ = try await store.create(settings: PickerSessionSettings(), preselected: [], place: .own) }
    }

    @Test(arguments: SessionStoreKind.allCases)
    func theLedgerHonoursOnlyExpiriesItGaveThatHaveNotPassed(kind: SessionStoreKind) async throws {
        let clock = TestClock()
        let store = try await kind.make(lifetime: .seconds(7_200), clock: clock)
        let session = try await store.create(settings: PickerSessionSettings())
        let now = Int64(clock.now.timeIntervalSince1970)
        #expect(try await store.honoursBaseURLExpiry(now + 100, session: session.id) == false)
        try await store.recordBaseURLExpiry(now + 3_600, session: session.id)
        try await store.recordBaseURLExpiry(now + 1_800, session: session.id)
        #expect(try await store.honoursBaseURLExpiry(now + 3_600, session: session.id))
        #expect(try await store.honoursBaseURLExpiry(now + 100, session: session.id))
        #expect(try await store.honoursBaseURLExpiry(now + 3_601, session: session.id) == false)
        let other = try await store.create(settings: PickerSessionSettings())
        #expect(try await store.honoursBaseURLExpiry(now + 100, session: other.id) == false)
        clock.advance(101)
        #expect(try await store.honoursBaseURLExpiry(now + 100, session: session.id) == false)
        #expect(try await store.honoursBaseURLExpiry(now + 200, session: session.id))
        try await store.delete(session.id)
        #expect(try await store.honoursBaseURLExpiry(now + 200, session: session.id) == false)
    }

    @Test(arguments: SessionStoreKind.allCases)
    func theFirstPreselectionWins(kind: SessionStoreKind) async throws {
        let store = try await kind.make()
        let session = try await store.create(settings: PickerSessionSettings(maxItems: 5), preselected: ["a", "b", "c"], place: .shared)
        #expect(session.pendingPreselection == ["a", "b", "c"])
        let (a, b) = (pickedAsset(1), pickedAsset(2))
        let first = try await store.applyPreselection(Preselection(assets: [b, a], dropped: ["c"]), session: session.id, token: session.pickerToken)
        #expect(first.selection.assets == [b, a])
        #expect(first.pendingPreselection == [] && first.droppedPreselected == ["c"])
        let second = try await store.applyPreselection(Preselection(assets: [pickedAsset(3)], dropped: []), session: session.id,
                                                       token: session.pickerToken)
        #expect(second.selection.assets == [b, a])
        #expect(second.droppedPreselected == ["c"])
        #expect(try await store.pick(pickedAsset(4), session: session.id, token: session.pickerToken).selection.count == 3)
    }

    @Test(arguments: SessionStoreKind.allCases)
    func watchersGetUpdatesAndEndWhenTheSessionIsDeleted(kind: SessionStoreKind) async throws {
        let store = try await kind.make()
        let session = try await store.create(settings: PickerSessionSettings())
        let updates = try await store.updates(of: session.id)
        var iterator = updates.makeAsyncIterator()
        _ = try await store.pick(pickedAsset(1), session: session.id, token: session.pickerToken)
        #expect(await iterator.next()?.selection.count == 1)
        _ = try await store.finish(session.id, token: session.pickerToken, state: .cancelled)
        #expect(await iterator.next()?.state == .cancelled)
        try await store.delete(session.id)
        #expect(await iterator.next() == nil)
        var afterDeletion = try await store.updates(of: session.id).makeAsyncIterator()
        #expect(await afterDeletion.next() == nil, "a deleted session has no updates")
    }

    @Test(arguments: SessionStoreKind.allCases)
    func watchersEndWhenTheSessionExpires(kind: SessionStoreKind) async throws {
        let clock = TestClock()
        let store = try await kind.make(lifetime: .seconds(60), clock: clock)
        let session = try await store.create(settings: PickerSessionSettings())
        let updates = try await store.updates(of: session.id)
        clock.advance(60)
        // The first use after the expiry time notices it.
        #expect(try await store.session(session.id) == nil)
        var states: [PickerSessionState] = []
        for await update in updates { states.append(update.state) }
        #expect(states == [])
    }
}
