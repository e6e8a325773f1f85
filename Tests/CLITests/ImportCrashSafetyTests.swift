import Foundation
import GRDB
import Testing
import TestSupport

extension CrashSafety {
    /// `assets-picker import FILE...` killed with SIGKILL at seeded random moments: after the next
    /// scan every import is whole or absent, the index is sound, and no original or import source
    /// has changed.
    @Suite("Crash safety: import killed with SIGKILL at random moments", .timeLimit(.minutes(15)))
    struct ImportCrashSafetyTests {
        static let kills = 20
        /// Photos per import command.
        static let batch = 24

        @Test("20 kills mid-import: integrity_check ok; after a scan each import is a byte-identical file in Imports/YYYY/MM with one row, or absent; originals and sources byte-identical")
        func killedWhileImporting() async throws {
            let copy = try CorpusCopy()
            defer { copy.remove() }
            let sourceFolder = copy.root.deletingLastPathComponent().appendingPathComponent("sources", isDirectory: true)
            let scan = ["index", copy.path, "--json"]
            _ = try await CrashHarness.timedRun(scan)
            let originals = try CrashHarness.contents(of: copy.root, skipping: [ImportCheck.folder])
            var check = ImportCheck(library: copy)
            var harness = CrashHarness(seed: 20_240_602)
            func importing(_ files: [URL]) -> [String] { ["import", "--json", "--library", copy.path] + files.map(\.path) }

            // One batch imported unkilled: all of it arrives, and its duration sets the kill moments.
            let unkilled = try CrashHarness.writeDistinctPhotos(count: Self.batch, into: sourceFolder, prefix: "unkilled")
            try check.addSources(unkilled)
            var duration = try await CrashHarness.timedRun(importing(unkilled))
            #expect(try check.verify(round: -1) == Self.batch)

            // At least `kills` rounds, and more (up to five times as many) until half of them
            // landed mid-run: the kill moments only estimate the machine's pace, which changes.
            var interrupted = 0, round = 0
            while round < Self.kills || (interrupted < Self.kills / 2 && round < Self.kills * 5) {
                defer { round += 1 }
                let files = try CrashHarness.writeDistinctPhotos(count: Self.batch, into: sourceFolder, prefix: "round\(round)")
                try check.addSources(files)
                if try await harness.runKilled(importing(files), within: &duration) { interrupted += 1 }
                try CrashHarness.checkIndex(copy.defaultIndex, round: round)

                // The next scan settles what the kill left: a copy that took its name is adopted
                // whole, a staging file stays hidden.
                let rescan = try await CLI.run(scan)
                try #require(rescan.status == 0, "round \(round): \(rescan)")
                try CrashHarness.checkIndex(copy.defaultIndex, round: round)
                _ = try check.verify(round: round)
                #expect(try CrashHarness.contents(of: copy.root, skipping: [ImportCheck.folder]) == originals,
                        "round \(round): originals changed")
                #expect(try CrashHarness.contents(of: sourceFolder) == check.sources, "round \(round): import sources changed")
            }
            #expect(interrupted >= Self.kills / 2, "only \(interrupted) of \(round) runs were still importing when killed")
        }
    }
}

/// What the library's Imports folder and index must agree on after a scan.
private struct ImportCheck {
    static let folder = "Imports"
    let library: CorpusCopy
    /// Every import source so far, by file name (each name and content is used once).
    private(set) var sources: [String: Data] = [:]

    init(library: CorpusCopy) {
        self.library = library
    }

    mutating func addSources(_ files: [URL]) throws {
        for file in files { sources[file.lastPathComponent] = try Data(contentsOf: file) }
    }

    /// Every visible file in Imports is `Imports/YYYY/MM/<a source's name>`, byte-identical to
    /// that source, each source at most once, and the index has exactly one row per such file
    /// and none for anything else in Imports. Hidden files there are staging leftovers only.
    /// - Returns: How many imports are present.
    func verify(round: Int) throws -> Int {
        let imports = library.root.appendingPathComponent(Self.folder)
        let files = try CrashHarness.contents(of: imports, skipping: [])
        var visible: Set<String> = []
        var seenSources: [String: Int] = [:]
        for (path, bytes) in files {
            let parts = path.split(separator: "/").map(String.init)
            if parts.contains(where: { $0.hasPrefix(".") }) {
                #expect(parts.count == 1 && parts[0].hasPrefix(".import-"), "round \(round): unexpected hidden file Imports/\(path)")
                continue
            }
            visible.insert(Self.folder + "/" + path)
            let name = parts.last ?? ""
            #expect(parts.count == 3 && parts[0].count == 4 && parts[1].count == 2 && parts.dropLast().allSatisfy { $0.allSatisfy(\.isNumber) },
                    "round \(round): Imports/\(path) is not in a YYYY/MM folder")
            #expect(sources[name] == bytes, "round \(round): Imports/\(path) is not byte-identical to its source")
            seenSources[name, default: 0] += 1
        }
        #expect(seenSources.values.allSatisfy { $0 == 1 }, "round \(round): an import arrived twice: \(seenSources.filter { $0.value > 1 })")

        let queue = try DatabaseQueue(path: library.defaultIndex.path)
        defer { try? queue.close() }
        let rows = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT relativePath FROM asset WHERE relativePath LIKE ? || '/%'", arguments: [Self.folder])
        }
        #expect(rows.count == Set(rows).count, "round \(round): a path twice")
        #expect(Set(rows) == visible,
                "round \(round): files without a row: \(visible.subtracting(rows).sorted()), rows without a file: \(Set(rows).subtracting(visible).sorted())")
        return visible.count
    }
}
