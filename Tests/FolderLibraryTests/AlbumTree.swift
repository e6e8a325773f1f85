import AssetsKit
import Foundation
import MediaProbing
import Synchronization
import TestSupport

/// A small library of corpus files with nested, empty and hidden folders, in a temporary
/// folder, and a data folder beside it for the cache.
struct AlbumTree {
    let base: URL
    var root: URL { base.appendingPathComponent("Library", isDirectory: true) }
    var cacheFile: URL { base.appendingPathComponent("data/folder-cache") }

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("album-tree-\(UUID().uuidString)", isDirectory: true)
        let layout: [(String, String)] = [
            ("top.jpg", "A_camera_exif/goexif__sample1.jpg"),
            ("Trip/one.jpg", "A_camera_exif/jhead__canon-300d.jpg"),
            ("Trip/two.jpg", "A_camera_exif/jhead__fuji-dx10.jpg"),
            ("Trip/clip.mp4", "E_formats/puremagic__test.mp4"),
            ("Trip/Day 2/three.jpg", "A_camera_exif/jhead__hp.jpg"),
            ("Trip/.thumbnails/hidden.jpg", "A_camera_exif/jhead__gpsinfo.jpg"),
            (".hidden/secret.jpg", "A_camera_exif/exiv2__exiv2-nikon-d70.jpg"),
            ("Videos/2026/clip.mp4", "E_formats/puremagic__test.mp4"),
        ]
        for (path, source) in layout {
            let target = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Corpus.file(source), to: target)
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Empty"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Trip/Nothing here"), withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: base)
    }

    /// Every entry under the root with its kind, size and modification time, hidden ones included.
    func snapshot() throws -> [String: String] {
        var entries: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)
            entries[path] = "\(attributes[.type] ?? "") \(attributes[.size] ?? "") \(attributes[.modificationDate] ?? "")"
        }
        return entries
    }

    /// A clock an hour ahead, so that the folders just made count as settled (a listing is
    /// trusted only once its folder has been still for a second).
    static let hourAhead: @Sendable () -> Int64 = {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return (Int64(time.tv_sec) + 3_600) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// Reads metadata with the real reader and counts the files read.
final class CountingReader: MediaMetadataReading {
    private let reads = Mutex<[String]>([])
    private let reader = MediaMetadataReader()

    var readFiles: [String] { reads.withLock { $0 } }

    func read(_ url: URL, as mediaType: MediaType) async throws -> MediaMetadata {
        reads.withLock { $0.append(url.lastPathComponent) }
        return try await reader.read(url, as: mediaType)
    }
}
