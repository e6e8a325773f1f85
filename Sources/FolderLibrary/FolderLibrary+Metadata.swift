import AssetsKit
import Foundation
import LibraryTree
import MediaProbing

extension FolderLibrary {
    /// One walk of the tree (listing again only the folders that changed), shared by the
    /// calls that answer one request.
    func snapshot() async throws -> FolderSnapshot {
        FolderSnapshot(folders: try await cache.walk(), libraryName: rootURL.lastPathComponent, rootPath: rootURL.path)
    }

    /// Reads the metadata not yet known of the files of `folders` that pass `filter`, on all
    /// cores, into the snapshot and the cache (saved when it has a file), unless more than
    /// ``synchronousReadLimit`` are unread and the caller `mayBeProvisional`: then it reads
    /// none, starts reading them in the background and returns `false`, and the caller answers
    /// provisionally (see ``FolderLibrary``). Returns `true` when the snapshot is exact.
    func readMetadata(of snapshot: inout FolderSnapshot, folders: [Int], filter: MediaFilter, mayBeProvisional: Bool = true) async throws -> Bool {
        guard !mayBeProvisional || snapshot.unreadCount(in: folders, filter: filter) <= synchronousReadLimit else {
            startBackgroundReads()
            return false
        }
        var unread: [FolderSnapshot.Item] = []
        for folderIndex in folders {
            let files = snapshot.folders[folderIndex].files
            for fileIndex in files.indices where files[fileIndex].state == .unread && filter.includes(files[fileIndex].mediaType) {
                unread.append(FolderSnapshot.Item(folder: folderIndex, file: fileIndex, creationDate: .distantPast, isRead: false))
            }
        }
        try await read(unread, into: &snapshot)
        await saveCache()
        return true
    }

    /// Writes the cache file when it changed, unless reads are under way in the background
    /// (the background pass saves it when it ends).
    func saveCache() async {
        guard !background.isRunning else { return }
        await cache.save()
    }

    /// Reads the files of `items` not read yet, on all cores, into the snapshot and the cache.
    func read(_ items: [FolderSnapshot.Item], into snapshot: inout FolderSnapshot) async throws {
        let unread = items.filter { snapshot.folders[$0.folder].files[$0.file].state == .unread }
        let readings = try await read(unread.map { (snapshot.folders[$0.folder].listing.path, $0.file, snapshot.folders[$0.folder].files[$0.file]) })
        for (item, reading) in zip(unread, readings) {
            snapshot.folders[item.folder].files[item.file].version = reading.version
            snapshot.folders[item.folder].files[item.file].outcome = reading.outcome
        }
        await cache.store(readings)
    }

    /// Reads (or takes from the cache) the metadata of `files` and makes assets of those that
    /// are readable (with their files, in the same order). One bad file never stops the others: it is passed over with its reason.
    func assets(of files: [FileEntry]) async throws -> (scan: FolderScan, files: [FileEntry]) {
        var outcomes: [(FileEntry, FolderCache.Outcome)] = []
        var unread: [FileEntry] = []
        for file in files {
            if let cached = await cache.outcome(for: file) { outcomes.append((file, cached)) } else { unread.append(file) }
        }
        let readings = try await read(unread.map { (directory: $0.directory, index: -1, file: CachedFile(name: $0.filename, mediaType: $0.mediaType)) })
        await cache.store(readings)
        await saveCache()
        for (file, reading) in zip(unread, readings) {
            // The version read now wins over the one the caller had.
            let current = reading.version.map {
                FileEntry(relativePath: file.relativePath, directory: file.directory, rootPath: file.rootPath, mediaType: file.mediaType,
                          byteSize: $0.byteSize, modificationTime: $0.modificationTime)
            } ?? file
            outcomes.append((current, reading.outcome))
        }
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

    /// Reads the metadata of `files` (each in its folder, by position there), `width` at once, each
    /// after a `stat` that gives its version. The readings are in the order of `files`.
    func read(_ files: [(directory: String, index: Int, file: CachedFile)],
              width: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)) async throws -> [FolderCache.Reading] {
        guard !files.isEmpty else { return [] }
        let rootPath = rootURL.path
        return try await withThrowingTaskGroup(of: (Int, FolderCache.Reading).self) { group in
            var next = files.enumerated().makeIterator()
            func addNext() {
                guard let (position, (directory, index, file)) = next.next() else { return }
                group.addTask { [metadataReading] in
                    let path = directory.isEmpty ? rootPath + "/" + file.name : rootPath + "/" + directory + "/" + file.name
                    var status = stat()
                    let outcome: FolderCache.Outcome
                    var version: FileVersion?
                    if stat(path, &status) != 0 {
                        outcome = .failure(FolderCache.ReadFailure(reason: "cannot read: \(String(cString: strerror(errno)))"))
                    } else {
                        version = FileVersion(status)
                        do {
                            outcome = .success(try await metadataReading.read(URL(fileURLWithPath: path, isDirectory: false), as: file.mediaType))
                        } catch {
                            outcome = .failure(FolderCache.ReadFailure(reason: "\(error)"))
                        }
                    }
                    return (position, FolderCache.Reading(directory: directory, index: index, name: file.name, version: version, outcome: outcome))
                }
            }
            for _ in 0..<width { addNext() }
            var readings = [FolderCache.Reading?](repeating: nil, count: files.count)
            while let (position, reading) = try await group.next() {
                readings[position] = reading
                addNext()
            }
            return readings.compactMap { $0 }
        }
    }

    /// The assets of `files`, remembered by UUID so that a later lookup or image request
    /// finds their files without a walk.
    func handOut(_ assets: [(asset: Asset, file: FileEntry)]) async -> [Asset] {
        handedOutAssetCount.add(assets.count, ordering: .relaxed)
        await cache.remember(assets.map { ($0.asset.id.uuid, $0.file.relativePath) })
        return assets.map(\.asset)
    }

    static func asset(_ file: FileEntry, _ metadata: MediaMetadata) -> Asset {
        let uuid = AssetUUID.forFile(atRelativePath: file.relativePath)
        let filename = file.filename
        // As `NSString.pathExtension` has it: none for a name that only starts with a dot.
        let ext = filename.utf8.lastIndex(of: UInt8(ascii: ".")).flatMap { dot in
            dot == filename.utf8.startIndex ? nil : String(filename[filename.utf8.index(after: dot)...])
        } ?? ""
        return Asset(id: .legacy(LegacyAssetURL(uuid: uuid, fileExtension: ext)), filename: filename,
                     modificationDate: file.modificationDate, byteSize: file.byteSize, metadata: metadata)
    }
}
