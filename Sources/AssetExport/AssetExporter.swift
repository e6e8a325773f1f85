import AssetsKit
import Foundation
import ImagePipeline
import Synchronization

/// Exports assets to a folder: originals copied, or renditions made one per core at a time,
/// each streamed to its file and released before the next starts, so memory stays flat
/// however many assets there are. One asset that fails is reported and the rest go on.
///
/// The work runs on threads of the exporter's own, one per core: each renders, writes and
/// renames export after export, taking the next from an ``ExportQueue`` that the async side
/// keeps one export ahead per thread (the asset's file looked up and its name claimed), so a
/// core never waits for the async side between two photos.
public struct AssetExporter: Sendable {
    public let library: any PhotoLibrary
    public let renderer: ImageRenderer

    public init(library: any PhotoLibrary, renderer: ImageRenderer = ImageRenderer()) {
        self.library = library
        self.renderer = renderer
    }

    /// One export made ready for a thread: where from (the original, open), where to.
    struct Job: Sendable {
        var asset: Asset
        var original: OpenOriginal
        var file: URL
    }

    typealias Outcome = Result<ExportReport.Item, ExportReport.Failure>

    /// Exports `assets` (loaded a page at a time) into `directory`, named after their files. An
    /// original kept elsewhere (a bucket) is fetched when its turn comes, one at a time, and
    /// `progress` hears how far that transfer is (``ExportProgress/fetching``) as well as how many
    /// assets are done.
    public func export(_ assets: FetchResult, to directory: URL, options: ExportOptions,
                       progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) async throws -> ExportReport {
        let total = assets.count
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let started = ContinuousClock.now
        var names = ExportFileNames(directory: directory)
        var report = ExportReport()
        // Bytes of originals fetched by finished transfers; the counts as last reported.
        let fetched = Mutex<(bytes: Int64, counts: ExportProgress)>((0, ExportProgress(completed: 0, failed: 0, total: total)))
        func collect(_ outcome: Outcome) {
            switch outcome {
            case .success(let item): report.exported.append(item)
            case .failure(let failure): report.failed.append(failure)
            }
            let now = fetched.withLock { fetched in
                fetched.counts.completed = report.exported.count
                fetched.counts.failed = report.failed.count
                fetched.counts.fetchedBytes = fetched.bytes
                return fetched.counts
            }
            progress(now)
        }
        // An original kept elsewhere is fetched as its export is prepared, one at a time, its
        // progress told as it comes.
        @Sendable func transfer(of asset: Asset) -> OriginalRequest {
            OriginalRequest(isNetworkAccessAllowed: true) { step in
                let now = fetched.withLock { fetched in
                    var counts = fetched.counts
                    counts.fetching = ExportProgress.OriginalTransfer(filename: asset.filename, progress: step)
                    counts.fetchedBytes = fetched.bytes + step.received
                    if step.received >= step.total { fetched.bytes += step.total }
                    return counts
                }
                progress(now)
            }
        }
        let width = options.concurrency > 0 ? options.concurrency : ProcessInfo.processInfo.activeProcessorCount
        let queue = ExportQueue<Job>()
        let (outcomes, delivery) = AsyncStream<Outcome>.makeStream()
        for lane in 0..<min(width, max(total, 1)) {
            let thread = Thread { [self] in
                Thread.current.name = "export \(lane + 1)"
                while let (job, isCancelled) = queue.take() {
                    delivery.yield(isCancelled ? .failure(ExportReport.Failure(id: job.asset.id.description, reason: "cancelled"))
                                               : export(job, options: options))
                }
            }
            thread.start()
        }
        var results = outcomes.makeAsyncIterator()
        var queued = 0, collected = 0
        try await withTaskCancellationHandler {
            do {
                for try await asset in assets {
                    report.originalBytes += asset.byteSize
                    // One job rendering and one waiting per thread: enough that no thread waits,
                    // few enough that a cancelled export stops soon.
                    while queued - collected >= 2 * width, let outcome = await results.next() {
                        collected += 1
                        collect(outcome)
                    }
                    let file = names.claim(for: asset, options: options)
                    do {
                        let original = try await library.originalFile(for: asset, request: transfer(of: asset)).file
                        Self.readAhead(original)
                        queue.put(Job(asset: asset, original: original, file: file))
                        queued += 1
                    } catch {
                        collect(.failure(ExportReport.Failure(id: asset.id.description, reason: "\(error)")))
                    }
                }
            } catch {
                // The threads finish what they hold before the error goes up: nothing is
                // left half-written behind it.
                queue.cancel()
                queue.close()
                while collected < queued, await results.next() != nil { collected += 1 }
                throw error
            }
            queue.close()
            while collected < queued, let outcome = await results.next() {
                collected += 1
                collect(outcome)
            }
        } onCancel: {
            queue.cancel()
        }
        report.seconds = (ContinuousClock.now - started).seconds
        return report
    }

