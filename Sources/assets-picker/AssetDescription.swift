import AssetsKit
import Foundation

/// How `info` tells a person about an asset: sentences with rounded numbers, every fact the
/// `--json` document holds (which stays exact) said once.
///
/// ```
/// goexif__sample1.jpg is a photo (JPEG), 500 × 375 pixels (0.2 megapixels), 79 KB.
/// It was taken on 23 November 2003 at 18:07:37 (no time zone recorded), as its EXIF says.
/// It was taken with a NIKON D2H, at 39.9156° N, 116.3908° E.
/// ```
struct AssetDescription {
    let asset: Asset
    let localIdentifier: String
    let originalPath: String
    let contentType: String

    /// The description, a sentence or two a line.
    var lines: [String] {
        [what, when, whereAndHow, state, storage, original, identifiers].compactMap { $0 }
    }

    private var what: String {
        let kind = asset.mediaType == .video ? "video" : "photo"
        let size = asset.pixelSize
        var facts = ["\(size.width) × \(size.height) pixels"]
        if asset.mediaType == .photo, size.width * size.height >= 100_000 {
            facts[0] += " (\(ReadableNumber.decimal(Double(size.width * size.height) / 1_000_000, places: 1)) megapixels)"
        }
        if let duration = asset.duration { facts.append(Self.duration(duration)) }
        if let fps = asset.framesPerSecond { facts.append("\(ReadableNumber.decimal(fps, places: 2)) frames a second") }
        facts.append(ReadableNumber.byteCount(asset.byteSize))
        return "\(asset.filename) is a \(kind) (\(formatName)), \(facts.joined(separator: ", "))."
    }

    /// The format in capitals; a container that names several (ffprobe's `mov,mp4,m4a,…`) by the file's extension.
    private var formatName: String {
        guard asset.format.contains(",") else { return asset.format.uppercased() }
        let fileExtension = (asset.filename as NSString).pathExtension
        return fileExtension.isEmpty ? asset.format.split(separator: ",")[0].uppercased() : fileExtension.uppercased()
    }

    private var when: String {
        let date = Self.date(asset.creationDate, offset: asset.timeZoneOffset)
        switch asset.creationDateSource {
        case .exif, .container:
            let zone = asset.timeZoneOffset.map { "(UTC\(Self.offset($0)))" } ?? "(no time zone recorded)"
            let source = asset.creationDateSource == .exif ? "as its EXIF says" : "as its container says"
            return "It was taken on \(date) \(zone), \(source)."
        case .fileModificationDate:
            return "The file records no date: it is dated by its modification time, \(date) UTC."
        }
    }

    private var whereAndHow: String? {
        var parts: [String] = []
        if let camera = asset.camera.flatMap(Self.camera) { parts.append("with \(Self.article(camera)) \(camera)") }
        if let location = asset.location { parts.append("at \(Self.place(location))") }
        guard !parts.isEmpty else { return nil }
        return "It was taken \(parts.joined(separator: ", "))."
    }

    private var state: String {
        switch (asset.isFavorite, asset.isHidden) {
        case (false, false): "It is not a favourite and not hidden."
        case (true, false): "It is a favourite, not hidden."
        case (false, true): "It is hidden (not a favourite)."
        case (true, true): "It is a favourite, and hidden."
        }
    }

    private var storage: String? {
        guard asset.mediaType == .photo else { return nil }
        let orientation = asset.orientation == 1
            ? "It is stored upright"
            : "It is stored turned (EXIF orientation \(asset.orientation)) and shown upright"
        return orientation + (asset.hasEmbeddedThumbnail ? ", with a thumbnail inside the file." : ", with no thumbnail inside the file.")
    }

    private var original: String {
        "Its original is \(originalPath) (\(contentType)), last changed on \(Self.date(asset.modificationDate, offset: nil)) UTC."
    }

    private var identifiers: String {
        let id = asset.id.description
        return id == localIdentifier ? "Its id is \(id)." : "Its id is \(id); \(localIdentifier) names it too."
    }

    // MARK: Numbers and names, rounded for reading

    /// `a` or `an` before a name, by its first letter (`an iPhone 12`, `a NIKON D2H`).
    static func article(_ word: String) -> String {
        word.lowercased().first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    /// `4.2 seconds`, `1 minute 5 seconds`, `1 hour 2 minutes`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 60 {
            let text = ReadableNumber.decimal(seconds, places: 1)
            return "\(text) second\(text == "1" ? "" : "s") long"
        }
        let whole = Int(seconds.rounded())
        let (hours, minutes, rest) = (whole / 3600, whole % 3600 / 60, whole % 60)
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        let text = hours > 0 ? [unit(hours, "hour"), unit(minutes, "minute")] : [unit(minutes, "minute"), unit(rest, "second")]
        return text.joined(separator: " ") + " long"
    }

    /// `39.9156° N, 116.3908° E` (four places: about 10 m), with the altitude in whole metres.
    static func place(_ location: GeoLocation) -> String {
        let latitude = "\(ReadableNumber.decimal(abs(location.latitude), places: 4))° \(location.latitude < 0 ? "S" : "N")"
        let longitude = "\(ReadableNumber.decimal(abs(location.longitude), places: 4))° \(location.longitude < 0 ? "W" : "E")"
        guard let altitude = location.altitude else { return "\(latitude), \(longitude)" }
        let metres = Int(altitude.rounded())
        return "\(latitude), \(longitude), \(abs(metres)) m \(metres < 0 ? "below" : "above") sea level"
    }

    /// `iPhone 12 (Apple)` style names: the model, and the make when the model does not say it.
    static func camera(_ camera: Camera) -> String? {
        let make = camera.make?.trimmingCharacters(in: .whitespaces).nilIfEmpty
        let model = camera.model?.trimmingCharacters(in: .whitespaces).nilIfEmpty
        switch (make, model) {
        case let (make?, model?):
            let brand = make.split(separator: " ").first.map { String($0).lowercased() } ?? make.lowercased()
            return model.lowercased().contains(brand) ? model : "\(make) \(model)"
        case let (make?, nil): return "\(make) camera"
        case let (nil, model?): return model
        case (nil, nil): return nil
        }
    }

    /// `23 November 2003 at 18:07:37` in the time zone `offset` seconds east of UTC (UTC when `nil`).
    static func date(_ date: Date, offset: Int?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset ?? 0) ?? TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        let month = months[max(0, min(11, (c.month ?? 1) - 1))]
        return String(format: "%d %@ %d at %02d:%02d:%02d", c.day ?? 0, month, c.year ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// `+02:00`, `-05:30`.
    static func offset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", minutes / 60, minutes % 60)
    }

}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
