import AssetsKit
import Foundation
import ImagePipeline

/// Exports assets to a folder: originals copied, or renditions made one per core at a time,
/// each streamed to its file and released before the next starts, so memory stays flat
/// however many assets there are. One asset that fails is reported and the rest go on.
public struct AssetExporter: Sendable {
    public let library: any PhotoLibrary
    public let renderer: ImageRenderer

    public init(library: any PhotoLibrary, renderer: ImageRenderer = ImageRenderer()) {
        self.library = library
        self.renderer = renderer
    }

    /// Exports `assets` (loaded a page at a time) into `directory`, named after their files.
    public func export(_ assets: FetchResult, to directory: URL, options: ExportOptions,
                       progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }) async throws -> ExportReport {
        let total = assets.count
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let started = ContinuousClock.now
        let names = ExportFileNames(directory: directory)
        var report = ExportReport()
        let width = options.concurrency > 0 ? options.concurrency : ProcessInfo.processInfo.activeProcessorCount
        try await withThrowingTaskGroup(of: Result<ExportReport.Item, ExportReport.Failure>.self) { group in
            var inFlight = 0
            func collect(_ outcome: Result<ExportReport.Item, ExportReport.Failure>) {
                switch outcome {
                case .success(let item): report.exported.append(item)
                case .failure(let failure): report.failed.append(failure)
                }
                progress(ExportProgress(completed: report.exported.count, failed: report.failed.count, total: total))
            }
            for try await asset in assets {
                report.originalBytes += asset.byteSize
                if inFlight == width, let outcome = try await group.next() {
                    inFlight -= 1
                    collect(outcome)
                }
                let name = await names.claim(for: asset, options: options)
                group.addTask { await exportOne(asset, to: name, options: options) }
                inFlight += 1
            }
            for try await outcome in group { collect(outcome) }
        }
        report.seconds = (ContinuousClock.now - started).seconds
        return report
    }

    private func exportOne(_ asset: Asset, to file: URL, options: ExportOptions) async -> Result<ExportReport.Item, ExportReport.Failure> {
        do {
            let original = try await library.originalFile(for: asset)
            let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).part")
            defer { try? FileManager.default.removeItem(at: temporary) }
            var size: PixelSize?
            if options.original || asset.mediaType == .video {
                try FileManager.default.copyItem(at: original.fileURL, to: temporary)
            } else {
                let result = try await BlockingWork.run { [renderer] in
                    if let target = options.size {
                        return try renderer.render(original.fileURL, size: target, mode: options.contentMode, format: options.format,
                                                   quality: options.quality, resizeMode: options.resizeMode)
                    }
                    return try renderer.fullResolution(original.fileURL, format: options.format, quality: options.quality)
                }
                try result.data.write(to: temporary)
                size = result.pixelSize
            }
            guard rename(temporary.path, file.path) == 0 else {
                throw LibraryError.unreadableFile(path: file.path, reason: "cannot move the export into place: \(String(cString: strerror(errno)))")
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
            return .success(ExportReport.Item(id: asset.id.description, file: file.path, byteSize: bytes,
                                              pixelWidth: size?.width, pixelHeight: size?.height))
        } catch {
            return .failure(ExportReport.Failure(id: asset.id.description, reason: "\(error)"))
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
