import Foundation
import GRDB
import Testing
import TestSupport

/// The crash-safety suites, run one after the other: each starts and kills many children, and
/// side by side they would starve each other (and the rest of the run) of the two cores.
@Suite("Crash safety", .serialized)
struct CrashSafety {}

/// What the crash-safety suites share: an `assets-picker` child killed with SIGKILL at a
/// seeded moment of its run, and the checks made on the library after each kill.
///
/// Kill moments are fractions of the duration of an unkilled run of the same work, measured on
/// this machine at test time, so a loaded machine stretches them with the work instead of
/// leaving a fixed sleep to land after the child has finished. The suites take about half a
/// minute each on a quiet machine; their time limits are generous because a loaded one
/// stretches every round.
struct CrashHarness {
    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// Runs `assets-picker arguments...` to its end (it must succeed) and returns how long it took.
    static func timedRun(_ arguments: [String]) async throws -> Duration {
        let result = try await CLI.run(arguments, timeout: .seconds(180))
        try #require(result.status == 0, "\(result)")
        return result.duration
    }

    /// A seeded moment between 5 % and 95 % of `duration`.
    mutating func killMoment(within duration: Duration) -> Duration {
        duration * (0.05 + 0.9 * Double(random.next() % 10_000) / 10_000)
    }

    /// Runs `assets-picker arguments...` and kills it with SIGKILL at a seeded moment within
    /// `duration`, the estimate of how long the work takes; whether it was still running then.
    /// A run that had ended before its moment shortens the estimate to that moment, so that a
    /// machine that got quicker since the timing (the load of a parallel test run dropped)
    /// still sees most kills land mid-run.
    mutating func runKilled(_ arguments: [String], within duration: inout Duration) async throws -> Bool {
        let moment = killMoment(within: duration)
        let interrupted = try await Self.runKilled(arguments, after: moment)
        if !interrupted { duration = moment }
        return interrupted
    }

    /// Starts `assets-picker arguments...` and kills it with SIGKILL after `delay`; whether it
    /// was still running then.
    static func runKilled(_ arguments: [String], after delay: Duration) async throws -> Bool {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = try CLI.executable.get()
        process.arguments = arguments
        process.environment = CLI.environment([:], scratch: scratch)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await Task.sleep(for: delay)
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return wasRunning && process.terminationReason == .uncaughtSignal
    }

    /// The index (if one was made yet) passes `integrity_check` and holds no path or UUID
    /// twice, no path both indexed and failed, and no hidden path (a staging file).
    static func checkIndex(_ url: URL, round: Int) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let (integrity, duplicates) = try queue.read { db in
            // A kill before the first migration committed leaves an empty database: no rows to check.
            guard try db.tableExists("asset") else { return (try String.fetchAll(db, sql: "PRAGMA integrity_check"), [0, 0, 0, 0]) }
            return (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                    try Int.fetchAll(db, sql: """
                        SELECT COUNT(*) - COUNT(DISTINCT relativePath) FROM asset
                        UNION ALL SELECT COUNT(*) - COUNT(DISTINCT uuid) FROM asset
                        UNION ALL SELECT COUNT(*) FROM asset JOIN scan_failure USING (relativePath)
                        UNION ALL SELECT COUNT(*) FROM asset WHERE relativePath LIKE '.%' OR relativePath LIKE '%/.%'
                        """))
        }
        #expect(integrity == ["ok"], "round \(round)")
        #expect(duplicates == [0, 0, 0, 0], "round \(round): a path or UUID twice, a path both indexed and failed, or a hidden file indexed")
    }

    /// Every regular file under `root` by relative path, with its bytes, but those under the
    /// top-level folders `skipping`.
    static func contents(of root: URL, skipping: Set<String> = []) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let path = walker?.nextObject() as? String {
            if let top = path.split(separator: "/").first, skipping.contains(String(top)) { continue }
            let url = root.appendingPathComponent(path)
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// The corpus' camera photos (JPEGs with EXIF, several orientations).
    static let cameraPhotos = (Corpus.files(in: "A_camera_exif") + Corpus.files(in: "B_orientation"))
        .filter { $0.pathExtension.lowercased() == "jpg" }

    /// Writes `count` distinct JPEGs into `folder`, named `<prefix>_<n>_<source name>`: real
    /// corpus photos, each with its own comment segment after SOI (so no two share bytes or
    /// a fingerprint, and each can be told from the others).
    /// - Returns: The files written, in order.
    @discardableResult
    static func writeDistinctPhotos(count: Int, into folder: URL, prefix: String) throws -> [URL] {
        let sources = try cameraPhotos.map { ($0.lastPathComponent, try Data(contentsOf: $0)) }
        try #require(!sources.isEmpty)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let (name, bytes) = sources[index % sources.count]
            let comment = Array("\(prefix) \(index)".utf8)
            var data = Data([0xFF, 0xD8, 0xFF, 0xFE, UInt8((comment.count + 2) >> 8), UInt8((comment.count + 2) & 0xFF)])
            data.append(contentsOf: comment)
            data.append(bytes.dropFirst(2))
            let url = folder.appendingPathComponent("\(prefix)_\(index)_\(name)")
            try data.write(to: url)
            return url
        }
    }
}
