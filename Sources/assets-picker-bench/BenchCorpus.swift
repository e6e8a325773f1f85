import AssetsKit
import Foundation
import ImageMetadata
import ImagePipeline
import SyntheticMedia

/// The photos the benchmark times: camera-like JPEGs with EXIF and an embedded thumbnail,
/// generated once into a work folder and reused while they match what is asked for.
///
/// Every fourth photo is a portrait shot stored sideways with EXIF orientation 6, as a
/// camera held upright writes it; the stored pixels are always `size`.
struct BenchCorpus: Sendable {
    /// One photo of the corpus.
    struct Photo: Sendable {
        var url: URL
        var orientation: Int
    }

    /// What a corpus is made of; a folder holding the same specification is reused.
    struct Specification: Codable, Hashable {
        /// Which generator made the photos (see ``generatorVersion()``), so a folder made by an
        /// older one is not taken for a new one.
        var generator: String
        var count: Int
        var size: PixelSize
        var quality = 90

        /// `count` photos of `size` made by the generator as it is now.
        static func current(count: Int, size: PixelSize) throws -> Specification {
            Specification(generator: try BenchCorpus.generatorVersion(), count: count, size: size)
        }
    }

    /// The version of this file's way of making photos, bumped by hand when it changes, and a
    /// fingerprint of the scene generator underneath (`SyntheticPhoto`, libvips): the hash of
    /// a small scene it draws and encodes. A changed generator (say, less noise) changes the
    /// fingerprint, so the corpus is made again without anyone remembering to bump a number.
    static func generatorVersion() throws -> String {
        let sample = try SyntheticPhoto(size: PixelSize(width: 320, height: 240), seed: 1, label: "v").encoded(as: .jpeg, quality: 90)
        return "3-" + String(FNV1a.hash(sample), radix: 16)
    }

    let directory: URL
    let specification: Specification
    let photos: [Photo]
    /// How long generation took, in milliseconds; `nil` when the folder was reused.
    let generationMilliseconds: Double?

    var urls: [URL] { photos.map(\.url) }

    /// The total size of the photos in bytes.
    var totalBytes: Int {
        photos.reduce(0) { $0 + ((try? $1.url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
    }

    /// The corpus in `directory`, generated there (in parallel, `width` photos at a time)
    /// unless the folder already holds it.
    static func prepare(in directory: URL, specification: Specification, width: Int) async throws -> BenchCorpus {
        let photos = (0..<specification.count).map { index in
            Photo(url: directory.appendingPathComponent(String(format: "IMG_%04d.jpg", index + 1)),
                  orientation: index % 4 == 3 ? 6 : 1)
        }
        let manifest = directory.appendingPathComponent("corpus.json")
        if let data = try? Data(contentsOf: manifest),
           (try? JSONDecoder().decode(Specification.self, from: data)) == specification,
           photos.allSatisfy({ FileManager.default.fileExists(atPath: $0.url.path) }) {
            return BenchCorpus(directory: directory, specification: specification, photos: photos, generationMilliseconds: nil)
        }
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let milliseconds = try await Stopwatch.time(async: {
            try await Parallel.forEach(Array(photos.enumerated()), width: width) { index, photo in
                try makePhoto(photo, seed: index + 1, specification: specification).write(to: photo.url)
            }
        }).wall
        try JSONEncoder().encode(specification).write(to: manifest)
        return BenchCorpus(directory: directory, specification: specification, photos: photos, generationMilliseconds: milliseconds)
    }

    /// Reads every photo once, `width` at a time, so timings start with the files in the page cache.
    func warmPageCache(width: Int) async throws {
        try await Parallel.forEach(urls, width: width) { url in
            _ = try Data(contentsOf: url)
        }
    }

    /// A photo as a camera writes it: JPEG, EXIF with make, model and date, and a 160-pixel
    /// thumbnail of the same picture stored the same way.
    ///
    /// The thumbnail is shrunk from the encoded photo (whose bytes carry no orientation yet),
    /// as a camera makes it, rather than drawn again: drawing the scene is most of the cost.
    private static func makePhoto(_ photo: Photo, seed: Int, specification: Specification) throws -> Data {
        let stored = specification.size
        let synthetic = SyntheticPhoto(size: photo.orientation >= 5 ? stored.transposed : stored, seed: seed,
                                       label: photo.url.deletingPathExtension().lastPathComponent,
                                       orientation: photo.orientation)
        let encoded = try synthetic.encoded(as: .jpeg, quality: specification.quality)
        let thumbnail = try ImageRenderer().render(data: encoded, name: photo.url.lastPathComponent,
                                                   size: PixelSize(width: 160, height: 160), mode: .fit,
                                                   format: .jpeg, quality: 80, source: .embeddedThumbnail)
        let metadata = ExifMetadata(
            orientation: photo.orientation, make: "Benchmark", model: "Synthetic 12MP",
            dateTimeOriginal: ExifDateTime(exifString: String(format: "2024:06:%02d 12:%02d:00", seed % 28 + 1, seed % 60)),
            pixelXDimension: stored.width, pixelYDimension: stored.height)
        return try ExifWriter.inserting(metadata, thumbnail: thumbnail.data, into: encoded)
    }
}
