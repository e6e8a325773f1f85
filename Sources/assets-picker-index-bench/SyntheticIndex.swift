import Foundation
import GRDB
import IndexedLibrary

/// A 100,000-asset index made without files: the schema comes from opening an
/// ``IndexedLibrary``, the rows are inserted straight into its SQLite file.
///
/// The spread is a phone's: creation dates over ten years, denser in recent ones, several per
/// minute in bursts; 5% videos; 200 directories of uneven size; 3% favourites; 2% added in
/// the last 30 days (the rest a year ago).
enum SyntheticIndex {
    /// Where the benchmark keeps the index of a generated library: inside its own work folder.
    static func databaseURL(root: URL) -> URL {
        root.appendingPathComponent(".assets-picker/library.sqlite")
    }

    static func make(root: URL, assets: Int, directories: Int, seed: UInt64) throws {
        let databaseURL = databaseURL(root: root)
        _ = try IndexedLibrary(root: root, databaseURL: databaseURL)
        let queue = try DatabaseQueue(path: databaseURL.path)
        var random = SplitMix64(seed: seed)
        let now = Date().timeIntervalSince1970
        try queue.write { db in
            for index in 0..<directories {
                try db.execute(sql: "INSERT INTO directory (id, relativePath, uuid) VALUES (?, ?, ?)",
                               arguments: [index + 1, "DCIM/\(100 + index)APPLE", UUID()])
            }
            let insert = try db.makeStatement(sql: """
                INSERT INTO asset (uuid, relativePath, directoryId, filename, mediaType, pixelWidth, pixelHeight,
                    creationDate, creationDateSource, modificationTime, byteSize, duration, format, fingerprint,
                    isFavorite, addedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'exif', 0, ?, ?, ?, ?, ?, ?)
                """)
            var date = now - 10 * 365 * 86_400
            let step = 10 * 365 * 86_400 / Double(assets)
            for index in 0..<assets {
                // Bursts: most photos come seconds apart, then a gap; the average keeps pace with `step`.
                date += random.unit() < 0.7 ? Double(random.next() % 30) : step * 3 * random.unit()
                let directory = 1 + Int(Double(directories) * pow(random.unit(), 1.5))
                let isVideo = random.unit() < 0.05
                let name = String(format: "IMG_%05d.%@", index, isVideo ? "MOV" : "JPG")
                let recent = random.unit() < 0.02
                try insert.execute(arguments: [
                    UUID(), "DCIM/\(99 + directory)APPLE/\(name)", directory, name, isVideo ? 1 : 0, 4032, 3024,
                    min(date, now), isVideo ? 40_000_000 : 2_500_000, isVideo ? 12.5 : nil, isVideo ? "mov" : "jpeg",
                    "synthetic:\(index)", random.unit() < 0.03,
                    recent ? now - 86_400 * 20 * random.unit() : now - 365 * 86_400,
                ])
            }
        }
        try queue.close()
    }
}

/// A small, fast, seeded generator, so every run builds the same library.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
