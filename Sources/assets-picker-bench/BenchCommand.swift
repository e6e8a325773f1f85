import ArgumentParser
import AssetsKit
import Foundation

/// `assets-picker-bench`: times our thumbnails against vipsthumbnail, djpeg and ImageMagick
/// on one generated corpus, in one run, and prints per-image timings and ratios; then cache
/// hits, the `assets-picker export` command against vipsthumbnail, and the export's peak RSS.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assets-picker-bench",
        abstract: "Time 256x256 thumbnails of 12-MP JPEGs against vipsthumbnail, djpeg and ImageMagick.",
        discussion: """
            Needs vipsthumbnail, vips, djpeg, convert and taskset on PATH \
            (scripts/install-dependencies.sh installs them), and the release assets-picker \
            next to this binary for the export sections. Ratios are ours divided by the \
            peer's time for the same files; targets are marked, never enforced. \
            `assets-picker-bench memory` measures the peak RSS of renders of 200-MP originals instead; \
            `assets-picker-bench s3` times S3Storage on a bucket (scripts/bench-s3.sh: against boto3); \
            `bucket-photos` and `client-originals` serve scripts/bench-s3-library.sh.
            """,
        subcommands: [MemoryCommand.self, RenderOnceCommand.self, PeakRSSCommand.self, S3Command.self, BucketPhotosCommand.self,
                      ClientOriginalsCommand.self]
    )

    @Option(help: "How many photos the corpus holds.")
    var images = 40

    @Option(help: "The stored size of each photo, WIDTHxHEIGHT.", transform: { text in
        guard let size = PixelSize(parsing: text) else { throw ValidationError("expected WIDTHxHEIGHT, e.g. 4000x3000") }
        return size
    })
    var size = PixelSize(width: 4000, height: 3000)

    @Option(help: "Where the corpus and the peers' thumbnails go; a corpus already there is reused when it matches.",
            completion: .directory, transform: { URL(fileURLWithPath: $0) })
    var workdir = FileManager.default.temporaryDirectory.appendingPathComponent("assets-picker-bench")

    @Option(help: "Counted runs per contender (after a warm-up run); the median is reported.")
    var runs = 3

    @Option(help: "How many of the photos ImageMagick converts (it is slow).")
    var magickImages = 10

    @Option(help: "How many degraded first answers are timed per photo.")
    var iterations = 1000

    @Flag(inversion: .prefixedNo, help: "Time memory- and disk-cache hits in-process.")
    var cacheHits = true

    @Flag(inversion: .prefixedNo, help: "Time the assets-picker export command against vipsthumbnail, and on one core against all.")
    var export = true

    @Flag(inversion: .prefixedNo, help: "Measure the export command's peak RSS for --rss-counts photos.")
    var peakRss = true

    @Option(parsing: .upToNextOption, help: "The library sizes whose export peak RSS is compared (smallest and largest).")
    var rssCounts = [50, 500]

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    func validate() throws {
        guard images >= 4 else { throw ValidationError("--images must be at least 4 (every 4th photo is rotated)") }
        guard runs >= 1, magickImages >= 1, iterations >= 1, rssCounts.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--runs, --magick-images, --iterations and --rss-counts must be positive")
        }
    }

    func run() async throws {
        try PeerTools.checkInstalled()
        let allCPUs = try CPUAffinity.allowedCPUs()
        progress("corpus in \(workdir.path)…")
        let corpus = try await BenchCorpus.prepare(
            in: workdir.appendingPathComponent("corpus"),
            specification: try BenchCorpus.Specification.current(count: images, size: size), width: allCPUs.count)
        // In parallel, which also starts Swift's task pool before the one-core section confines
        // the process: libdispatch sizes the pool from the affinity of the thread that first
        // uses it, and a pool started on one CPU stays one thread wide.
        try await corpus.warmPageCache(width: allCPUs.count)
        let box = PixelSize(width: 256, height: 256), quality = 80
        let suite = BenchmarkSuite(
            corpus: corpus, thumbnails: try ThumbnailBenchmark(box: box, quality: quality),
            peers: try PeerTools(outputDirectory: workdir.appendingPathComponent("out"), box: box.description, quality: quality),
            runs: runs, magickImages: min(magickImages, images), firstAnswerIterations: iterations, allCPUs: allCPUs,
            workdir: workdir, cacheHits: cacheHits,
            exporter: export || peakRss ? try ExportRunner(directory: workdir.appendingPathComponent("export")) : nil,
            exportBatch: export, peakRSSCounts: peakRss ? Array(Set(rssCounts)).sorted() : [])
        let report = try await suite.run(progress: progress)
        try report.write(asJSON: json)
    }

    /// Says on stderr what is being measured, so a long run is not silent; stdout stays the report.
    private func progress(_ message: String) {
        FileHandle.standardError.write(Data("assets-picker-bench: \(message)\n".utf8))
    }
}
