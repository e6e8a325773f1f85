import AssetsKit
import Foundation
import LibraryTree

extension FolderLibrary: BackgroundSettling {
    /// Waiting for the metadata read in the background (see "Provisional answers" in ``FolderLibrary``).
    public var backgroundSettling: (any BackgroundSettling)? { self }

    /// Returns once no metadata is being read in the background: from then on, until the tree
    /// changes, every answer is exact (see "Provisional answers" in ``FolderLibrary``).
    public func settled() async {
        await background.waitUntilIdle()
    }

    /// Starts reading, in the background, the metadata of every file not read yet, unless that
    /// is under way (it then looks again before it ends).
    func startBackgroundReads() {
        guard background.begin() else { return }
        Task.detached(priority: .utility) { [weak self] in await self?.readInBackground() }
    }

    /// Reads the unread files a batch at a time, on all cores, into the cache; saves the cache
    /// and announces a change to the listeners when a pass read any file.
    private func readInBackground() async {
        repeat {
            // Per folder read, the files found unreadable (counted by their names until read).
            var unreadable: [String: Set<AssetIdentifier>] = [:]
            var cursor: FolderCache.ReadCursor?
            while !Task.isCancelled {
                // Answers come first: a batch starts only while no call is being answered.
                await background.waitUntilNoCallIsAnswered()
                let (batch, next) = await cache.unreadFiles(limit: Self.backgroundBatchSize, from: cursor)
                cursor = next
                // One core is left to the answers.
                guard !batch.isEmpty, let readings = try? await read(batch, width: max(1, ProcessInfo.processInfo.activeProcessorCount - 1)) else {
                    break
                }
                await cache.store(readings)
                for reading in readings {
                    guard case .failure = reading.outcome else {
                        unreadable[reading.directory, default: []].formUnion([])
                        continue
                    }
                    let path = reading.directory.isEmpty ? reading.name : reading.directory + "/" + reading.name
                    unreadable[reading.directory, default: []].insert(.legacy(LegacyAssetURL(
                        uuid: AssetUUID.forFile(atRelativePath: path), fileExtension: (reading.name as NSString).pathExtension)))
                }
            }
            await cache.save()
            if !unreadable.isEmpty { announce(unreadable) }
            // Folders listed again behind the cursor during the pass are looked at by the next one.
        } while await cache.hasUnreadFiles() || background.shouldContinue()
    }

    /// Tells the listeners that the folders in `unreadable` were read: their counts, key assets
    /// and order may have changed, and the files found unreadable are no longer counted.
    private func announce(_ unreadable: [String: Set<AssetIdentifier>]) {
        let removed = unreadable.values.reduce(into: Set<AssetIdentifier>()) { $0.formUnion($1) }
        var collections: [CollectionIdentifier: CollectionChange] = [Self.cameraRollID: CollectionChange(removed: removed)]
        for (folder, files) in unreadable { collections[Self.collectionID(ofDirectory: folder)] = CollectionChange(removed: files) }
        background.announce(collections: collections, removed: removed)
    }

    /// How many files a background batch reads before it stores them and lets a call be answered.
    static let backgroundBatchSize = 32

    /// Answers a call: reads in the background wait while it runs.
    func answering<Answer>(_ body: () async throws -> Answer) async rethrows -> Answer {
        background.callStarted()
        defer { background.callEnded() }
        return try await body()
    }
}
