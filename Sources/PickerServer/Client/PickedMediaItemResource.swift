import AssetsKit
import Foundation
import MediaProbing

/// A picked item as the Google Photos Picker API's `PickedMediaItem` describes it.
///
/// `photoMetadata` carries only what the library indexes (nothing of exposure yet: Google's
/// `focalLength`, `apertureFNumber`, `isoEquivalent` and `exposureTime` are left out, as Google
/// leaves out what it does not know); a video's is always `READY`, as its file is whole.
struct PickedMediaItemResource: Encodable, Sendable {
    struct MediaFile: Encodable, Sendable {
        let baseUrl: String
        let mimeType: String
        let filename: String
        let mediaFileMetadata: Metadata
    }

    struct Metadata: Encodable, Sendable {
        let width: Int
        let height: Int
        let cameraMake: String?
        let cameraModel: String?
        let photoMetadata: PhotoMetadata?
        let videoMetadata: VideoMetadata?
    }

    struct PhotoMetadata: Encodable, Sendable {}

    struct VideoMetadata: Encodable, Sendable {
        let processingStatus = "READY"
    }

    let id: String
    /// RFC 3339 in UTC (`Z`).
    let createTime: String
    /// `PHOTO` or `VIDEO`.
    let type: String
    let mediaFile: MediaFile

    /// - Parameter baseURL: The item's base URL, to which the client appends `=w…-h…`, `=d` or `=dv`.
    init(_ asset: Asset, baseURL: String) {
        id = asset.id.uuid.uuidString
        createTime = ISO8601.string(from: asset.creationDate, offset: nil)
        let isVideo = asset.mediaType == .video
        type = isVideo ? "VIDEO" : "PHOTO"
        mediaFile = MediaFile(baseUrl: baseURL, mimeType: MediaFileType.mimeType(ofFileNamed: asset.filename), filename: asset.filename,
                              mediaFileMetadata: Metadata(width: asset.pixelSize.width, height: asset.pixelSize.height,
                                                          cameraMake: asset.camera?.make, cameraModel: asset.camera?.model,
                                                          photoMetadata: isVideo ? nil : PhotoMetadata(),
                                                          videoMetadata: isVideo ? VideoMetadata() : nil))
    }
}

/// One page of `GET /v1/mediaItems`.
struct MediaItemPage: Encodable {
    let mediaItems: [PickedMediaItemResource]
    let nextPageToken: String?
}
