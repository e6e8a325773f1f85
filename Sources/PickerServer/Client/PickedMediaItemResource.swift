import AssetsKit
import Foundation
import MediaProbing

/// A picked item as the Google Photos Picker API's `PickedMediaItem` describes it.
///
/// `photoMetadata` carries the exposure the original's EXIF records and `videoMetadata` the
/// video's frame rate (see ``CaptureDetails``); a field the file lacks is left out, as Google
/// leaves out what it does not know. A video is always `READY`, as its file is whole.
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

    /// A photo's exposure, as Google's `PhotoMetadata` gives it.
    struct PhotoMetadata: Encodable, Sendable, Equatable {
        /// Millimetres.
        var focalLength: Double?
        var apertureFNumber: Double?
        var isoEquivalent: Int?
        /// A Duration string, e.g. `"0.008s"`.
        var exposureTime: String?
    }

    /// A video's frame rate and state, as Google's `VideoMetadata` gives them.
    struct VideoMetadata: Encodable, Sendable, Equatable {
        var fps: Double?
        var processingStatus = "READY"
    }

    let id: String
    /// RFC 3339 in UTC (`Z`).
    let createTime: String
    /// `PHOTO` or `VIDEO`.
    let type: String
    let mediaFile: MediaFile

    /// - Parameters:
    ///   - baseURL: The item's base URL, to which the client appends `=w…-h…`, `=d` or `=dv`.
    ///   - details: What the item's file says beyond the index.
    init(_ asset: Asset, baseURL: String, details: CaptureDetails) {
        id = asset.id.uuid.uuidString
        createTime = ISO8601.string(from: asset.creationDate, offset: nil)
        let isVideo = asset.mediaType == .video
        type = isVideo ? "VIDEO" : "PHOTO"
        mediaFile = MediaFile(baseUrl: baseURL, mimeType: MediaFileType.mimeType(ofFileNamed: asset.filename), filename: asset.filename,
                              mediaFileMetadata: Metadata(width: asset.pixelSize.width, height: asset.pixelSize.height,
                                                          cameraMake: asset.camera?.make, cameraModel: asset.camera?.model,
                                                          photoMetadata: isVideo ? nil : details.photo ?? PhotoMetadata(),
                                                          videoMetadata: isVideo ? details.video ?? VideoMetadata() : nil))
    }
}

/// One page of `GET /v1/mediaItems`.
struct MediaItemPage: Encodable {
    let mediaItems: [PickedMediaItemResource]
    let nextPageToken: String?
}
