import Foundation

/// The generated library of the `scale` part, the same on both engines: `assets` assets over
/// fifteen years (denser in recent ones), in one camera folder per month (`Camera/YYYY/MM`) and,
/// for about one asset in seven, event folders (`Events/…`, up to `folders` folders in all);
/// 7% videos, photos as JPEG, HEIC and PNG; 3% favourites, 0.5% hidden, 0.3% in Recently
/// Deleted; each added within three days of its capture; `albums` user albums, each a run of
/// assets near one another in time (5 to 200 members, most small).
///
/// Everything comes from the seed, so both engines hold the same rows with the same ids
/// (`id` is the asset's place in capture order, from 1).
struct ScaleLibrary: Sendable {
    let assets: Int
    let folders: Int
    let albums: Int
    let seed: UInt64 = 30
    /// The present of the library (the newest capture), fixed so both engines agree.
    let now: Double
    /// The first capture: fifteen years before ``now``.
    var start: Double { now - 15 * 365.25 * 86_400 }

    init(assets: Int, folders: Int, albums: Int, now: Date) {
        self.assets = assets
        self.folders = folders
        self.albums = albums
        self.now = now.timeIntervalSince1970.rounded(.down)
    }

    /// The library of this size kept in `folder` by an earlier run (its ``marker`` file), so that
    /// it is the same library down to its present; else a new one whose present is now.
    init(assets: Int, folders: Int, albums: Int, keptIn folder: URL?) throws {
        self.init(assets: assets, folders: folders, albums: albums, now: Date())
        guard let folder, let text = try? String(contentsOf: folder.appendingPathComponent(Self.markerName), encoding: .utf8) else { return }
        let kept = text.split(separator: " ").compactMap { Double($0) }
        if kept.count == 4, kept[0] == Double(assets), kept[1] == Double(folders), kept[2] == Double(albums) {
            self.init(assets: assets, folders: folders, albums: albums, now: Date(timeIntervalSince1970: kept[3]))
        }
    }

    /// What a kept library is recognised by: its size and its present.
    var marker: String { "\(assets) \(folders) \(albums) \(Int64(now))" }

    /// The file in a work folder that holds the ``marker`` of the library generated there.
    static let markerName = "scale-library.txt"

    /// One row of `asset`, as the scanner would write it.
    struct Asset {
        var id: Int64
        var uuid: UUID
        var relativePath: String
        var directoryId: Int64
        var filename: String
        var mediaType: Int
        var pixelWidth: Int
        var pixelHeight: Int
        var creationDate: Double
        var byteSize: Int64
        var duration: Double?
        var format: String
        var isFavorite: Bool
        var isHidden: Bool
        var deletedAt: Double?
        var addedAt: Double
    }

    /// The months from the first capture's to the present's, each the folder `Camera/YYYY/MM`
    /// (directory ids 1…months), then the event folders.
    var directories: [String] {
        var paths: [String] = []
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var month = calendar.dateInterval(of: .month, for: Date(timeIntervalSince1970: start))!.start
        while month.timeIntervalSince1970 <= now {
            let parts = calendar.dateComponents([.year, .month], from: month)
            paths.append(String(format: "Camera/%04d/%02d", parts.year!, parts.month!))
            month = calendar.date(byAdding: .month, value: 1, to: month)!
        }
        let events = max(0, folders - paths.count)
        return paths + (0..<events).map { String(format: "Events/%04d", $0) }
    }

    /// The asset rows in capture order, a batch at a time.
    func assetRows() -> AssetRows { AssetRows(library: self) }

    /// The asset rows in capture order: ``next(_:)`` gives the next ones until none is left.
    struct AssetRows {
        private let library: ScaleLibrary
        private var random: SplitMix64
        private let paths: [String]
        private let months: Int
        private let events: Int
        private let calendar: Calendar
        private let first: DateComponents
        private var index = 0

