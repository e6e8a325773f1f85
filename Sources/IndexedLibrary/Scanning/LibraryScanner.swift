import AssetsKit
import Foundation
import GRDB
import ImagePipeline
import LibraryFolders

/// Brings the index in line with the folder tree, adopting files in place (originals are only
/// ever read).
///
/// The tree is walked one folder at a time and each folder's listing is compared with what the
/// index holds for it, so memory never grows with the library. Only files new to the index or
/// whose size or modification time changed are read, on all cores; results are written in
/// batched transactions. A new path whose content fingerprint matches an asset whose path is
/// gone is that asset, moved: it keeps its row and identifier. Rows whose file is gone are
/// removed at the end. One bad file never stops a scan: it is recorded with its reason. A file
/// whose asset was purged (`ignored_path`) is passed over while it is the same version; once it
/// is gone or replaced, the path is forgotten and a new file there is adopted.
struct LibraryScanner: Sendable {
    let root: URL
    let database: LibraryDatabase
    let reader: any MediaMetadataReading
    /// Rows written per transaction.
    var batchSize = 500
    /// Files read at once.
    var width = max(1, ProcessInfo.processInfo.activeProcessorCount)
    var now: @Sendable () -> Date = { Date() }

    /// The mutable state of one run.
    private struct Run {
        var summary = ScanSummary()
        var batch = ScanBatch()
        var progress = ScanProgress(discovered: 0, processed: 0)
        /// Rows whose file was not found where the index has it.
        var missing: Set<Int64> = []
        var visitedDirectories: Set<String> = []
        /// Folders that could not be read: what the index holds under them is kept.
        var unreadableDirectories: [String] = []
    }

    func scan(progress report: (@Sendable (ScanProgress) -> Void)? = nil) async throws -> ScanSummary {
        StagingLeftovers.remove(under: root)
        var run = Run()
        var walk = try FolderEnumerator(root: root).directories()
        let claims = MoveClaims()
        try await withThrowingTaskGroup(of: ScanOutcome.self) { group in
            var inFlight = 0
            func take(_ outcome: ScanOutcome) async throws {
                inFlight -= 1
                run.batch.outcomes.append(outcome)
                switch outcome {
                case .read: run.summary.metadataReads += 1
                case .failed(let file, _, let reason, let didRead):
                    if didRead { run.summary.metadataReads += 1 }
                    run.summary.failed.append(ScanFailure(path: file.relativePath, reason: reason))
                case .moved: break
                }
                run.progress.processed += 1
                report?(run.progress)
                if run.batch.count >= batchSize { try await flush(&run) }
            }
            while let listing = walk.next() {
                try Task.checkCancellation()
                for work in try await plan(listing, &run) {
                    if inFlight >= width, let outcome = try await group.next() { try await take(outcome) }
                    group.addTask { [self] in await look(at: work, claims: claims) }
                    inFlight += 1
                }
                report?(run.progress)
            }
            while let outcome = try await group.next() { try await take(outcome) }
        }
        try await flush(&run)
        try await removeMissing(&run, keeping: claims.all)
        report?(run.progress)
        return run.summary
    }

    /// Compares one folder's listing with the index; returns the files to look at.
    private func plan(_ listing: DirectoryListing, _ run: inout Run) async throws -> [ScanWork] {
        run.visitedDirectories.insert(listing.path)
        if !listing.isComplete { run.unreadableDirectories.append(listing.path) }
        for skipped in listing.skipped {
            let failure = ScanFailure(path: skipped.path, reason: skipped.reason)
            run.batch.skipped.append((listing.path, failure))
            run.summary.failed.append(failure)
        }
        guard listing.isComplete else { return [] }
        let indexed = try await database.pool.read { db in try IndexedDirectory.fetch(db, path: listing.path) }
        var work: [ScanWork] = []
        var present: Set<String> = Set(listing.skipped.map(\.path))
        for file in listing.files {
            present.insert(file.relativePath)
            let version = IndexedDirectory.FileVersion(byteSize: file.byteSize, modificationTime: file.modificationTime)
            if let ignored = indexed.ignored[file.relativePath] {
                if ignored == version { continue }
                run.batch.clearedIgnores.append(file.relativePath)
            }
            run.summary.scanned += 1
            run.progress.discovered += 1
            if let asset = indexed.assets[file.relativePath] {
                if asset.version == version {
                    run.progress.processed += 1
                } else {
                    work.append(.changed(file, assetID: asset.id))
                }
            } else if let failure = indexed.failures[file.relativePath] {
                if failure.version == version {
                    run.summary.failed.append(ScanFailure(path: file.relativePath, reason: failure.reason))
                    run.progress.processed += 1
                } else {
                    work.append(.retry(file))
                }
            } else {
                work.append(.new(file))
            }
        }
        for (path, asset) in indexed.assets where !present.contains(path) { run.missing.insert(asset.id) }
        run.batch.clearedFailures += indexed.failures.keys.filter { !present.contains($0) }
        run.batch.clearedIgnores += indexed.ignored.keys.filter { !present.contains($0) }
        return work
    }

