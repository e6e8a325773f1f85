import Foundation
import ProcessRunning

/// The ways a JPEG can carry where it was taken past a cleaner that removes what it knows to be
/// bad, each made at test time from a camera photo of the corpus (copied, never written in place).
///
/// Every case plants the place in its own way and names the texts it planted, so that a test
/// can look for them in bytes that must not carry them.
public enum PlantedPlace: String, CaseIterable, Sendable, CustomStringConvertible {
    /// GPS in the EXIF's GPS directory and a place in XMP, the usual way (exiftool).
    case exifGPSAndXMP
    /// IPTC-IIM City, Sub-location, Province-State and Country in Photoshop's APP13 (exiftool).
    case iptcPlace
    /// A JPEG comment (COM) naming the place (exiftool).
    case comment
    /// A GPS directory pointed to from IFD1.
    case gpsFromIFD1
    /// A GPS directory pointed to from the Exif IFD.
    case gpsFromExifIFD
    /// Two GPSInfo entries in IFD0: the first points to the place, the second to an empty directory.
    case secondGPSInfoEntry
    /// A second EXIF APP1 under the odd signature `Exif\0\xFF`, holding GPS.
    case oddExifSignature
    /// XMP inside Photoshop's APP13 (image resource 0x0424).
    case xmpInPhotoshopSegment
    /// XMP in an APP1 under the signature `XMP\0://ns.adobe.com/xap/1.0/`.
    case xmpUnderOddSignature
    /// The EXIF thumbnail, itself a JPEG with GPS of its own (exiftool).
    case thumbnailWithItsOwnGPS
    /// An MPO: an MPF APP2, and after the first image's EOI a second image with GPS and IPTC City.
    case mpoSecondImage
    /// A motion photo: an MP4 with a location appended after the JPEG's EOI (ffmpeg).
    case motionPhotoVideo
    /// A progressive JPEG (jpegtran) with GPS, and a comment naming the place between its scans.
    case commentBetweenProgressiveScans

    public var description: String { rawValue }

    /// A JPEG made with a planted place.
    public struct Planted: Sendable {
        /// The whole file.
        public let data: Data
        /// Offset just past the first image's EOI (the end of `data` unless something follows it).
        public let firstImageEnd: Int
        /// Bytes of the first image's scans that a rebuilt copy leaves out (a comment between scans).
        public let droppedBetweenScans: Range<Int>?
        /// The texts planted, none of which may survive.
        public let texts: [String]
    }

    /// The corpus photo every case starts from: a Canon with an ICC profile, EXIF dates,
    /// exposure and an EXIF thumbnail, given orientation 6 first so that it is not the default.
    public static let baseName = "A_camera_exif/jhead__canon-bigend.jpg"

    /// What the base photo must keep, as exiftool reads it (``ExifTool/tags(of:)``).
    public static let keptFromBase = [
        "IFD0:Orientation": "Rotate 90 CW", "ExifIFD:DateTimeOriginal": "2010:01:24 12:31:13", "IFD0:Make": "Canon",
        "IFD0:Model": "Canon PowerShot A710 IS", "ExifIFD:ExposureTime": "1/250", "ICC_Profile:ProfileDescription": "sRGB IEC61966-2.1",
    ]

    /// The keys of exiftool's `tags` that name a place or a position, sorted.
    public static func placeKeys(in tags: [String: String]) -> [String] {
        tags.keys.filter { key in
            ["gps", "city", "location", "country", "province", "sub-location", "sublocation"].contains { key.lowercased().contains($0) }
        }.sorted()
    }

