import AssetsKit
import Foundation
import SyntheticMedia

/// The 200-MP originals the memory benchmark renders: one picture (16320x12240, a 200-MP
/// camera sensor's size) as a grid HEIC of 512-pixel tiles (as cameras store it), a JPEG, a
/// PNG and a TIFF, made once into a work folder and reused while the generator is the same.
struct HugePhotos {
    /// One original and what it is.
    struct Photo {
        var url: URL
        var kind: String
    }

    static let size = PixelSize(width: 16320, height: 12240)

    let photos: [Photo]

    /// The photos in `directory`, made there first unless it holds them already. The PNG and
    /// TIFF are converted from the JPEG by `vips`, streaming; the HEIC's tiles are encoded with
    /// x265's fastest preset (a minute or two of CPU).
    static func prepare(in directory: URL, log: URL, progress: (String) -> Void) throws -> HugePhotos {
        let photos = [Photo(url: directory.appendingPathComponent("photo-200mp.heic"), kind: "HEIC, grid of 512-px tiles"),
                      Photo(url: directory.appendingPathComponent("photo-200mp.jpg"), kind: "JPEG q90"),
                      Photo(url: directory.appendingPathComponent("photo-200mp.png"), kind: "PNG"),
                      Photo(url: directory.appendingPathComponent("photo-200mp.tif"), kind: "TIFF, deflate")]
        let manifest = directory.appendingPathComponent("huge.json")
        let generator = "1-\(size)-" + (try BenchCorpus.generatorVersion())
        if (try? String(contentsOf: manifest, encoding: .utf8)) == generator,
           photos.allSatisfy({ FileManager.default.fileExists(atPath: $0.url.path) }) {
            return HugePhotos(photos: photos)
        }
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let picture = SyntheticPhoto(size: size, seed: 1)
        progress("making the 200-MP JPEG…")
        try picture.encoded(as: .jpeg, quality: 90).write(to: photos[1].url)
        progress("making the 200-MP PNG and TIFF…")
        try ChildProcess.start(["vips", "copy", photos[1].url.path, photos[2].url.path], log: log).wait()
        try ChildProcess.start(["vips", "tiffsave", photos[1].url.path, photos[3].url.path, "--compression", "deflate"], log: log).wait()
        progress("making the 200-MP grid HEIC (768 tiles)…")
        try picture.encodedAsTiledHEIC(tileSize: 512, quality: 80).write(to: photos[0].url)
        try generator.write(to: manifest, atomically: true, encoding: .utf8)
        return HugePhotos(photos: photos)
    }
}
