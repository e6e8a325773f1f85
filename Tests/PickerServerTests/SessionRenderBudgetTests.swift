import AssetsKit
@testable import PickerServer
import Testing

/// What one session may have rendered at once: the rule, without HTTP.
@Suite struct SessionRenderBudgetTests {
    @Test func aPlaceGivenBackIsTakenAgainAndSessionsDoNotShareTheirBudget() throws {
        let budget = SessionRenderBudget(limit: 2)
        let first = try budget.admit(session: "a", tier: .visibleFirst, stop: RenderStop())
        _ = try budget.admit(session: "a", tier: .visibleFirst, stop: RenderStop())
        #expect(throws: APIError.self) { try budget.admit(session: "a", tier: .visibleFirst, stop: RenderStop()) }
        _ = try budget.admit(session: "b", tier: .visibleSharp, stop: RenderStop())
        budget.release(first, session: "a")
        _ = try budget.admit(session: "a", tier: .visibleSharp, stop: RenderStop())
        #expect(budget.count(for: "a") == 2)
        #expect(budget.count(for: "b") == 1)
    }

    @Test func theRefusalIsOneLineWithRetryAfter() throws {
        let budget = SessionRenderBudget(limit: 1)
        _ = try budget.admit(session: "a", tier: .visibleSharp, stop: RenderStop())
        do {
            _ = try budget.admit(session: "a", tier: .visibleSharp, stop: RenderStop())
            Issue.record("a second render at a limit of one was admitted")
        } catch {
            #expect(error.status == .tooManyRequests)
            #expect(error.code == "tooManyRenders")
            #expect(!error.message.contains("\n"))
            #expect(error.headers[.retryAfter] == "1")
        }
    }

    @Test func aMoreUrgentRenderTakesTheOldestOfTheLeastUrgent() throws {
        let budget = SessionRenderBudget(limit: 3)
        let oldestSharp = RenderStop(), newerSharp = RenderStop(), first = RenderStop()
        _ = try budget.admit(session: "a", tier: .visibleSharp, stop: oldestSharp)
        _ = try budget.admit(session: "a", tier: .visibleFirst, stop: first)
        _ = try budget.admit(session: "a", tier: .visibleSharp, stop: newerSharp)
        _ = try budget.admit(session: "a", tier: .visibleFirst, stop: RenderStop())
        #expect(budget.count(for: "a") == 3)
        #expect(oldestSharp.firedReason == .superseded)
        #expect(newerSharp.firedReason == nil)
        #expect(first.firedReason == nil)
    }
}