    /// Makes the photo with this planted place in `folder` (a temporary folder of the test's).
    public func make(in folder: URL) async throws -> Planted {
        let base = folder.appendingPathComponent("base-\(rawValue).jpg")
        try Data(contentsOf: Corpus.file(Self.baseName)).write(to: base)
        try await ExifTool.run(["-q", "-overwrite_original", "-IFD0:Orientation#=6", base.path])
        let file = folder.appendingPathComponent("\(rawValue).jpg")
        try FileManager.default.copyItem(at: base, to: file)
        let gps = ["-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E"]
        switch self {
        case .exifGPSAndXMP:
            try await ExifTool.run(["-q", "-overwrite_original"] + gps + [
                "-GPSAreaInformation=Plantedgpsarea", "-XMP-photoshop:City=Plantedxmpcity",
                "-XMP-exif:GPSLatitude=48.8584", "-XMP-exif:GPSLongitude=2.2945", file.path,
            ])
            return try whole(file, ["Plantedgpsarea", "Plantedxmpcity"])
        case .iptcPlace:
            try await ExifTool.run(["-q", "-overwrite_original", "-IPTC:City=Plantedcity", "-IPTC:Sub-location=Plantedsublocation",
                                    "-IPTC:Province-State=Plantedprovince", "-IPTC:Country-PrimaryLocationName=Plantedcountry", file.path])
            return try whole(file, ["Plantedcity", "Plantedsublocation", "Plantedprovince", "Plantedcountry"])
        case .comment:
            try await ExifTool.run(["-q", "-overwrite_original", "-Comment=Taken at Plantedcommentplace", file.path])
            return try whole(file, ["Plantedcommentplace"])
        case .gpsFromIFD1, .gpsFromExifIFD, .secondGPSInfoEntry:
            let data = Self.replacingExif(of: try Data(contentsOf: file), with: Self.handMadeExif(self))
            return Planted(data: data, firstImageEnd: data.count, droppedBetweenScans: nil, texts: ["Plantedgpsarea"])
        case .oddExifSignature:
            let payload = HandMadeTIFF([Self.ifd0(pointers: [(0x8825, .directory(1))]), Self.gpsDirectory]).exifPayload(signature: Array("Exif".utf8) + [0, 0xFF])
            return try inserting(Self.segment(0xE1, payload), into: file, ["Plantedgpsarea"])
        case .xmpInPhotoshopSegment:
            let xmp = Self.xmp(city: "Plantedphotoshopxmpcity")
            let resource = Array("8BIM".utf8) + [0x04, 0x24, 0, 0] + Self.long(UInt32(xmp.count)) + xmp + (xmp.count % 2 == 1 ? [0] : [])
            return try inserting(Self.segment(0xED, Array("Photoshop 3.0".utf8) + [0] + resource), into: file, ["Plantedphotoshopxmpcity"])
        case .xmpUnderOddSignature:
            let payload = Array("XMP".utf8) + [0] + Array("://ns.adobe.com/xap/1.0/".utf8) + [0] + Self.xmp(city: "Plantedoddxmpcity")
            return try inserting(Self.segment(0xE1, payload), into: file, ["Plantedoddxmpcity"])
        case .thumbnailWithItsOwnGPS:
            let thumbnail = folder.appendingPathComponent("thumbnail-\(rawValue).jpg")
            try await ExifTool.run(["-b", "-ThumbnailImage", file.path]).write(to: thumbnail)
            try await ExifTool.run(["-q", "-overwrite_original"] + gps + ["-GPSAreaInformation=Plantedthumbnailarea", thumbnail.path])
            try await ExifTool.run(["-q", "-overwrite_original", "-ThumbnailImage<=\(thumbnail.path)", file.path])
            return try whole(file, ["Plantedthumbnailarea"])
        case .mpoSecondImage:
            let second = folder.appendingPathComponent("second-\(rawValue).jpg")
            try Data(contentsOf: Corpus.file("A_camera_exif/jhead__gpsinfo.jpg")).write(to: second)
            try await ExifTool.run(["-q", "-overwrite_original", "-IPTC:City=Plantedsecondimagecity", second.path])
            return try Self.mpo(first: try Data(contentsOf: file), second: try Data(contentsOf: second), texts: ["Plantedsecondimagecity"])
        case .motionPhotoVideo:
            let video = folder.appendingPathComponent("video-\(rawValue).mp4")
            let output = try await ToolRunner.fixture(.ffmpeg, arguments: [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=5", "-t", "1",
                "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-movflags", "use_metadata_tags",
                "-metadata", "location=+48.8584+002.2945/", "-metadata", "title=Plantedvideoplace", video.path,
            ])
            guard output.succeeded else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: output.standardError]) }
            let jpeg = try Data(contentsOf: file)
            return Planted(data: jpeg + (try Data(contentsOf: video)), firstImageEnd: jpeg.count, droppedBetweenScans: nil,
                           texts: ["Plantedvideoplace", "+48.8584"])
        case .commentBetweenProgressiveScans:
            let output = try await ToolRunner.fixture(ExternalTool("jpegtran"), arguments: ["-copy", "all", "-progressive", file.path])
            guard output.succeeded else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: output.standardError]) }
            try output.standardOutput.write(to: file)
            try await ExifTool.run(["-q", "-overwrite_original"] + gps + ["-GPSAreaInformation=Plantedgpsarea", file.path])
            var jpeg = [UInt8](try Data(contentsOf: file))
            let at = Self.endOfFirstScan(in: jpeg)
            let comment = Self.segment(0xFE, Array("Taken at Plantedscanplace".utf8))
            jpeg.insert(contentsOf: comment, at: at)
            return Planted(data: Data(jpeg), firstImageEnd: jpeg.count, droppedBetweenScans: at..<(at + comment.count),
                           texts: ["Plantedgpsarea", "Plantedscanplace"])
        }
    }

    private func whole(_ file: URL, _ texts: [String]) throws -> Planted {
        let data = try Data(contentsOf: file)
        return Planted(data: data, firstImageEnd: data.count, droppedBetweenScans: nil, texts: texts)
    }

    /// The file with `segment` put right after its SOI.
    private func inserting(_ segment: [UInt8], into file: URL, _ texts: [String]) throws -> Planted {
        let jpeg = try Data(contentsOf: file)
        let data = jpeg.prefix(2) + Data(segment) + jpeg.dropFirst(2)
        return Planted(data: data, firstImageEnd: data.count, droppedBetweenScans: nil, texts: texts)
    }

    // MARK: Hand-made EXIF

    private static var gpsDirectory: HandMadeTIFF.Directory {
        HandMadeTIFF.Directory([
            (0x0000, .bytes([2, 3, 0, 0])),
            (0x0001, .ascii("N")), (0x0002, .rationals([(48, 1), (51, 1), (3024, 100)])),
            (0x0003, .ascii("E")), (0x0004, .rationals([(2, 1), (17, 1), (4020, 100)])),
            (0x001C, .undefined(Array("ASCII".utf8) + [0, 0, 0] + Array("Plantedgpsarea".utf8))),
        ])
    }

    /// IFD0 as the base photo has it (make, model, orientation 6), with `pointers` added as given.
    private static func ifd0(pointers: [(tag: UInt16, value: HandMadeTIFF.Value)], next: Int? = nil) -> HandMadeTIFF.Directory {
        HandMadeTIFF.Directory([(0x010F, .ascii("Canon")), (0x0110, .ascii("Canon PowerShot A710 IS")), (0x0112, .short(6))] + pointers,
                               next: next)
    }

    /// The Exif IFD as the base photo has it (version, date taken, exposure), with `pointers` added.
    private static func exifDirectory(pointers: [(tag: UInt16, value: HandMadeTIFF.Value)] = []) -> HandMadeTIFF.Directory {
        HandMadeTIFF.Directory([(0x829A, .rationals([(1, 250)])), (0x9000, .undefined(Array("0220".utf8))),
                                (0x9003, .ascii("2010:01:24 12:31:13"))] + pointers)
    }

    /// The EXIF APP1 segment of the hand-made cases: the GPS directory (index 2) where each puts it.
    private static func handMadeExif(_ place: PlantedPlace) -> [UInt8] {
        let directories: [HandMadeTIFF.Directory]
        switch place {
        case .gpsFromIFD1:
            directories = [ifd0(pointers: [(0x8769, .directory(1))], next: 3), exifDirectory(), gpsDirectory,
                           HandMadeTIFF.Directory([(0x8825, .directory(2))])]
        case .gpsFromExifIFD:
            directories = [ifd0(pointers: [(0x8769, .directory(1))]), exifDirectory(pointers: [(0x8825, .directory(2))]), gpsDirectory]
        default:
            directories = [ifd0(pointers: [(0x8769, .directory(1)), (0x8825, .directory(2)), (0x8825, .directory(3))]),
                           exifDirectory(), gpsDirectory, HandMadeTIFF.Directory([])]
        }
        return segment(0xE1, HandMadeTIFF(directories).exifPayload())
    }

    // MARK: Segments

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + short(UInt16(payload.count + 2)) + payload
    }

    private static func short(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func long(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// An XMP packet naming `city`, with a GPS position.
    private static func xmp(city: String) -> [UInt8] {
        Array("""
        <?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF \
        xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description rdf:about='' \
        xmlns:photoshop='http://ns.adobe.com/photoshop/1.0/' xmlns:exif='http://ns.adobe.com/exif/1.0/' \
        photoshop:City='\(city)' exif:GPSLatitude='48,51.504N' exif:GPSLongitude='2,17.67E'/></rdf:RDF></x:xmpmeta><?xpacket end='w'?>
        """.utf8)
    }

    /// The length of the first EXIF APP1 segment of `jpeg`, with its marker.
    private static func exifSegmentLength(in jpeg: Data) -> Int {
        let bytes = [UInt8](jpeg)
        let at = exifSegmentStart(in: bytes)
        return 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
    }

    private static func exifSegmentStart(in bytes: [UInt8]) -> Int {
        var offset = 2
        while !(bytes[offset + 1] == 0xE1 && bytes[(offset + 4)..<(offset + 8)].elementsEqual("Exif".utf8)) {
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return offset
    }

    /// `jpeg` with its EXIF APP1 segment replaced by `segment`.
    private static func replacingExif(of jpeg: Data, with segment: [UInt8]) -> Data {
        var bytes = [UInt8](jpeg)
        let at = exifSegmentStart(in: bytes)
        bytes.replaceSubrange(at..<(at + exifSegmentLength(in: jpeg)), with: segment)
        return Data(bytes)
    }

    /// Where the first scan's entropy-coded data ends in `jpeg` (a baseline or progressive file
    /// with nothing odd in its header): the first marker after it that is neither a stuffed
    /// byte nor a restart.
    private static func endOfFirstScan(in jpeg: [UInt8]) -> Int {
        var offset = 2
        while jpeg[offset + 1] != 0xDA { offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])) }
        offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        while !(jpeg[offset] == 0xFF && jpeg[offset + 1] != 0 && !(0xD0...0xD7).contains(jpeg[offset + 1])) { offset += 1 }
        return offset
    }

    /// An MPO of two images: `first` with an MPF APP2 (after its SOI) whose index points to
    /// `second`, which follows the first image's EOI.
    private static func mpo(first: Data, second: Data, texts: [String]) throws -> Planted {
        // MPF: "MPF\0", a big-endian TIFF header, an index IFD (version, image count, entries).
        func mpf(firstSize: UInt32, secondOffset: UInt32) -> [UInt8] {
            let entries = long(0x2003_0000) + long(firstSize) + long(0) + short(0) + short(0)
                + long(0x0002_0002) + long(UInt32(second.count)) + long(secondOffset) + short(0) + short(0)
            let index = HandMadeTIFF([HandMadeTIFF.Directory([(0xB000, .undefined(Array("0100".utf8))), (0xB001, .long(2)),
                                                             (0xB002, .undefined(entries))])])
            return segment(0xE2, Array("MPF".utf8) + [0] + index.bytes)
        }
        let firstSize = first.count + mpf(firstSize: 0, secondOffset: 0).count
        // Offsets in the index count from the MPF TIFF header: after SOI, the marker, the length and "MPF\0".
        let tiffHeader = 2 + 4 + 4
        let index = mpf(firstSize: UInt32(firstSize), secondOffset: UInt32(firstSize - tiffHeader))
        let image = first.prefix(2) + Data(index) + first.dropFirst(2)
        return Planted(data: image + second, firstImageEnd: image.count, droppedBetweenScans: nil, texts: texts)
    }
}
