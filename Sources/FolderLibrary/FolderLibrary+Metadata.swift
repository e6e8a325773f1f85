import AssetsKit
import Foundation
import LibraryFolders
import MediaProbing

extension FolderLibrary {
    /// One walk of the tree (listing again only the folders that changed), shared by the
    /// calls that answer one request.
    func snapshot() async throws -> FolderSnapshot {
        FolderSnapshot(folders: try await cache.walk(), libraryName: rootURL.lastPathComponent)
    }

    /// Reads the metadata not yet known of the files of `folders` that pass `filter`, on all
    /// cores, into the snapshot and the cache (saved when it has a file).
    func readMetadata(of snapshot: inout FolderSnapshot, folders: [Int], filter: MediaFilter) async throws {
        var unread: [(folder: Int, file: Int, entry: FileEntry)] = []
        for folderIndex in folders {
            let folder = snapshot.folders[folderIndex]
            for (fileIndex, file) in folder.listing.files.enumerated() where folder.outcomes[fileIndex] == nil && filter.includes(file.mediaType) {
                unread.append((folderIndex, fileIndex, file))
            }
        }
        let outcomes = try await read(unread.map(\.entry))
        for (position, outcome) in outcomes {
            let (folder, file, _) = unread[position]
            snapshot.folders[folder].outcomes[file] = outcome
        }
        await cache.store(outcomes.map { (unread[$0.0].entry, unread[$0.0].file, $0.1) })
        await cache.save()
    }

    /// Reads (or takes from the cache) the metadata of `files` and makes assets of those that
    /// are readable (with their files, in the same order). One bad file never stops the others: it is passed over with its reason.
    func assets(of files: [FileEntry]) async throws -> (scan: FolderScan, files: [FileEntry]) {
        var outcomes: [(FileEntry, FolderCache.Outcome)] = []
        var unread: [FileEntry] = []
        for file in files {
            if let cached = await cache.outcome(for: file) { outcomes.append((file, cached)) } else { unread.append(file) }
        }
        let read = try await read(unread)
        await cache.store(read.map { (unread[$0.0], nil, $0.1) })
        await cache.save()
        outcomes += read.map { (unread[$0.0], $0.1) }
        var scan = FolderScan(assets: [], skipped: [])
        var assetFiles: [FileEntry] = []
        for (file, outcome) in outcomes {
            switch outcome {
            case .success(let metadata):
                scan.assets.append(Self.asset(file, metadata))
                assetFiles.append(file)
            case .failure(let failure): scan.skipped.append(SkippedFile(path: file.relativePath, reason: failure.reason))
            }
        }
        return (scan, assetFiles)
    }

    /// The metadata outcome of each of `files`, by position in `files`, read on all cores.
    private func read(_ files: [FileEntry]) async throws -> [(Int, FolderCache.Outcome)] {
        guard !files.isEmpty else { return [] }
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return try await withThrowingTaskGroup(of: (Int, FolderCache.Outcome).self) { group in
            var next = files.enumerated().makeIterator()
            func addNext() {
                guard let (position, file) = next.next() else { return }
                group.addTask { [metadataReading] in
                    do {
                        return (position, .success(try await metadataReading.read(file.url, as: file.mediaType)))
                    } catch {
                        return (position, .failure(FolderCache.ReadFailure(reason: "\(error)")))
                    }
                }
            }
            for _ in 0..<width { addNext() }
            var outcomes: [(Int, FolderCache.Outcome)] = []
            outcomes.reserveCapacity(files.count)
            while let outcome = try await group.next() {
                outcomes.append(outcome)
                addNext()
            }
            return outcomes
        }
    }

    /// The assets of `files`, remembered by UUID so that a later lookup or image request
    /// finds their files without a walk.
    func handOut(_ assets: [(asset: Asset, file: FileEntry)]) async -> [Asset] {
        await cache.remember(assets.map { ($0.asset.id.uuid, $0.file.relativePath) })
        return assets.map(\.asset)
    }

    static func asset(_ file: FileEntry, _ metadata: MediaMetadata) -> Asset {
        let uuid = AssetUUID.forFile(atRelativePath: file.relativePath)
        let ext = (file.relativePath as NSString).pathExtension
        return Asset(id: .legacy(LegacyAssetURL(uuid: uuid, fileExtension: ext)), filename: file.filename,
                     modificationDate: file.modificationDate, byteSize: file.byteSize, metadata: metadata)
    }
}
