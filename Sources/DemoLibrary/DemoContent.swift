import AssetsKit
import Foundation
import ImageMetadata
import ImagePipeline
import ProcessRunning
import SyntheticMedia

/// What the demo library holds, and how each file is made.
enum DemoContent {
    /// One generated photo.
    struct Photo {
        let path: String
        let size: PixelSize
        let orientation: Int
        let date: String
        let offset: Int?
        let camera: (make: String, model: String)?
        let place: (latitude: Double, longitude: Double)?
        let format: SyntheticFormat
    }

    /// One generated video.
    struct Video {
        let path: String
        let size: PixelSize
        let seconds: Int
        let rotation: Int
        let date: String
    }

    static let places: [(latitude: Double, longitude: Double)] = [
        (38.7139, -9.1394), (48.8584, 2.2945), (35.6586, 139.7454), (-33.8568, 151.2153), (40.6892, -74.0445), (31.2304, 121.4737),
    ]

    static var photos: [Photo] {
        var photos: [Photo] = []
        let orientations = [1, 1, 6, 1, 3, 1, 8, 1, 1, 6]
        let sizes = [PixelSize(width: 1600, height: 1200), PixelSize(width: 2016, height: 1512), PixelSize(width: 1200, height: 1200),
                     PixelSize(width: 1800, height: 1200), PixelSize(width: 1024, height: 768)]
        for index in 0..<18 {
            let orientation = orientations[index % orientations.count]
            let upright = sizes[index % sizes.count]
            let month = 1 + (index * 5) % 12, day = 1 + (index * 7) % 27
            photos.append(Photo(
                path: String(format: "DCIM/100APPLE/IMG_%04d.JPG", index + 1), size: upright, orientation: orientation,
                date: String(format: "%04d:%02d:%02d %02d:%02d:%02d", 2021 + index % 5, month, day, 8 + index % 12, (index * 13) % 60, (index * 29) % 60),
                offset: index % 3 == 0 ? 3600 : nil, camera: ("Apple", "iPhone 12"),
                place: index % 4 == 3 ? nil : places[index % places.count], format: .jpeg))
        }
        for index in 0..<8 {
            photos.append(Photo(
                path: String(format: "Holidays/Lisbon 2023/DSC_%04d.JPG", 101 + index),
                size: index == 0 ? PixelSize(width: 4000, height: 3000) : PixelSize(width: 2400, height: 1600),
                orientation: index == 5 ? 6 : 1, date: String(format: "2023:05:%02d %02d:15:00", 10 + index, 9 + index), offset: 3600,
                camera: ("NIKON CORPORATION", "NIKON D7500"), place: (38.70 + Double(index) * 0.004, -9.14 + Double(index) * 0.003), format: .jpeg))
        }
        for index in 0..<4 {
            photos.append(Photo(path: "Screenshots/Screenshot \(index + 1).png", size: PixelSize(width: 590, height: 1278),
                                orientation: 1, date: "2025:0\(index + 1):14 12:00:00", offset: nil, camera: nil, place: nil, format: .png))
        }
        for index in 0..<3 {
            photos.append(Photo(path: "Exports/edit-\(index + 1).webp", size: PixelSize(width: 1600, height: 1066),
                                orientation: 1, date: "2024:11:0\(index + 1) 18:30:00", offset: nil, camera: nil, place: nil, format: .webp))
        }
        return photos
    }

    static let videos: [Video] = [
        Video(path: "DCIM/100APPLE/IMG_0019.MP4", size: PixelSize(width: 640, height: 360), seconds: 3, rotation: 0, date: "2024-06-02T17:45:00Z"),
        Video(path: "Holidays/Lisbon 2023/tram.mov", size: PixelSize(width: 640, height: 360), seconds: 2, rotation: 90, date: "2023-05-12T11:20:00Z"),
    ]

    /// Writes every file of the demo library under `root`.
    static func write(into root: URL) async throws {
        let fm = FileManager.default
        for (index, photo) in photos.enumerated() {
            let url = root.appendingPathComponent(photo.path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try makePhoto(photo, seed: index + 1).write(to: url)
            try setModificationDate(of: url, exifDate: photo.date)
        }
        for video in videos {
            let url = root.appendingPathComponent(video.path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try await makeVideo(video, at: url)
        }
    }

    private static func makePhoto(_ photo: Photo, seed: Int) throws -> Data {
        let label = (photo.path as NSString).lastPathComponent.components(separatedBy: ".").first
        let synthetic = SyntheticPhoto(size: photo.size, seed: seed, label: label, orientation: photo.orientation)
        let encoded = try synthetic.encoded(as: photo.format, quality: 88)
        guard photo.format == .jpeg else { return encoded }
        let metadata = ExifMetadata(
            orientation: photo.orientation, make: photo.camera?.make, model: photo.camera?.model,
            dateTimeOriginal: ExifDateTime(exifString: photo.date), offsetTimeOriginal: photo.offset,
            gps: photo.place.map { GeoLocation(latitude: $0.latitude, longitude: $0.longitude) },
            pixelXDimension: photo.orientation >= 5 ? photo.size.height : photo.size.width,
            pixelYDimension: photo.orientation >= 5 ? photo.size.width : photo.size.height)
        return try ExifWriter.inserting(metadata, thumbnail: try synthetic.embeddedThumbnail(), into: encoded)
    }

    /// Files without EXIF get the date a camera would have given them as their file date.
    private static func setModificationDate(of url: URL, exifDate: String) throws {
        guard let date = ExifDateTime(exifString: exifDate)?.date(offsetSeconds: nil) else { return }
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
    }

    /// Encodes a test-pattern clip; a rotated one is then re-muxed with a rotate tag, which
    /// ffmpeg 5.1 turns into a display matrix only when stream-copying (and reads
    /// counter-clockwise: 270 shows the clip turned a quarter clockwise).
    private static func makeVideo(_ video: Video, at url: URL) async throws {
        let encoded = video.rotation == 0 ? url : url.deletingLastPathComponent().appendingPathComponent(".unrotated-" + url.lastPathComponent)
        try await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(video.size.width)x\(video.size.height):rate=25",
                          "-t", String(video.seconds), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast",
                          "-metadata", "creation_time=\(video.date)", encoded.path], making: url)
        guard video.rotation != 0 else { return }
        defer { try? FileManager.default.removeItem(at: encoded) }
        try await ffmpeg(["-i", encoded.path, "-c", "copy", "-metadata:s:v:0", "rotate=\((360 - video.rotation) % 360)",
                          "-metadata", "creation_time=\(video.date)", url.path], making: url)
    }

    private static func ffmpeg(_ arguments: [String], making url: URL) async throws {
        let output = try await ToolRunner.run(.ffmpeg, arguments: ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments)
        guard output.succeeded else {
            throw LibraryError.unreadableFile(path: url.path, reason: "ffmpeg could not make the demo video: \(output.standardError)")
        }
    }
}
