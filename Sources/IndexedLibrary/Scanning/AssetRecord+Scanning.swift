import AssetsKit
import Foundation
import LibraryTree
import MediaProbing

extension AssetRecord {
    /// A new row for `original`, adopted in place or just imported.
    package init(original: StoredOriginal, metadata: MediaMetadata, fingerprint: String, uuid: UUID, directoryId: Int64, addedAt: Date) {
        self.init(
            uuid: uuid, relativePath: original.path, directoryId: directoryId, filename: original.filename,
            mediaType: 0, pixelWidth: 0, pixelHeight: 0, creationDate: 0, creationDateSource: .fileModificationDate,
            modificationTime: 0, byteSize: 0, orientation: 1, format: "", hasEmbeddedThumbnail: false,
            fingerprint: fingerprint, addedAt: addedAt.timeIntervalSince1970)
        refresh(from: original, metadata: metadata, fingerprint: fingerprint)
    }

    /// Takes what was read from a new version of the file; identity, place and the person's
    /// marks (favourite, hidden, deleted, albums) stay.
    package mutating func refresh(from original: StoredOriginal, metadata: MediaMetadata, fingerprint: String) {
        let creation = metadata.creation(fileModificationDate: original.modificationDate)
        mediaType = metadata.mediaType.databaseCode
        pixelWidth = metadata.pixelSize.width
        pixelHeight = metadata.pixelSize.height
        creationDate = creation.date.timeIntervalSince1970
        timeZoneOffset = creation.timeZoneOffset
        creationDateSource = creation.source
        modificationTime = original.modificationTime
        byteSize = original.byteSize
        duration = metadata.duration
        framesPerSecond = metadata.mediaType == .video ? metadata.framesPerSecond ?? 0 : nil
        orientation = metadata.orientation
        latitude = metadata.location?.latitude
        longitude = metadata.location?.longitude
        altitude = metadata.location?.altitude
        make = metadata.camera?.make
        model = metadata.camera?.model
        format = metadata.format
        hasEmbeddedThumbnail = metadata.hasEmbeddedThumbnail
        self.fingerprint = fingerprint
    }
}
