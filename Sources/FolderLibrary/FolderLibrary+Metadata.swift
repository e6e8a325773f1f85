import AssetsKit
import Foundation
import LibraryFolders
import MediaProbing

extension FolderLibrary {
    /// Reads (or takes from the cache) the metadata of `files`, on all cores, and makes assets
    /// of those that are readable. One bad file never stops the others: it is passed over with
    /// its reason.
    func assets(of files: [FileEntry]) async throws -> FolderScan {
        var outcomes: [(FileEntry, Result<MediaMetadata, MetadataCache.ReadFailure>)] = []
        var unread: [FileEntry] = []
        for file in files {
            if let cached = await cache.outcome(for: file) { outcomes.append((file, cached)) } else { unread.append(file) }
        }
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        try await withThrowingTaskGroup(of: (FileEntry, Result<MediaMetadata, MetadataCache.ReadFailure>).self) { group in
            var next = unread.makeIterator()
            func addNext() {
                guard let file = next.next() else { return }
                group.addTask { [reader] in
                    do {
                        return (file, .success(try await reader.read(file.url, as: file.mediaType)))
                    } catch {
                        return (file, .failure(MetadataCache.ReadFailure(reason: "\(error)")))
                    }
                }
            }
            for _ in 0..<width { addNext() }
            while let (file, outcome) = try await group.next() {
                await cache.store(outcome, for: file)
                outcomes.append((file, outcome))
                addNext()
            }
        }
        var scan = FolderScan(assets: [], skipped: [])
        for (file, outcome) in outcomes {
            switch outcome {
            case .success(let metadata): scan.assets.append(Self.asset(file, metadata))
            case .failure(let failure): scan.skipped.append(SkippedFile(path: file.relativePath, reason: failure.reason))
            }
        }
        return scan
    }

    static func asset(_ file: FileEntry, _ metadata: MediaMetadata) -> Asset {
        let uuid = AssetUUID.forFile(atRelativePath: file.relativePath)
        let ext = file.url.pathExtension
        return Asset(id: .legacy(LegacyAssetURL(uuid: uuid, fileExtension: ext)), filename: file.filename,
                     modificationDate: file.modificationDate, byteSize: file.byteSize, metadata: metadata)
    }
}
