import Foundation
import GRDB
import Testing
import TestSupport

/// `assets-picker index` killed with SIGKILL at seeded random moments: the index must stay
/// sound, and the originals untouched.
@Suite("Crash safety: index killed with SIGKILL at random moments", .timeLimit(.minutes(2)))
struct CrashSafetyTests {
    static let kills = 20

    @Test("20 kills mid-index: integrity_check ok, no path or UUID twice, originals byte-identical; a final scan equals the files on disk")
    func killedWhileIndexing() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        try Self.addGeneratedPhotos(to: copy.root, count: 300)
        let originals = try Self.contents(of: copy.root)
        try #require(originals.count > 450)
        var random = SeededGenerator(seed: 20_240_601)
        var interrupted = 0

        for round in 0..<Self.kills {
            // Work for the next run: every fourth round starts from no index, the others find
            // a third of the files changed (new modification times, same bytes).
            if round % 4 == 0 {
                try? FileManager.default.removeItem(at: copy.defaultIndex.deletingLastPathComponent())
            } else {
                for path in originals.keys where random.next() % 3 == 0 {
                    var times = [timespec(tv_sec: 1_600_000_000 + Int(random.next() % 1_000_000), tv_nsec: 0),
                                 timespec(tv_sec: 1_600_000_000 + Int(random.next() % 1_000_000), tv_nsec: 0)]
                    utimensat(AT_FDCWD, copy.root.appendingPathComponent(path).path, &times, 0)
                }
            }
            let delay = 0.05 + Double(random.next() % 1_000) / 1_000 * 1.2
            if try Self.runIndex(copy.root, killAfter: delay) { interrupted += 1 }

            try Self.checkIndex(copy.defaultIndex, round: round)
            #expect(try Self.contents(of: copy.root) == originals, "round \(round): originals changed")
        }
        #expect(interrupted >= Self.kills / 2, "only \(interrupted) of \(Self.kills) runs were still indexing when killed")

        // A complete scan: the index holds exactly the files on disk, each once.
        let final = try await CLI.run(["index", copy.path, "--json"])
        try #require(final.status == 0, "\(final)")
        try Self.checkIndex(copy.defaultIndex, round: Self.kills)
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
        #expect(try Self.contents(of: copy.root) == originals)
    }

    /// Starts `assets-picker index root`, kills it with SIGKILL after `delay` seconds; whether
    /// it was still running then.
    private static func runIndex(_ root: URL, killAfter delay: Double) throws -> Bool {
        let process = Process()
        process.executableURL = try CLI.executable.get()
        process.arguments = ["index", root.path, "--json"]
        process.environment = CLI.environment([:], scratch: FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)"))
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return wasRunning && process.terminationReason == .uncaughtSignal
    }

    /// The index (if one was made yet) passes `integrity_check` and holds no path or UUID twice.
    private static func checkIndex(_ url: URL, round: Int) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let (integrity, duplicates) = try queue.read { db in
            // A kill before the first migration committed leaves an empty database: no rows to check.
            guard try db.tableExists("asset") else { return (try String.fetchAll(db, sql: "PRAGMA integrity_check"), [0, 0, 0]) }
            return (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
             try Int.fetchAll(db, sql: """
                SELECT COUNT(*) - COUNT(DISTINCT relativePath) FROM asset
                UNION ALL SELECT COUNT(*) - COUNT(DISTINCT uuid) FROM asset
                UNION ALL SELECT COUNT(*) FROM asset JOIN scan_failure USING (relativePath)
                """))
        }
        #expect(integrity == ["ok"], "round \(round)")
        #expect(duplicates == [0, 0, 0], "round \(round): a path or UUID twice, or a path both indexed and failed")
    }

    /// Every file under `root` outside the index folder, by relative path, with its bytes.
    private static func contents(of root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let path = walker?.nextObject() as? String {
            if path.hasPrefix(".assets-picker") { continue }
            let url = root.appendingPathComponent(path)
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// `count` distinct small JPEGs in `generated/`: corpus photos, each with its own comment
    /// segment after SOI (so no two share a fingerprint).
    private static func addGeneratedPhotos(to root: URL, count: Int) throws {
        let sources = ["A_camera_exif/goexif__sample1.jpg", "B_orientation/goexif__f2-exif.jpg"].map { try? Data(contentsOf: Corpus.file($0)) }
            .compactMap { $0 }
        try #require(!sources.isEmpty)
        let folder = root.appendingPathComponent("generated")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            let comment = Array("generated \(index)".utf8)
            var data = Data([0xFF, 0xD8, 0xFF, 0xFE, UInt8((comment.count + 2) >> 8), UInt8((comment.count + 2) & 0xFF)])
            data.append(contentsOf: comment)
            data.append(sources[index % sources.count].dropFirst(2))
            try data.write(to: folder.appendingPathComponent("IMG_\(index).jpg"))
        }
    }
}
