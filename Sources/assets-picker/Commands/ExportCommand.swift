import ArgumentParser
import AssetExport
import AssetsKit
import Foundation
import ImagePipeline

/// `export`: writes assets to a folder, originals or renditions, one per core at a time.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export assets to a folder, as originals or resized renditions.",
        discussion: "An asset that fails is reported with its reason and the rest are still exported; the exit status is non-zero if any failed.")

    @OptionGroup var options: LibraryOptions

    @Option(name: .customLong("asset"), parsing: .upToNextOption, help: "Asset ids to export.")
    var assets: [AssetIdentifier] = []

    @Option(name: .long, help: "Export every asset of this album.")
    var album: String?

    @Option(name: .long, help: "The folder to write into (made if missing).", transform: { URL(fileURLWithPath: $0) })
    var out: URL

    @Option(name: .long, help: "Resize to WxH (default: full resolution).", transform: { text in
        guard let size = PixelSize(parsing: text) else { throw ValidationError("--size must be WxH with positive numbers, e.g. 2048x2048") }
        return size
    })
    var size: PixelSize?

    @OptionGroup var rendition: RenditionOptions

    @Flag(name: .long, help: "Copy the original files instead of rendering.")
    var original = false

    @Option(name: .long, help: "Assets exported at once (default: one per core).")
    var jobs: Int = 0

    func validate() throws {
        guard !assets.isEmpty || album != nil else { throw ValidationError("name assets with --asset or an album with --album") }
        guard assets.isEmpty || album == nil else { throw ValidationError("use either --asset or --album, not both") }
        guard jobs >= 0 else { throw ValidationError("--jobs must be 0 (one per core) or more") }
    }

    /// The bytes of the originals of `assets` not on this machine (0 for a library that keeps
    /// every original here), asked a page at a time.
    static func bytesToFetch(of assets: FetchResult, in library: any PhotoLibrary) async throws -> Int64 {
        guard let remote = library.remoteOriginals else { return 0 }
        var bytes: Int64 = 0
        var page: [Asset] = []
        func count() async throws {
            let local = try await remote.localOriginals(of: page)
            bytes += page.reduce(0) { local.contains($1.id) ? $0 : $0 + $1.byteSize }
            page.removeAll(keepingCapacity: true)
        }
        for try await asset in assets {
            page.append(asset)
            if page.count == 500 { try await count() }
        }
        try await count()
        return bytes
    }

    func run() async throws {
        // The exporter renders one asset per core; one libvips thread per render keeps every
        // core busy with less memory and contention than several threads each. libvips starts
        // (loading its modules, ~20 ms) on another core while the library opens.
        async let vipsStarted: Void = BlockingWork.run(.brief) { try ImageRenderer.setThreadsPerOperation(1) }
        let library = try await options.open()
        let selection: FetchResult
        if let album {
            selection = try await library.assets(in: CollectionIdentifier(album), options: FetchOptions(sortOrder: .oldestFirst))
        } else {
            let lookup = try await library.assets(withIdentifiers: assets)
            if let missing = lookup.missing.first { throw LibraryError.assetNotFound(missing.description) }
            selection = FetchResult(assets: lookup.found)
        }
        let exportOptions = ExportOptions(original: original, size: size, contentMode: rendition.mode, resizeMode: rendition.resizeMode,
                                          format: rendition.format, quality: rendition.quality, concurrency: jobs)
        try await vipsStarted
        let bar = TerminalProgress(label: "Exporting")
        bar.update(done: 0, failed: 0, total: selection.count)
        // Originals kept elsewhere (a bucket) are fetched one at a time as their turn comes: the
        // bar shows the one under way and the bytes fetched of all those to fetch.
        let toFetch = bar.isEnabled ? try await Self.bytesToFetch(of: selection, in: library) : 0
        let exporter = AssetExporter(library: library, renderer: ImageRenderer(configuration: PipelineConfiguration(maxPixels: options.maxPixels)))
        let report = try await exporter.export(selection, to: out, options: exportOptions) { progress in
            var detail: String?
            if let fetching = progress.fetching, fetching.progress.received < fetching.progress.total {
                detail = TerminalProgress.transfer(PrintableText.escaping(fetching.filename), received: fetching.progress.received,
                                                   total: fetching.progress.total)
                    + " · \(ReadableNumber.byteCount(progress.fetchedBytes)) of \(ReadableNumber.byteCount(max(toFetch, progress.fetchedBytes))) fetched"
            }
            bar.update(done: progress.completed + progress.failed, failed: progress.failed, total: progress.total, detail: detail)
        }
        bar.finish()
        if options.json {
            try JSONOutput.print(report)
        } else {
            let megabytes = Double(report.exported.reduce(0) { $0 + $1.byteSize }) / 1_048_576
            say(String(format: "exported %d of %d assets (%.1f MB) to %@ in %.1f s",
                         report.exported.count, selection.count, megabytes, out.path, report.seconds))
        }
        for failure in report.failed {
            FileHandle.standardError.write(Data("failed \(failure.id): \(failure.reason)\n".utf8))
        }
        if !report.failed.isEmpty { throw ExitCode(1) }
    }
}
