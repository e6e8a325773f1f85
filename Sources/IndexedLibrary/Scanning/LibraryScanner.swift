import AssetsKit
import Foundation
import ImagePipeline
import LibraryTree
import MediaProbing

/// Brings the index in line with the originals' store (a ``ScanSource``: the folder tree, or a
/// bucket's objects), adopting files in place (originals are only ever read).
///
/// The store is walked one folder at a time and each folder's listing is compared with what the
/// index holds for it, so memory never grows with the library. Only files new to the index or
/// whose size or modification time changed are read, several at once; results are written in
/// batched transactions, each written while the next is gathered. A new path whose content fingerprint matches an asset whose path is
/// gone is that asset, moved: it keeps its row and identifier. Rows whose file is gone are
/// removed at the end. One bad file never stops a scan: it is recorded with its reason. A file
/// whose asset was purged (`ignored_path`) is passed over while it is the same version; once it
/// is gone or replaced, the path is forgotten and a new file there is adopted.
struct LibraryScanner: Sendable {
    let source: any ScanSource
    let index: any IndexStore
    let reader: any MediaMetadataReading
    /// Rows written per transaction.
    var batchSize = 500
    /// Files looked at at once: four per core, as much of a look at a small file is waiting (for
    /// the disk, for a thread to take the work back), not computing.
    var width = 4 * max(1, ProcessInfo.processInfo.activeProcessorCount)
    var now: @Sendable () -> Date = { Date() }

    /// The mutable state of one run.
    private struct Run {
        var summary = ScanSummary()
        var batch = ScanBatch()
        /// The batch being written while the next is gathered; what it adds, updates, moves and removes.
        var writing: Task<ScanSummary, any Error>?
        /// Whether the index held assets when the scan began: without any, no new file can be a move.
        var mayHoldMoves = true
        var progress = ScanProgress(discovered: 0, processed: 0)
        /// Rows whose file was not found where the index has it.
        var missing: Set<Int64> = []
        var visitedDirectories: Set<String> = []
        /// Folders that could not be read: what the index holds under them is kept.
        var unreadableDirectories: [String] = []
        /// Listed folders that are no album now (the root, once it holds no media files itself).
        var unlistedDirectories: [String] = []
    }

    func scan(progress report: (@Sendable (ScanProgress) -> Void)? = nil) async throws -> ScanSummary {
        source.removeLeftovers()
        var run = Run()
        run.mayHoldMoves = try await index.hasAssets()
        var walk = try source.walk()
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
            while let listing = try await walk.next() {
                for work in try await plan(listing, &run) {
                    if inFlight >= width, let outcome = try await group.next() { try await take(outcome) }
                    let mayBeMove = run.mayHoldMoves
                    group.addTask { [self] in try await look(at: work, mayBeMove: mayBeMove, claims: claims) }
                    inFlight += 1
                }
                report?(run.progress)
            }
            while let outcome = try await group.next() { try await take(outcome) }
        }
        try await flush(&run)
        try await finishWriting(&run)
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
        let indexed = try await index.indexedDirectory(at: listing.path)
        // Every folder is an album, empty or not, as on the folder backend; the root only while
        // it holds media files itself (else its files are only the camera roll's).
        let isAlbum = !listing.path.isEmpty || !listing.files.isEmpty
        if isAlbum, !indexed.isRecorded { run.batch.folders.append(listing.path) }
        if !isAlbum, indexed.isRecorded { run.unlistedDirectories.append(listing.path) }
        var work: [ScanWork] = []
        // A path passed over (a link out of the library, a special file) keeps its failure
        // recorded but is no file of the library: an asset there is missing.
        var present: Set<String> = Set(listing.skipped.map(\.path))
        var listed: Set<String> = []
        for file in listing.files {
            present.insert(file.relativePath)
            listed.insert(file.relativePath)
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
        for (path, asset) in indexed.assets where !listed.contains(path) { run.missing.insert(asset.id) }
        run.batch.clearedFailures += indexed.failures.keys.filter { !present.contains($0) }
        run.batch.clearedIgnores += indexed.ignored.keys.filter { !present.contains($0) }
        return work
    }

