@testable import IndexedLibrary
import Testing

@Suite("Debouncing changes into rescans")
struct RescanScheduleTests {
    let start = ContinuousClock.now

    func makeSchedule() -> RescanSchedule {
        RescanSchedule(quietPeriod: .milliseconds(300), maximumDelay: .seconds(2), openFileWait: .seconds(10))
    }

    @Test("nothing is due until something changes; then a quiet period after the last change")
    func quiet() {
        var schedule = makeSchedule()
        #expect(schedule.deadline == nil && !schedule.isPending)
        schedule.noteChange("a.jpg", at: start)
        schedule.noteChange("b.jpg", at: start + .milliseconds(100))
        #expect(schedule.deadline == start + .milliseconds(400))
        #expect(schedule.takeChanges() == ["a.jpg", "b.jpg"])
        #expect(schedule.deadline == nil && !schedule.isPending)
    }

    @Test("changes that keep coming are rescanned at the latest the maximum delay after the first")
    func steadyStream() {
        var schedule = makeSchedule()
        for step in 0..<50 { schedule.noteChange("\(step).jpg", at: start + .milliseconds(step * 100)) }
        #expect(schedule.deadline == start + .seconds(2))
    }

    @Test("a file open for writing holds the rescan until it is closed, or the open-file wait")
    func openFile() {
        var schedule = makeSchedule()
        schedule.noteCreated("slow.jpg", at: start)
        #expect(schedule.deadline == start + .seconds(10))
        schedule.noteClosed("slow.jpg", at: start + .seconds(3))
        #expect(schedule.deadline == start + .seconds(2))
        #expect(schedule.takeChanges() == ["slow.jpg"])
        schedule.noteCreated("never-closed.jpg", at: start + .seconds(20))
        #expect(schedule.deadline == start + .seconds(30))
        _ = schedule.takeChanges()
        schedule.noteChange("next.jpg", at: start + .seconds(40))
        #expect(schedule.deadline == start + .seconds(40) + .milliseconds(300))
    }
}
