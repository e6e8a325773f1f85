import AssetsKit
import Foundation

extension MediaMetadata {
    /// An asset's creation date, the camera's offset from UTC and where the date came from:
    /// the recorded capture time (EXIF for photos, the container for videos) with its offset,
    /// else `fileModificationDate` with no offset.
    public func creation(fileModificationDate: Date) -> (date: Date, timeZoneOffset: Int?, source: CreationDateSource) {
        guard let creationDate else { return (fileModificationDate, nil, .fileModificationDate) }
        return (creationDate, timeZoneOffset, mediaType == .photo ? .exif : .container)
    }
}

extension Asset {
    /// The asset of a file whose own metadata was read as `metadata`, dated as
    /// ``MediaMetadata/creation(fileModificationDate:)`` dates it.
    ///
    /// - Parameters:
    ///   - id: The identifier the library gives the file.
    ///   - filename: The file's name.
    ///   - modificationDate: The file's modification date.
    ///   - byteSize: The file's size in bytes.
    ///   - metadata: What the file tells about itself.
    ///   - isFavorite: Whether the person marked it a favourite.
    ///   - isHidden: Whether the person hid it.
    public init(id: AssetIdentifier, filename: String, modificationDate: Date, byteSize: Int64, metadata: MediaMetadata,
                isFavorite: Bool = false, isHidden: Bool = false) {
        let creation = metadata.creation(fileModificationDate: modificationDate)
        self.init(
            id: id, filename: filename, mediaType: metadata.mediaType, pixelSize: metadata.pixelSize,
            creationDate: creation.date, timeZoneOffset: creation.timeZoneOffset, creationDateSource: creation.source,
            modificationDate: modificationDate, byteSize: byteSize, duration: metadata.duration,
            framesPerSecond: metadata.framesPerSecond,
            orientation: metadata.orientation, location: metadata.location, camera: metadata.camera,
            format: metadata.format, hasEmbeddedThumbnail: metadata.hasEmbeddedThumbnail,
            isFavorite: isFavorite, isHidden: isHidden)
    }
}
