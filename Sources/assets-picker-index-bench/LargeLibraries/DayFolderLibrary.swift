import AssetsKit
import Foundation
import ImageMetadata
import SyntheticMedia

/// A generated library shaped as cameras and phone exports make them: one folder per day (or
/// per year), small real JPEGs whose EXIF capture dates and file dates follow the folders.
struct DayFolderLibrary {
    let root: URL
    let assets: Int
    let folders: Int

    /// The folder of the library for a layout, under `work`.
    init(work: URL, assets: Int, folders: Int) {
        self.root = work.appendingPathComponent("library-\(assets)-in-\(folders)", isDirectory: true)
        self.assets = assets
        self.folders = folders
    }

    /// Writes the library unless a finished one is already there (the stamp file is written last).
    func makeIfNeeded() throws {
        let stamp = root.deletingLastPathComponent().appendingPathComponent(root.lastPathComponent + ".complete")
        if FileManager.default.fileExists(atPath: stamp.path) { return }
        try? FileManager.default.removeItem(at: root)
        Log.stage("writing \(assets) JPEGs in \(folders) folders")
        let photo = try SyntheticPhoto(size: PixelSize(width: 64, height: 48), seed: 11).encoded(as: .jpeg)
        let calendar = Calendar(identifier: .gregorian)
        let firstDay = DateComponents(calendar: calendar, timeZone: TimeZone(identifier: "UTC"), year: 2006, month: 1, day: 1).date!
        // Folders are spread over twenty years; each holds an equal share of the photos.
        let daysApart = max(1, 7_300 / folders)
        for folder in 0..<folders {
            let day = firstDay.addingTimeInterval(Double(folder * daysApart) * 86_400)
            let directory = root.appendingPathComponent(Self.folderName(day, yearly: folders <= 20), isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let count = assets / folders + (folder < assets % folders ? 1 : 0)
            for index in 0..<count {
                let taken = day.addingTimeInterval(Double(index) * 86_400 * Double(daysApart) / Double(max(count, 1)))
                let data = try ExifWriter.inserting(
                    ExifMetadata(make: "Bench", model: "Day Camera",
                                 dateTimeOriginal: ExifDateTime(exifString: Self.exifFormat.string(from: taken)),
                                 pixelXDimension: 64, pixelYDimension: 48),
                    thumbnail: nil, into: photo)
                let file = directory.appendingPathComponent(String(format: "IMG_%05d.JPG", index))
                try data.write(to: file)
                try FileManager.default.setAttributes([.modificationDate: taken], ofItemAtPath: file.path)
            }
        }
        try Data().write(to: stamp)
    }

    private static func folderName(_ day: Date, yearly: Bool) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = yearly ? "yyyy" : "yyyy-MM-dd"
        return formatter.string(from: day)
    }

    private static let exifFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return formatter
    }()
}