        init(library: ScaleLibrary) {
            self.library = library
            random = SplitMix64(seed: library.seed)
            paths = library.directories
            months = paths.filter { $0.hasPrefix("Camera/") }.count
            events = max(0, library.folders - months)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            self.calendar = calendar
            first = calendar.dateComponents([.year, .month], from: Date(timeIntervalSince1970: library.start))
        }

        /// Up to `count` more rows; none once every asset was given.
        mutating func next(_ count: Int) -> [Asset] {
            var rows: [Asset] = []
            rows.reserveCapacity(count)
            let (assets, start, now) = (library.assets, library.start, library.now)
            while rows.count < count, index < assets {
                defer { index += 1 }
                let id = Int64(index + 1)
                // Capture dates thin out into the past: the place in the library to the power 1/0.7.
                let place = (Double(index) + random.unit()) / Double(assets)
                let date = start + (now - start) * pow(place, 1 / 0.7)
                let parts = calendar.dateComponents([.year, .month], from: Date(timeIntervalSince1970: date))
                let month = (parts.year! - first.year!) * 12 + parts.month! - first.month!
                var directory = Int64(min(month, months - 1) + 1)
                if events > 0, random.unit() < 0.15 { directory = Int64(months + index * events / assets + 1) }
                let kind = random.unit()
                let (mediaType, format, suffix): (Int, String, String) =
                    kind < 0.07 ? (1, "mov", "MOV") : kind < 0.25 ? (0, "heic", "HEIC") : kind < 0.32 ? (0, "png", "PNG") : (0, "jpeg", "JPG")
                let filename = String(format: "IMG_%07d.%@", index, suffix)
                let deleted = random.unit() < 0.003
                let screenshot = format == "png"
                rows.append(Asset(
                    id: id, uuid: ScaleLibrary.uuid(index: index, seed: library.seed), relativePath: paths[Int(directory) - 1] + "/" + filename,
                    directoryId: directory, filename: filename, mediaType: mediaType,
                    pixelWidth: screenshot ? 1170 : 4032, pixelHeight: screenshot ? 2532 : 3024, creationDate: date,
                    byteSize: mediaType == 1 ? 40_000_000 : 2_500_000, duration: mediaType == 1 ? 5 + 60 * random.unit() : nil,
                    format: format, isFavorite: random.unit() < 0.03, isHidden: random.unit() < 0.005,
                    deletedAt: deleted ? now - 20 * 86_400 * random.unit() : nil, addedAt: min(now, date + 3 * 86_400 * random.unit())))
            }
            return rows
        }
    }

    /// Every user album's members (asset ids) in album order: a run of assets from a random
    /// start, each taken with a chance of 60%.
    func albumMembers(_ body: (_ album: Int, _ members: [Int64]) throws -> Void) rethrows {
        var random = SplitMix64(seed: seed &+ 1)
        for album in 0..<albums {
            let size = 5 + Int(195 * pow(random.unit(), 4))
            var id = Int64(1 + Int(random.next() % UInt64(assets)))
            var members: [Int64] = []
            while members.count < size, id <= assets {
                if random.unit() < 0.6 { members.append(id) }
                id += 1
            }
            try body(album, members)
        }
    }

    /// `count` visible-or-not assets picked at random, in pick order, by UUID (a picker
    /// session's picks).
    func picks(_ count: Int) -> [UUID] {
        var random = SplitMix64(seed: seed &+ 2)
        var chosen = Set<Int>()
        var order: [UUID] = []
        while order.count < min(count, assets) {
            let index = Int(random.next() % UInt64(assets))
            if chosen.insert(index).inserted { order.append(Self.uuid(index: index, seed: seed)) }
        }
        return order
    }

    /// The UUID of the asset at `index`, from the seed alone.
    static func uuid(index: Int, seed: UInt64) -> UUID {
        var random = SplitMix64(seed: seed ^ UInt64(bitPattern: Int64(index)) &* 0x9E37_79B9_7F4A_7C15)
        let high = random.next(), low = random.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for byte in 0..<8 {
            bytes[byte] = UInt8(truncatingIfNeeded: high >> (8 * byte))
            bytes[byte + 8] = UInt8(truncatingIfNeeded: low >> (8 * byte))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