    /// Fingerprints a file, recognises a move (when `mayBeMove`), else reads its metadata. A file
    /// that cannot be read is a failed outcome; only a ``ScanInterruption`` (the store, not the
    /// file) or the task's cancellation is thrown, and stops the scan.
    private func look(at work: ScanWork, mayBeMove: Bool, claims: MoveClaims) async throws -> ScanOutcome {
        let file = work.file
        let fingerprint: String
        do {
            fingerprint = try await source.fingerprint(of: file)
        } catch let interruption as any ScanInterruption {
            throw interruption
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return .failed(file, assetID: work.assetID, reason: "\(error)", didRead: false)
        }
        if case .new = work, mayBeMove, let moved = try? await movedAsset(withFingerprint: fingerprint, claims: claims) {
            return .moved(file, assetID: moved)
        }
        do {
            let metadata = try await source.metadata(of: file, reader: reader)
            return .read(file, assetID: work.assetID, metadata, fingerprint: fingerprint)
        } catch let interruption as any ScanInterruption {
            throw interruption
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return .failed(file, assetID: work.assetID, reason: "\(error)", didRead: true)
        }
    }

    /// The row of an asset with this content whose indexed path no longer holds a media file.
    private func movedAsset(withFingerprint fingerprint: String, claims: MoveClaims) async throws -> Int64? {
        let candidates = try await index.assets(withFingerprint: fingerprint)
        for candidate in candidates where !(await source.holdsFile(at: candidate.path)) {
            if claims.claim(candidate.id) { return candidate.id }
        }
        return nil
    }

    /// Starts writing the batch gathered, once the one before it is written: the files of the
    /// next batch are looked at while this one is written.
    private func flush(_ run: inout Run) async throws {
        guard run.batch.count > 0 else { return }
        try await finishWriting(&run)
        let batch = run.batch
        run.batch = ScanBatch()
        run.writing = Task { [index, addedAt = now()] in
            try await index.apply(batch, addedAt: addedAt, summary: ScanSummary())
        }
    }

    /// Waits for the batch being written, if any, and counts what it did into the summary.
    private func finishWriting(_ run: inout Run) async throws {
        guard let writing = run.writing else { return }
        run.writing = nil
        let written = try await writing.value
        run.summary.added += written.added
        run.summary.updated += written.updated
        run.summary.moved += written.moved
        run.summary.removed += written.removed
    }

    /// Removes the rows whose file is gone: not found in its folder, or in a folder that is
    /// gone (unless under a folder that could not be read), and not taken by a move; then the
    /// folders that are gone or no album now.
    private func removeMissing(_ run: inout Run, keeping moved: Set<Int64>) async throws {
        let visited = run.visitedDirectories
        let unreadable = run.unreadableDirectories
        let leftovers = try await index.leftovers { directory in
            !visited.contains(directory) && !unreadable.contains { directory.hasPrefix($0.isEmpty ? "" : $0 + "/") }
        }
        let removals = Array(run.missing.union(leftovers.assets).subtracting(moved)).sorted()
        for start in stride(from: 0, to: removals.count, by: batchSize) {
            let chunk = Array(removals[start..<min(removals.count, start + batchSize)])
            // A file that appeared after its folder was read (an import committed meanwhile)
            // is not missing: only rows with no media file of the library at their path now
            // (gone, or a directory or a link out in its place) are removed.
            run.summary.removed += try await index.removeAssets(chunk) { [source] path in !source.holdsFileNow(at: path) }
        }
        try await index.forget(failureFolders: leftovers.failureFolders, ignoredFolders: leftovers.ignoredFolders,
                               directories: leftovers.directories + run.unlistedDirectories)
    }
}
