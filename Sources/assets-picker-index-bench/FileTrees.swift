import AssetsKit
import Foundation
import SyntheticMedia

/// Real files for the scan benchmarks, written into temporary folders.
enum FileTrees {
    /// `count` small distinct JPEGs (a 64x48 photo, each with its own comment segment so no two
    /// share a fingerprint) in `directories` folders.
    static func smallPhotos(in root: URL, count: Int, directories: Int) throws {
        let photo = try SyntheticPhoto(size: PixelSize(width: 64, height: 48), seed: 7).encoded(as: .jpeg)
        let body = photo.dropFirst(2) // after SOI
        for directory in 0..<directories {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("d\(directory)"), withIntermediateDirectories: true)
        }
        for index in 0..<count {
            let comment = Array("photo \(index)".utf8)
            var data = Data([0xFF, 0xD8, 0xFF, 0xFE, UInt8((comment.count + 2) >> 8), UInt8((comment.count + 2) & 0xFF)])
            data.append(contentsOf: comment)
            data.append(body)
            try data.write(to: root.appendingPathComponent("d\(index % directories)/IMG_\(index).jpg"))
        }
    }

    /// `count` camera-sized 12-megapixel JPEGs (4000x3000), made on all cores.
    static func twelveMegapixelPhotos(in root: URL, count: Int) async throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<width {
                group.addTask {
                    for index in stride(from: lane, to: count, by: width) {
                        let data = try SyntheticPhoto(size: PixelSize(width: 4000, height: 3000), seed: index, label: "\(index)").encoded(as: .jpeg)
                        try data.write(to: root.appendingPathComponent("IMG_\(index).jpg"))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// A copy of the shared corpus' media folders.
    static func corpusCopy(from corpus: URL, into root: URL) throws {
        guard FileManager.default.fileExists(atPath: corpus.appendingPathComponent("MANIFEST.tsv").path) else {
            throw CorpusNotFound(folder: corpus)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for group in ["A_camera_exif", "B_orientation", "C_pngsuite", "D_hostile", "E_formats"] {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(group), to: root.appendingPathComponent(group))
        }
    }
}

/// The shared corpus is not where the benchmark looked.
struct CorpusNotFound: Error, CustomStringConvertible {
    let folder: URL
    var description: String {
        "no test corpus at \(folder.path) (no MANIFEST.tsv); pass --corpus PATH or set ASSETS_PICKER_TESTDATA"
    }
}
