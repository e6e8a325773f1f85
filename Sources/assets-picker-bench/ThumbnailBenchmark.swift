import AssetsKit
import Foundation
import ImagePipeline

/// Our thumbnails, rendered in-process the way the image manager renders them: a centre-cropped
/// fill of the box, upright, encoded as JPEG, with libvips using one thread per image.
struct ThumbnailBenchmark: Sendable {
    let box: PixelSize
    let quality: Int
    private let renderer = ImageRenderer()

    init(box: PixelSize, quality: Int) throws {
        self.box = box
        self.quality = quality
        try ImageRenderer.setThreadsPerOperation(1)
    }

    /// Renders every file once, one after the other.
    func serial(_ files: [URL], _ mode: ResizeMode) throws -> Timing {
        try Stopwatch.time({
            for file in files {
                try render(file, mode)
            }
        })
    }

    /// Renders every file once, `width` at a time.
    func parallel(_ files: [URL], _ mode: ResizeMode, width: Int) async throws -> Timing {
        try await Stopwatch.time(async: {
            try await Parallel.forEach(files, width: width) { file in
                try render(file, mode)
            }
        })
    }

    /// Renders `file` and checks the answer has the box's size, so a wrong answer is not timed as fast.
    private func render(_ file: URL, _ mode: ResizeMode) throws {
        let result = try renderer.render(file, size: box, mode: .fill, format: .jpeg, quality: quality, resizeMode: mode)
        guard result.pixelSize == box else {
            throw BenchmarkError.wrongSize(file: file.lastPathComponent, expected: box, got: result.pixelSize)
        }
    }
}

/// A measurement that produced the wrong thing.
enum BenchmarkError: Error, CustomStringConvertible {
    case wrongSize(file: String, expected: PixelSize, got: PixelSize)
    case noThumbnail(file: String)
    /// A cache lookup that should have hit missed.
    case notCached
    case wrongSource(expected: ImageSource, got: ImageSource)
    /// An image stream that ended without a result.
    case noResult

    var description: String {
        switch self {
        case .notCached: "the thumbnail was not in the cache it was put in"
        case let .wrongSource(expected, got): "expected an answer from \(expected), got one from \(got)"
        case .noResult: "the image stream ended without a result"
        case let .wrongSize(file, expected, got): "\(file): rendered \(got), expected \(expected)"
        case let .noThumbnail(file): "\(file) has no embedded thumbnail"
        }
    }
}
