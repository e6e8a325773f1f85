import AssetsKit
import Foundation

extension FolderLibrary {
    /// The album list from one walk of the tree: the camera roll and every folder with its
    /// count under `filter` and its key asset (its oldest), as the default loop over
    /// ``assetCount(in:filter:)`` and ``keyAsset(of:filter:)`` answers, in one pass over the files.
    /// Provisional while files are read in the background (see ``FolderLibrary``): files not
    /// read yet are counted by name, and an album's key asset is the oldest of its files read
    /// so far (none when none was).
    public func albumSummaries(filter: MediaFilter) async throws -> [AlbumSummary] {
        try await answering {
            var snapshot = try await snapshot()
            let isExact = try await readMetadata(of: &snapshot, folders: Array(snapshot.folders.indices), filter: filter)
            var oldest: [FolderSnapshot.Item?] = Array(repeating: nil, count: snapshot.folders.count)
            var counts = Array(repeating: 0, count: snapshot.folders.count)
            snapshot.forEachItem(in: Array(snapshot.folders.indices), filter: filter, includingUnread: !isExact) { item in
                counts[item.folder] += 1
                // A provisional key asset is the oldest of the files read so far.
                guard item.isRead else { return }
                if let current = oldest[item.folder], !snapshot.precedes(item, current, in: .oldestFirst) { return }
                oldest[item.folder] = item
            }
            var rollKey: FolderSnapshot.Item?
            for case let item? in oldest where rollKey.map({ snapshot.precedes(item, $0, in: .oldestFirst) }) ?? true {
                rollKey = item
            }
            var keys = [rollKey].compactMap { $0 }
            let albums = snapshot.albumFolders
            keys += albums.compactMap { oldest[$0] }
            let keyAssets = await handOut(keys.map { (snapshot.asset($0), snapshot.file($0)) })
            var keyByFolder: [Int: Asset] = [:]
            for (item, asset) in zip(keys, keyAssets) { keyByFolder[item.folder] = asset }
            let roll = AlbumSummary(collection: cameraRollCollection(estimatedCount: snapshot.fileCount),
                                    count: counts.reduce(0, +), keyAsset: rollKey.flatMap { keyByFolder[$0.folder] })
            return [roll] + albums.map { folder in
                AlbumSummary(collection: snapshot.collection(ofFolder: folder), count: counts[folder], keyAsset: keyByFolder[folder])
            }
        }
    }
}
