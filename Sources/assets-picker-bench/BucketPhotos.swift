import AssetsKit
import Foundation
import ImageMetadata
import SyntheticMedia

/// The photos the bucket benchmark uploads (`scripts/bench-s3-library.sh`): 12-MP camera JPEGs
/// (4000x3000, q90, EXIF with make, model, date, GPS and a 160-pixel embedded thumbnail), made
/// once into a work folder and reused across runs.
///
/// Drawing a 12-MP scene is most of the cost, so a few pictures are drawn (``distinct``) and
/// every object is one of them with EXIF of its own: its own date, minutes after the previous
/// one's, and its own position, so that no two objects have the same bytes (nor ETag). Every
/// fourth picture is a portrait stored sideways with orientation 6, as a camera held upright
/// writes it. Photo `n` is the same bytes in every run of the same generator, so a run of
/// 2,000 reuses the 100 a small run made and makes the rest.
struct BucketPhotos {
    static let size = PixelSize(width: 4000, height: 3000)
    static let quality = 90
    /// How many different pictures the objects are made from.
    static let distinct = 8

    /// What made the photos in a folder; a folder made by another is emptied first.
    private struct Manifest: Codable, Equatable {
        var generator: String
        var size: PixelSize
        var quality: Int
        var distinct: Int
    }

    /// The photos, `IMG_00001.jpg` on, in order.
    let urls: [URL]

    /// `count` photos in `directory`, made there unless it holds them already (`width` at a time).
    static func prepare(in directory: URL, count: Int, width: Int, progress: (String) -> Void) async throws -> BucketPhotos {
        let urls = (1...count).map { directory.appendingPathComponent(String(format: "IMG_%05d.jpg", $0)) }
        let manifestURL = directory.appendingPathComponent("bucket-photos.json")
        let manifest = Manifest(generator: "1-" + (try BenchCorpus.generatorVersion()), size: size, quality: quality, distinct: distinct)
        if (try? JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestURL))) != manifest {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try JSONEncoder().encode(manifest).write(to: manifestURL)
        }
        let missing = urls.enumerated().filter { !FileManager.default.fileExists(atPath: $0.element.path) }
        guard !missing.isEmpty else { return BucketPhotos(urls: urls) }

        progress("drawing \(distinct) 12-MP pictures for \(missing.count) photos…")
        let pictures = Pictures()
        try await Parallel.forEach(Array(0..<distinct), width: width) { index in
            let orientation = index % 4 == 3 ? 6 : 1
            let picture = SyntheticPhoto(size: orientation >= 5 ? size.transposed : size, seed: 1000 + index,
                                         label: "P\(index + 1)", orientation: orientation)
            pictures.set(index, Pictures.Picture(jpeg: try picture.encoded(as: .jpeg, quality: quality),
                                                 thumbnail: try picture.embeddedThumbnail(longestSide: 160, quality: 80),
                                                 orientation: orientation))
        }
        progress("writing \(missing.count) photos into \(directory.path)…")
        try await Parallel.forEach(missing, width: width) { index, url in
            let picture = pictures.get(index % distinct)
            // Written aside and renamed, so a run cut short leaves no half photo to be reused.
            let partial = url.appendingPathExtension("partial")
            try ExifWriter.inserting(metadata(of: index, orientation: picture.orientation), thumbnail: picture.thumbnail, into: picture.jpeg)
                .write(to: partial)
            try FileManager.default.moveItem(at: partial, to: url)
        }
        return BucketPhotos(urls: urls)
    }

    /// Photo `index`'s EXIF: taken ten minutes after the one before it (from 2024-01-01 08:00)
    /// by one camera, a few metres from it.
    private static func metadata(of index: Int, orientation: Int) -> ExifMetadata {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let taken = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: 1_704_096_000 + Double(index) * 600))
        return ExifMetadata(
            orientation: orientation, make: "Benchmark", model: "Synthetic 12MP",
            dateTimeOriginal: ExifDateTime(year: taken.year!, month: taken.month!, day: taken.day!,
                                           hour: taken.hour!, minute: taken.minute!, second: taken.second!),
            gps: GeoLocation(latitude: 46.2 + Double(index) * 0.0001, longitude: 6.15, altitude: 375),
            pixelXDimension: size.width, pixelYDimension: size.height)
    }

    /// The drawn pictures, filled in parallel.
    private final class Pictures: @unchecked Sendable {
        struct Picture {
            var jpeg: Data
            var thumbnail: Data
            var orientation: Int
        }

        private let lock = NSLock()
        private var pictures: [Int: Picture] = [:]

        func set(_ index: Int, _ picture: Picture) { lock.withLock { pictures[index] = picture } }
        func get(_ index: Int) -> Picture { lock.withLock { pictures[index]! } }
    }
}
