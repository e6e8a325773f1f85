import AssetsKit
import Foundation
import PickerSessions
import PostgresIndex
import PostgresSessions
import PostgresTestSupport
import Testing

/// Two PostgreSQL session stores on one database, as two servers have them: one session picked
/// in through both at once keeps one order, no asset twice and its maximum; Done through one
/// ends picking through the other; each one's watchers see the other's changes.
@Suite struct SharedSessionStoreTests {
    private func twoStores() async throws -> (PostgresSessionStore, PostgresSessionStore) {
        let address = try await PostgresServer.shared().makeDatabase()
        let first = try await PostgresSessionStore(database: PostgresPool(address: address))
        return (first, try await PostgresSessionStore(database: PostgresPool(address: address)))
    }

    @Test func picksThroughTwoStoresAtOnceKeepOneOrderNoRepeatAndTheMaximum() async throws {
        let (one, other) = try await twoStores()
        let session = try await one.create(settings: PickerSessionSettings(maxItems: 40))
        let assets = (0..<60).map { pickedAsset($0) }
        // Each store picks every asset, in opposite orders: each asset is asked for twice at once.
        let refusals = try await withThrowingTaskGroup(of: Int.self) { group in
            for (store, order) in [(one, assets), (other, assets.reversed())] {
                group.addTask {
                    var refused = 0
                    for asset in order {
                        do { _ = try await store.pick(asset, session: session.id, token: session.pickerToken) } catch SelectionError.maximumReached { refused += 1 }
                    }
                    return refused
                }
            }
            return try await group.reduce(0, +)
        }
        let seenByOne = try #require(try await one.session(session.id)), seenByOther = try #require(try await other.session(session.id))
        #expect(seenByOne.selection.count == 40)
        #expect(Set(seenByOne.selection.assets.map(\.uuid)).count == 40)
        #expect(seenByOne.selection.assets == seenByOther.selection.assets)
        // The 20 assets left out were refused to both stores; an asset asked again once picked is a no-op.
        #expect(refusals == 40)
    }

    @Test func doneThroughOneStoreRefusesTheOthersPick() async throws {
        let (one, other) = try await twoStores()
        let session = try await one.create(settings: PickerSessionSettings(maxItems: 5))
        _ = try await other.pick(pickedAsset(1), session: session.id, token: session.pickerToken)
        let updates = try await other.updates(of: session.id)
        #expect(try await one.finish(session.id, token: session.pickerToken, state: .complete).pickedItems.count == 1)
        await #expect(throws: PickerSessionError.notPicking) { try await other.pick(pickedAsset(2), session: session.id, token: session.pickerToken) }
        await #expect(throws: PickerSessionError.notPicking) { try await other.finish(session.id, token: session.pickerToken, state: .cancelled) }
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next()?.state == .complete)
        try await one.delete(session.id)
        #expect(await iterator.next() == nil)
    }

    @Test func aFailingDatabaseIsAFailureNotAnUnknownSession() async throws {
        let address = try await PostgresServer.shared().makeDatabase()
        let store = try await PostgresSessionStore(database: PostgresPool(address: address))
        let session = try await store.create(settings: PickerSessionSettings())
        try await PostgresPool(address: address).withSession { try await $0.execute("DROP TABLE picker_pick") }
        await #expect(throws: SessionStoreFailure.self) { try await store.session(session.id) }
        await #expect(throws: SessionStoreFailure.self) { try await store.pick(pickedAsset(1), session: session.id, token: session.pickerToken) }
    }
}