    /// Fingerprints a file, recognises a move, else reads its metadata. Never throws: a file
    /// that cannot be read is a failed outcome.
    private func look(at work: ScanWork, claims: MoveClaims) async -> ScanOutcome {
        let file = work.file
        let fingerprint: String
        do {
            fingerprint = try await BlockingWork.run { try FileFingerprint.of(file.url, byteSize: file.byteSize) }
        } catch {
            return .failed(file, assetID: work.assetID, reason: "\(error)", didRead: false)
        }
        if case .new = work, let moved = try? await movedAsset(withFingerprint: fingerprint, claims: claims) {
            return .moved(file, assetID: moved)
        }
        do {
            let metadata = try await reader.read(file.url, as: file.mediaType)
            return .read(file, assetID: work.assetID, metadata, fingerprint: fingerprint)
        } catch {
            return .failed(file, assetID: work.assetID, reason: "\(error)", didRead: true)
        }
    }

    /// The row of an asset with this content whose indexed path no longer holds a media file.
    private func movedAsset(withFingerprint fingerprint: String, claims: MoveClaims) async throws -> Int64? {
        let candidates = try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, relativePath FROM asset WHERE fingerprint = ?", arguments: [fingerprint])
                .map { (id: $0["id"] as Int64, path: $0["relativePath"] as String) }
        }
        for candidate in candidates where FileEntry.current(at: candidate.path, root: root) == nil {
            if claims.claim(candidate.id) { return candidate.id }
        }
        return nil
    }

    private func flush(_ run: inout Run) async throws {
        guard run.batch.count > 0 else { return }
        let batch = run.batch
        let addedAt = now()
        run.summary = try await database.pool.write { [summary = run.summary] db in
            var summary = summary
            try batch.apply(db, addedAt: addedAt, summary: &summary)
            return summary
        }
        run.batch = ScanBatch()
    }

    /// Removes the rows whose file is gone: not found in its folder, or in a folder that is
    /// gone (unless under a folder that could not be read), and not taken by a move.
    private func removeMissing(_ run: inout Run, keeping moved: Set<Int64>) async throws {
        let visited = run.visitedDirectories
        let unreadable = run.unreadableDirectories
        @Sendable func isGone(_ directory: String) -> Bool {
            !visited.contains(directory) && !unreadable.contains { directory.hasPrefix($0.isEmpty ? "" : $0 + "/") }
        }
        let (goneAssets, goneFailureDirectories, goneIgnoredDirectories) = try await database.pool.read { db in
            var assets: [Int64] = []
            for row in try Row.fetchAll(db, sql: "SELECT id, relativePath FROM directory") where isGone(row["relativePath"]) {
                assets += try Int64.fetchAll(db, sql: "SELECT id FROM asset WHERE directoryId = ?", arguments: [row["id"] as Int64])
            }
            let failures = try String.fetchAll(db, sql: "SELECT DISTINCT directoryPath FROM scan_failure").filter(isGone)
            let ignored = try String.fetchAll(db, sql: "SELECT DISTINCT directoryPath FROM ignored_path").filter(isGone)
            return (assets, failures, ignored)
        }
        let removals = Array(run.missing.union(goneAssets).subtracting(moved)).sorted()
        for start in stride(from: 0, to: removals.count, by: batchSize) {
            let chunk = Array(removals[start..<min(removals.count, start + batchSize)])
            run.summary.removed += try await database.pool.write { [root] db in
                // A file that appeared after its folder was read (an import committed meanwhile)
                // is not missing: only rows whose file is gone now are removed.
                let gone = try chunk.filter { id in
                    guard let path = try String.fetchOne(db, sql: "SELECT relativePath FROM asset WHERE id = ?", arguments: [id]) else {
                        return false
                    }
                    return access(root.path + "/" + path, F_OK) != 0
                }
                try ScanBatch.removeAssets(gone, db)
                return gone.count
            }
        }
        try await database.pool.write { db in
            for directory in goneFailureDirectories {
                try db.execute(sql: "DELETE FROM scan_failure WHERE directoryPath = ?", arguments: [directory])
            }
            for directory in goneIgnoredDirectories {
                try db.execute(sql: "DELETE FROM ignored_path WHERE directoryPath = ?", arguments: [directory])
            }
            try db.execute(sql: "DELETE FROM directory WHERE NOT EXISTS (SELECT 1 FROM asset WHERE asset.directoryId = directory.id)")
        }
    }
}
