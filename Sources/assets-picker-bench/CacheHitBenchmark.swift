import AssetsKit
import Foundation
import ImagePipeline

/// Cache hits in-process: a thumbnail already in the memory cache, or only in the disk cache,
/// asked for through `CachingImageManager.image(for:request:)` (timed to the first result of
/// its stream) and straight from the cache (`image(for:)`).
///
/// Every timing is checked to come from the cache it is meant to measure, so a miss that
/// rendered is never timed as a hit.
struct CacheHitBenchmark {
    /// The median milliseconds of one hit, four ways, and the size of the thumbnail hit.
    struct Latencies: Encodable {
        var thumbnailBytes: Int
        var memoryStream: Double
        var memoryRaw: Double
        var diskStream: Double
        var diskRaw: Double
    }

    let source: ImageSourceFile
    let request: ImageRequest
    /// Where the disk cache is made (emptied first).
    let diskDirectory: URL
    /// Hits timed per measurement, after as many warm-ups.
    let iterations: Int
    /// Raw memory lookups are timed this many at a time, the clock being too coarse for one.
    static let memoryBatch = 100

    /// A `box` fill thumbnail of `photo` (stored at `size`) as a grid asks for it: opportunistic delivery.
    init(photo: BenchCorpus.Photo, size: PixelSize, box: PixelSize, quality: Int, diskDirectory: URL, iterations: Int) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: photo.url.path)
        guard let original = OriginalLocation(currentFileAt: photo.url) else { throw BenchmarkError.noThumbnail(file: photo.url.path) }
        source = ImageSourceFile(
            assetKey: "bench-" + photo.url.lastPathComponent, original: original,
            byteSize: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
            modificationDate: attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0),
            mediaType: .photo, pixelSize: photo.orientation >= 5 ? size.transposed : size,
            orientation: photo.orientation, hasEmbeddedThumbnail: true)
        request = ImageRequest(targetSize: box, contentMode: .fill, deliveryMode: .opportunistic, quality: quality)
        self.diskDirectory = diskDirectory
        self.iterations = iterations
    }

    func run() async throws -> Latencies {
        try? FileManager.default.removeItem(at: diskDirectory)
        let disk = try DiskImageCache(directory: diskDirectory, byteLimit: 64 << 20)
        let key = RenditionKey(source: source.version, request: request)

        // One render (after the embedded thumbnail, degraded) fills both caches.
        let warm = CachingImageManager(diskCache: disk)
        for try await _ in warm.image(for: source, request: request) {}
        guard let thumbnail = warm.memoryCache.image(for: key), disk.image(for: key) != nil else { throw BenchmarkError.notCached }

        let memoryStream = try await medianOfCalls(prepare: { warm }) { manager in
            try await firstResult(from: manager, expecting: .memoryCache)
        }
        let memoryRaw = try medianOfBatches(Self.memoryBatch) {
            guard warm.memoryCache.image(for: key) != nil else { throw BenchmarkError.notCached }
        }
        // A new manager each time, made before the clock starts: its memory cache is empty,
        // so the hit comes from disk (and would refill memory for the next one).
        let diskStream = try await medianOfCalls(prepare: { CachingImageManager(diskCache: disk) }) { manager in
            try await firstResult(from: manager, expecting: .diskCache)
        }
        let diskRaw = try medianOfBatches(1) {
            guard disk.image(for: key) != nil else { throw BenchmarkError.notCached }
        }
        return Latencies(thumbnailBytes: thumbnail.data.count, memoryStream: memoryStream, memoryRaw: memoryRaw, diskStream: diskStream, diskRaw: diskRaw)
    }

    /// Asks `manager` for the thumbnail and waits for the stream's first result, checking
    /// that it came from `expected` at full size; leaving the loop ends the stream.
    private func firstResult(from manager: CachingImageManager, expecting expected: ImageSource) async throws {
        for try await result in manager.image(for: source, request: request) {
            if result.source != expected { throw BenchmarkError.wrongSource(expected: expected, got: result.source) }
            guard result.pixelSize == request.targetSize else {
                throw BenchmarkError.wrongSize(file: source.original.filename, expected: request.targetSize, got: result.pixelSize)
            }
            return
        }
        throw BenchmarkError.noResult
    }

    /// The median milliseconds of one call of `body`, timed `batch` calls at a time.
    private func medianOfBatches(_ batch: Int, _ body: () throws -> Void) throws -> Double {
        let samples = max(1, iterations / batch)
        var timings: [Double] = []
        for round in 0..<(2 * samples) {
            let milliseconds = try Stopwatch.wallMilliseconds { for _ in 0..<batch { try body() } }
            if round >= samples { timings.append(milliseconds / Double(batch)) }
        }
        return timings.median
    }

    /// The median milliseconds of `body` on what `prepare` makes (untimed) for each call.
    private func medianOfCalls<Prepared>(prepare: () throws -> Prepared, _ body: (Prepared) async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        var timings: [Double] = []
        for round in 0..<(2 * iterations) {
            let prepared = try prepare()
            let start = clock.now
            try await body(prepared)
            if round >= iterations { timings.append((clock.now - start).milliseconds) }
        }
        return timings.median
    }
}
