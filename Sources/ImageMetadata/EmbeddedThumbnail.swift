import Foundation

/// The JPEG thumbnail a camera embeds in IFD1 of a photo's EXIF, read fast enough to answer
/// an image request before the photo itself is decoded.
public enum EmbeddedThumbnail {
    /// How much of a file is read first; EXIF APP1 segments start well inside it.
    public static let initialReadLength = 64 * 1024
    /// The most ever read: enough for a maximal APP1 segment (65535 bytes plus its marker)
    /// starting at the end of the initial read.
    public static let maximumReadLength = initialReadLength + 2 + 65535

    /// The thumbnail embedded in the JPEG file at `url`, or `nil` if it has none usable.
    ///
    /// Reads the first ``initialReadLength`` bytes, and once more up to the end of the EXIF
    /// segment if that runs past them. Throws only when the file cannot be opened or read.
    public static func extract(fromJPEGAt url: URL) throws -> Data? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var data = try handle.read(upToCount: initialReadLength) ?? Data()
        do {
            return try thumbnail(inJPEG: data)
        } catch let .truncatedSegment(_, _, end, available) where available == initialReadLength && end <= maximumReadLength {
            data += try handle.read(upToCount: end - available) ?? Data()
            return try? thumbnail(inJPEG: data)
        } catch {
            return nil
        }
    }

    /// The thumbnail embedded in `jpeg` (the whole file or at least its header segments), or
    /// `nil` if it has none usable.
    public static func extract(fromJPEGData jpeg: Data) -> Data? {
        try? thumbnail(inJPEG: jpeg)
    }

    /// The IFD1 thumbnail of the EXIF APP1 in `jpeg`, if it lies inside the segment and starts with SOI.
    private static func thumbnail(inJPEG jpeg: Data) throws(JPEGStructureError) -> Data? {
        guard let segment = try JPEGExifLocator.locate(in: jpeg),
              let range = (try? ExifReader.parse(segment.tiff))?.thumbnail,
              range.count >= 2 else { return nil }
        let thumbnail = segment.tiff[range]
        guard thumbnail.first == 0xFF, thumbnail.dropFirst().first == 0xD8 else { return nil }
        return Data(thumbnail)
    }
}
