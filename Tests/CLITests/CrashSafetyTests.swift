import Foundation
import GRDB
import Testing
import TestSupport

extension CrashSafety {
    /// `assets-picker index` killed with SIGKILL at seeded random moments: the index must stay
    /// sound, and the originals untouched.
    @Suite("Crash safety: index killed with SIGKILL at random moments", .timeLimit(.minutes(15)))
    struct CrashSafetyTests {
        static let kills = 20

        @Test("20 kills mid-index: integrity_check ok, no path or UUID twice, originals byte-identical; a final scan equals the files on disk")
        func killedWhileIndexing() async throws {
            let copy = try CorpusCopy()
            defer { copy.remove() }
            try CrashHarness.writeDistinctPhotos(count: 200, into: copy.root.appendingPathComponent("generated"), prefix: "IMG")
            let originals = try CrashHarness.contents(of: copy.root)
            try #require(originals.count > 350)
            var harness = CrashHarness(seed: 20_240_601)
            let index = ["index", copy.path, "--json"]

            // The two kinds of work a round gives, timed unkilled: a first scan, and a rescan that
            // finds a third of the files touched.
            var firstScan = try await CrashHarness.timedRun(index)
            touchAThird(of: originals.keys, in: copy.root, &harness.random)
            var rescan = try await CrashHarness.timedRun(index)

            // At least `kills` rounds, and more (up to five times as many) until half of them
            // landed mid-run: the kill moments only estimate the machine's pace, which changes.
            var interrupted = 0, round = 0
            while round < Self.kills || (interrupted < Self.kills / 2 && round < Self.kills * 5) {
                defer { round += 1 }
                // Every fourth round starts from no index, the others find a third of the files
                // changed (new modification times, same bytes).
                let fresh = round % 4 == 0
                if fresh {
                    try? FileManager.default.removeItem(at: copy.defaultIndex.deletingLastPathComponent())
                } else {
                    touchAThird(of: originals.keys, in: copy.root, &harness.random)
                }
                let killed = fresh ? try await harness.runKilled(index, within: &firstScan) : try await harness.runKilled(index, within: &rescan)
                if killed { interrupted += 1 }

                try CrashHarness.checkIndex(copy.defaultIndex, round: round)
                #expect(try CrashHarness.contents(of: copy.root) == originals, "round \(round): originals changed")
            }
            #expect(interrupted >= Self.kills / 2, "only \(interrupted) of \(round) runs were still indexing when killed")

            // A complete scan: the index holds exactly the files on disk, each once.
            let final = try await CLI.run(index)
            try #require(final.status == 0, "\(final)")
            try CrashHarness.checkIndex(copy.defaultIndex, round: Self.kills)
            let folder = try await copy.run("assets", ["--backend", "folder"]).json()
            let onDisk = try Set(folder.objects("assets").map { assetUUID(try $0.string("id")) })
            let skipped = try Set(folder.objects("skipped").map { try $0.string("path") })
            let queue = try DatabaseQueue(path: copy.defaultIndex.path)
            let (indexed, failed) = try await queue.read { db in
                (Set(try UUID.fetchAll(db, sql: "SELECT uuid FROM asset").map(\.uuidString)),
                 Set(try String.fetchAll(db, sql: "SELECT relativePath FROM scan_failure")))
            }
            #expect(indexed.count == onDisk.count)
            #expect(indexed == onDisk, "lost: \(onDisk.subtracting(indexed).count), extra: \(indexed.subtracting(onDisk).count)")
            #expect(failed == skipped)
            #expect(try CrashHarness.contents(of: copy.root) == originals)
        }

        /// Gives about a third of `paths` new modification times (same bytes).
        private func touchAThird(of paths: Dictionary<String, Data>.Keys, in root: URL, _ random: inout SeededGenerator) {
            for path in paths where random.next() % 3 == 0 {
                var times = [timespec(tv_sec: 1_600_000_000 + Int(random.next() % 1_000_000), tv_nsec: 0),
                             timespec(tv_sec: 1_600_000_000 + Int(random.next() % 1_000_000), tv_nsec: 0)]
                utimensat(AT_FDCWD, root.appendingPathComponent(path).path, &times, 0)
            }
        }
    }
}