    /// Makes one export, on an export thread: renders or copies the open original (read
    /// through its descriptor, never by its path) into a hidden file next to the destination and
    /// gives it its name without replacing a file, so no partial file is ever seen under the
    /// asset's name.
    private func export(_ job: Job, options: ExportOptions) -> Outcome {
        let file = job.file, original = job.original
        // Short whatever the asset's name: a 255-byte name with a suffix would be too long.
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".export-\(UUID().uuidString).part")
        do {
            var size: PixelSize?
            var bytes: Int64
            do {
                if options.original || job.asset.mediaType == .video {
                    bytes = try Self.copy(original, to: temporary)
                } else {
                    let result = try withExtendedLifetime(original) {
                        do {
                            return if let target = options.size {
                                try renderer.render(original.url, size: target, mode: options.contentMode, format: options.format,
                                                    quality: options.quality, resizeMode: options.resizeMode)
                            } else {
                                try renderer.fullResolution(original.url, format: options.format, quality: options.quality)
                            }
                        } catch {
                            throw original.naming(error)
                        }
                    }
                    try Self.write(result.data, to: temporary)
                    size = result.pixelSize
                    bytes = Int64(result.data.count)
                }
                try Self.name(temporary, file)
            } catch {
                unlink(temporary.path)
                throw error
            }
            return .success(ExportReport.Item(id: job.asset.id.description, file: file.path, byteSize: bytes,
                                              pixelWidth: size?.width, pixelHeight: size?.height))
        } catch {
            return .failure(ExportReport.Failure(id: job.asset.id.description, reason: "\(error)"))
        }
    }
}

extension AssetExporter {
    /// Writes `data` to a new file, as `cp` and `vipsthumbnail` write theirs. Not with
    /// `Data.write(to:)`, which on Linux ends every file with an `fsync`: the thread then sat
    /// waiting for the disk for each thumbnail (most of the idle time of a two-core export).
    static func write(_ data: Data, to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw writeError(file) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { try write($0, to: descriptor, file) }
    }

    /// Writes all of `bytes` to the open `descriptor` of `file`.
    private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, _ file: URL) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw writeError(file)
            }
            offset += written
        }
    }

    /// Copies the open `original` to a new file, from its descriptor, and checks that it was
    /// not written to meanwhile.
    /// - Returns: The bytes copied.
    static func copy(_ original: OpenOriginal, to file: URL) throws -> Int64 {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw writeError(file) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { pread(original.descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw LibraryError.originalUnavailable(file: original.filename) }
            if read == 0 { break }
            try buffer.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[..<read]), to: descriptor, file) }
            offset += Int64(read)
        }
        var status = stat()
        guard fstat(original.descriptor, &status) == 0, Int64(status.st_size) == original.byteSize, offset == original.byteSize,
              Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec) == original.modificationTime else {
            throw LibraryError.originalUnavailable(file: original.filename)
        }
        return offset
    }

    /// Gives the finished `temporary` file the name `file`, never replacing one: a hard link,
    /// then the temporary name removed; where the file system has no hard links (FAT), a rename
    /// once no file has that name.
    static func name(_ temporary: URL, _ file: URL) throws {
        if link(temporary.path, file.path) == 0 {
            unlink(temporary.path)
            return
        }
        guard errno != EEXIST else { throw writeError(file) }
        do {
            try FileManager.default.moveItem(at: temporary, to: file)
        } catch {
            throw LibraryError.unreadableFile(path: file.path, reason: "cannot move the export into place: \(error.localizedDescription)")
        }
    }

    /// Asks the kernel to start reading `original` now, so that a photo not in the page cache is
    /// read from disk while the photos before it render, not when its thread gets to it.
    static func readAhead(_ original: OpenOriginal) {
        posix_fadvise(original.descriptor, 0, 0, POSIX_FADV_WILLNEED)
    }

    private static func writeError(_ file: URL) -> LibraryError {
        .unreadableFile(path: file.path, reason: "cannot write the export: \(String(cString: strerror(errno)))")
    }
}
