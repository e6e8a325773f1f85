import ArgumentParser
import AssetsKit
import Foundation
import ImagePipeline
import LibraryOpening
import MediaProbing

/// `index PATH` (or `index --library PATH`, as every command takes it): creates or brings up to
/// date the index of a library folder, or of a bucket (`index s3://BUCKET/PREFIX`).
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index a library folder or bucket: adopt new files, re-read changed ones, follow moved ones, drop removed ones.",
        discussion: """
            Originals are only read. Files that cannot be read are listed with the reason; they do not stop the scan. \
            The library can be browsed as soon as it returns. Each photo without an embedded EXIF thumbnail then gets a small \
            preview, kept beside the index (<index name>-previews/), newest first: a grid cell's first image. index makes those \
            of the newest photos (a first screen's worth, --newest-previews) before returning, 'serve' the others in the \
            background; --previews makes them all before returning. \
            A bucket (s3://BUCKET/PREFIX; endpoint and keys from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, \
            AWS_SESSION_TOKEN, AWS_REGION or the options) is listed and each object's metadata read from ranged reads of its head; \
            every photo and video of it gets a preview, so that it can be browsed with the bucket unreachable. Other commands \
            take --library s3://BUCKET/PREFIX once it is indexed.
            """)

    @Argument(help: "The library folder or s3://BUCKET/PREFIX (or give it with --library).", completion: .directory,
              transform: LibraryPlace.url)
    var folder: URL?

    @Option(name: .long, help: "The library folder or bucket, as every command takes it.", completion: .directory, transform: LibraryPlace.url)
    var library: URL?

    @OptionGroup(title: "Buckets") var bucket: BucketOptions

    @OptionGroup(title: "Database") var database: DatabaseOptions

    @Option(name: .long, help: "The index file (default: $XDG_DATA_HOME/assets-picker/libraries/<name>-<key>/library.sqlite, one per library folder).",
            completion: .file(), transform: { URL(fileURLWithPath: $0) })
    var index: URL?

    @Option(name: .long, help: "Refuse images with more pixels than this (checked before decoding).")
    var maxPixels: Int = PipelineConfiguration().maxPixels

    @Flag(name: .long, help: "Make the previews the library lacks before returning (with a progress bar on a terminal), instead of leaving them to 'serve'.")
    var previews = false

    @Option(name: .long, help: ArgumentHelp("Without --previews, make those of the N newest photos that lack one before returning: a first screen's worth, so that the library opens as fast as one whose previews are all made (0 for none).",
                                            valueName: "N"))
    var newestPreviews = 240

    @Flag(name: .long, help: "Print the summary as one JSON document on stdout.")
    var json = false

    /// The summary with where the library and its index are.
    struct Output: Encodable {
        let library: String
        let index: String
        let summary: ScanSummary
        /// What `--previews` made; `nil` without it.
        let previews: PreviewSummary?
        /// What `--newest-previews` made, without `--previews`; `nil` when none were to be made.
        let newestPreviews: PreviewSummary?

        enum Keys: String, CodingKey { case library, index, previews, newestPreviews }

        func encode(to encoder: Encoder) throws {
            try summary.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(library, forKey: .library)
            try container.encode(index, forKey: .index)
            try container.encodeIfPresent(previews, forKey: .previews)
            try container.encodeIfPresent(newestPreviews, forKey: .newestPreviews)
        }
    }

    func validate() throws {
        guard newestPreviews >= 0 else { throw ValidationError("--newest-previews must be 0 or more.") }
        switch (folder, library) {
        case (nil, nil): throw ValidationError("Give the library folder: assets-picker index PATH (or s3://BUCKET/PREFIX), or --library PATH.")
        case let (folder?, library?) where folder.standardizedFileURL != library.standardizedFileURL:
            throw ValidationError("Give the library folder once: \(Self.place(folder)) and --library \(Self.place(library)) differ.")
        default: break
        }
    }

    /// The library folder, given either way.
    private var path: URL { (folder ?? library)! }

    /// A folder's path or a bucket's address, as given.
    private static func place(_ url: URL) -> String {
        url.isFileURL ? url.path : url.absoluteString
    }

    func run() async throws {
        let renderer = ImageRenderer(configuration: PipelineConfiguration(maxPixels: maxPixels))
        let opener = LibraryOpener(reader: MediaMetadataReader(renderer: renderer), bucketConnection: bucket.connection,
                                   database: try database.indexDatabase())
        let indexURL = index ?? opener.defaultIndexURL(forRoot: path)
        let library = try await opener.indexedLibrary(root: path, indexURL: indexURL)
        let bar = TerminalProgress(label: "Indexing")
        let summary = try await library.scan { progress in
            bar.update(done: progress.processed, failed: 0, total: progress.discovered)
        }
        bar.finish()
        var previewSummary: PreviewSummary?
        if previews, let previewing = library.previewing {
            let previewBar = TerminalProgress(label: "Previews")
            previewSummary = try await previewing.makePreviews { progress in
                previewBar.update(done: progress.done, failed: progress.failed, total: progress.total)
            }
            previewBar.finish()
        }
        // The first screen's previews: a moment for a folder, never a download of originals.
        var newestSummary: PreviewSummary?
        if !previews, newestPreviews > 0, summary.added + summary.updated > 0, library.remoteOriginals == nil,
           let previewing = library.previewing {
            newestSummary = try await previewing.makePreviews(ofNewest: newestPreviews)
        }
        if json {
            try JSONOutput.print(Output(library: library.placeDescription, index: indexURL.path, summary: summary, previews: previewSummary,
                                        newestPreviews: newestSummary))
            return
        }
        say(IndexReport.scanSentence(path: library.placeDescription, summary))
        if let previews = IndexReport.previewSentence(previewSummary, newest: newestSummary, scan: summary) { say(previews) }
        for failure in summary.failed + (previewSummary?.failed ?? []) + (newestSummary?.failed ?? []) {
            FileHandle.standardError.write(Data(PrintableText.escaping("failed \(failure.path): \(failure.reason)").utf8 + [0x0A]))
        }
    }
}
