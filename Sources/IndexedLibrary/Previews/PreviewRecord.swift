import Foundation
import ImagePipeline

/// A preview the index records (schema v6's `preview`): whose it is and which version of the
/// asset's file it was made from.
package struct PreviewRecord: Sendable, Hashable {
    package var assetID: Int64
    package var uuid: UUID
    package var byteSize: Int64
    /// Nanoseconds since 1970, as the asset row has it.
    package var modificationTime: Int64

    package init(assetID: Int64, uuid: UUID, byteSize: Int64, modificationTime: Int64) {
        self.assetID = assetID
        self.uuid = uuid
        self.byteSize = byteSize
        self.modificationTime = modificationTime
    }

    /// The preview of the version of `record`'s file the index holds now.
    package init(of record: AssetRecord) {
        self.init(assetID: record.id ?? 0, uuid: record.uuid, byteSize: record.byteSize, modificationTime: record.modificationTime)
    }

    /// The version of the file the preview was made from, as the image path names it
    /// (``ImagePipeline/ImageSourceFile/version`` of the asset's source then).
    package var version: SourceVersion {
        SourceVersion(assetKey: uuid.uuidString, byteSize: byteSize,
                      modificationTime: SourceVersion.nanoseconds(Date(timeIntervalSince1970: Double(modificationTime) / 1e9)))
    }
}

/// A photo of the camera roll that gets a preview and has none of its file's current version
/// (see ``IndexStore/photosLackingPreviews(coverage:newest:)``).
package struct PhotoLackingPreview: Sendable {
    /// The photo's row.
    package var record: AssetRecord
    /// The preview of an earlier version of its file, to remove once the new one is made.
    package var previous: PreviewRecord?

    package init(record: AssetRecord, previous: PreviewRecord?) {
        self.record = record
        self.previous = previous
    }
}

/// Which assets of the camera roll get a preview.
package enum PreviewCoverage: Sendable, Hashable {
    /// Photos without an embedded EXIF thumbnail (that thumbnail is the others' first image):
    /// for originals on this machine.
    case photosWithoutThumbnail
    /// Every photo and video: for originals kept elsewhere, whose thumbnails and poster frames
    /// must not wait for the network (an EXIF thumbnail is read from the original).
    case everyAsset
}
