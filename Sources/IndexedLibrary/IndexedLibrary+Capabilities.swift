import AssetsKit
import MediaProbing

/// What an indexed library can do beyond reading: changes (when its folder can be written),
/// its change history, scans and drafts (kept in the index, so also over read-only media),
/// watching its folder (or listing its bucket again), and saying which originals are here.
extension IndexedLibrary: LibraryChanging, LibraryChangeHistory, LibraryIndexing, LibraryDrafts, LibraryWatching, RemoteOriginals {
    public var changing: (any LibraryChanging)? { isWritable ? self : nil }
    public var changeHistory: (any LibraryChangeHistory)? { self }
    public var indexing: (any LibraryIndexing)? { self }
    public var drafts: (any LibraryDrafts)? { self }
    public var watching: (any LibraryWatching)? { self }
    /// Previews are made (``makePreviews(progress:)``) when the index has a place for them.
    public var previewing: (any LibraryPreviewing)? { previews == nil ? nil : self }
    /// When its store keeps originals elsewhere (it has a fetcher).
    public var remoteOriginals: (any RemoteOriginals)? { originals.fetcher == nil ? nil : self }

    /// Imports are copied into the library folder, so they are taken whenever changes are.
    public var acceptsImports: Bool { isWritable }

    /// Starts a ``LibraryWatcher`` with the default ``LibraryWatcher/Configuration``; over a
    /// store that is listed again rather than watched (`OriginalsStore.rescanInterval`, a
    /// bucket), one that rescans at that interval, without inotify.
    public func startWatching(report: @escaping @Sendable (LibraryWatchEvent) -> Void) async -> any LibraryWatch {
        let root = placeDescription
        var configuration = LibraryWatcher.Configuration()
        if let interval = originals.rescanInterval {
            configuration.usesInotify = false
            configuration.pollingInterval = interval
            configuration.pollingReason = "its originals are kept elsewhere and listed again"
        }
        let isPolledByDesign = originals.rescanInterval != nil
        let watcher = LibraryWatcher(library: self, configuration: configuration) { event in
            report(event.watchEvent(root: root, isPolledByDesign: isPolledByDesign))
        }
        await watcher.start()
        return watcher
    }
}

extension IndexedLibrary {
    /// Those of `assets` whose original is in its local place now (all of them, when the store
    /// keeps every original on this machine); one index query.
    public func localOriginals(of assets: [Asset]) async throws -> Set<AssetIdentifier> {
        guard let fetcher = originals.fetcher else { return Set(assets.map(\.id)) }
        let records = try await index.records(uuids: assets.map(\.id.uuid))
        var local: Set<AssetIdentifier> = []
        for asset in assets {
            guard let record = records[asset.id.uuid] else { continue }
            if fetcher.isLocal(try await originalLocation(of: record)) { local.insert(asset.id) }
        }
        return local
    }
}

extension LibraryWatcher: LibraryWatch {}

extension LibraryWatcherEvent {
    /// The event as a line of a log about the library at `root`; polling is routine for a store
    /// that is listed again by design (`isPolledByDesign`), a warning otherwise.
    func watchEvent(root: String, isPolledByDesign: Bool = false) -> LibraryWatchEvent {
        switch self {
        case .watching: LibraryWatchEvent(.routine, "Watching \(root) for changes (\(self))")
        case .polling: LibraryWatchEvent(isPolledByDesign ? .routine : .warning, "\(root): \(self)")
        case .overflowed: LibraryWatchEvent(.warning, "\(root): \(self)")
        case .rescanned(_, let summary):
            // A periodic rescan, or the one at start, that found nothing is not news.
            LibraryWatchEvent(summary.added + summary.updated + summary.moved + summary.removed > 0 ? .notable : .routine, "\(self)")
        case .rescanFailed: LibraryWatchEvent(.failure, "\(self)")
        case .stopped: LibraryWatchEvent(.routine, "\(self)")
        }
    }
}

extension IndexedLibrary {
    /// The original of `asset` passed on as its store's fetcher brings it
    /// (`ArrivingOriginalReader`); `nil` when it is in its local place, or the store keeps
    /// every original here.
    public func arrivingOriginal(of asset: Asset) async throws -> ArrivingOriginal? {
        let record = try await record(of: asset)
        let location = try await originalLocation(of: record)
        guard let fetcher = originals.fetcher, !fetcher.isLocal(location) else { return nil }
        let reader = ArrivingOriginalReader(location: location, fetcher: fetcher)
        try await reader.awaitStart()
        return ArrivingOriginal(filename: record.filename, byteSize: record.byteSize,
                                contentType: MediaFileType.mimeType(ofFileNamed: record.filename),
                                nextChunk: { try await reader.next() })
    }
}
