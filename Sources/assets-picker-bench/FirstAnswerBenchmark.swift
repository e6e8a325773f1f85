import Foundation
import ImageMetadata
import ImagePipeline

/// The degraded first answer for a photo: its embedded EXIF thumbnail read from the file and
/// turned upright, as the image manager sends it before the real render.
struct FirstAnswerBenchmark: Sendable {
    let quality: Int
    private let renderer = ImageRenderer()

    /// The median milliseconds of one answer for `photo`, over `iterations` answers (after as
    /// many again to warm up).
    func median(_ photo: BenchCorpus.Photo, iterations: Int) throws -> Double {
        for _ in 0..<iterations {
            try answer(photo)
        }
        var timings: [Double] = []
        timings.reserveCapacity(iterations)
        for _ in 0..<iterations {
            timings.append(try Stopwatch.wallMilliseconds { try answer(photo) })
        }
        return timings.median
    }

    private func answer(_ photo: BenchCorpus.Photo) throws {
        guard let jpeg = try EmbeddedThumbnail.extract(fromJPEGAt: photo.url) else {
            throw BenchmarkError.noThumbnail(file: photo.url.lastPathComponent)
        }
        _ = try renderer.uprightThumbnail(jpeg: jpeg, orientation: photo.orientation, name: photo.url.lastPathComponent,
                                          format: .jpeg, quality: quality)
    }
}
