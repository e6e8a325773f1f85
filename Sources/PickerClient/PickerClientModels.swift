import Foundation

/// What a client asks of a new session: the Google Photos Picker API's `pickingConfig`, and this
/// server's extras (a Google client leaves them out).
public struct PickerSessionOptions: Sendable, Encodable {
    /// The most items the person may pick (1…2,000); sent as `pickingConfig.maxItemCount`.
    public var maxItemCount: Int?
    /// `all`, `photo` or `video`.
    public var mediaFilter: String?
    /// `pick` (pick order) or `date` (oldest first).
    public var order: String?
    /// Identifiers to start with (a draft; legacy `assets-library://` URLs are migrated).
    public var preselected: [String]?

    public init(maxItemCount: Int? = nil, mediaFilter: String? = nil, order: String? = nil, preselected: [String]? = nil) {
        self.maxItemCount = maxItemCount
        self.mediaFilter = mediaFilter
        self.order = order
        self.preselected = preselected
    }

    private enum CodingKeys: String, CodingKey {
        case pickingConfig, mediaFilter, order, preselected
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let maxItemCount { try container.encode(["maxItemCount": String(maxItemCount)], forKey: .pickingConfig) }
        try container.encodeIfPresent(mediaFilter, forKey: .mediaFilter)
        try container.encodeIfPresent(order, forKey: .order)
        try container.encodeIfPresent(preselected, forKey: .preselected)
    }
}

/// A picker session as the server describes it (the Picker API's `PickingSession`).
public struct PickingSession: Sendable, Decodable {
    /// How the client should poll.
    public struct PollingConfig: Sendable, Decodable {
        /// How long to wait between polls.
        public let pollInterval: Duration
        /// How long polling may still go on (until the session expires).
        public let timeoutIn: Duration

        private enum CodingKeys: String, CodingKey { case pollInterval, timeoutIn }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            pollInterval = try DurationString.decode(container, .pollInterval)
            timeoutIn = try DurationString.decode(container, .timeoutIn)
        }
    }

    public let id: String
    /// Where the person picks; append `/autoclose` to have the page close itself after Done.
    public let pickerUri: URL
    public let pollingConfig: PollingConfig
    public let expireTime: Date
    /// Whether the person has finished (Done or Cancel).
    public let mediaItemsSet: Bool
    /// The most items the person may pick.
    public let maxItemCount: Int
    /// `picking`, `complete` or `cancelled` (this server's extra).
    public let state: String?
    /// How many items were picked, once finished (this server's extra).
    public let pickedCount: Int?

    private enum CodingKeys: String, CodingKey {
        case id, pickerUri, pollingConfig, expireTime, mediaItemsSet, pickingConfig, state, pickedCount
    }

    private struct PickingConfig: Decodable {
        let maxItemCount: String
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        pickerUri = try container.decode(URL.self, forKey: .pickerUri)
        pollingConfig = try container.decode(PollingConfig.self, forKey: .pollingConfig)
        expireTime = try container.decode(Date.self, forKey: .expireTime)
        mediaItemsSet = try container.decodeIfPresent(Bool.self, forKey: .mediaItemsSet) ?? false
        let config = try container.decode(PickingConfig.self, forKey: .pickingConfig)
        guard let count = Int(config.maxItemCount) else {
            throw DecodingError.dataCorruptedError(forKey: .pickingConfig, in: container, debugDescription: "maxItemCount is not a whole number")
        }
        maxItemCount = count
        state = try container.decodeIfPresent(String.self, forKey: .state)
        pickedCount = try container.decodeIfPresent(Int.self, forKey: .pickedCount)
    }
}

/// A picked photo or video (the Picker API's `PickedMediaItem`).
public struct PickedMediaItem: Sendable, Decodable, Hashable {
    /// `PHOTO` or `VIDEO`.
    public enum Kind: String, Sendable, Decodable, Hashable {
        case photo = "PHOTO", video = "VIDEO"
    }

    /// The file and what is known of it.
    public struct MediaFile: Sendable, Decodable, Hashable {
        /// Append a ``MediaContent`` to it (``PickerClient/content(of:_:range:)`` does).
        public let baseUrl: URL
        public let mimeType: String
        public let filename: String
        public let mediaFileMetadata: Metadata
    }

    /// The upright size, the camera, and a photo's exposure or a video's frame rate.
    public struct Metadata: Sendable, Decodable, Hashable {
        public let width: Int
        public let height: Int
        public let cameraMake: String?
        public let cameraModel: String?
        /// A photo's; `nil` for a video.
        public let photoMetadata: PhotoMetadata?
        /// A video's; `nil` for a photo.
        public let videoMetadata: VideoMetadata?
    }

    /// The exposure the photo's file records; a value it does not record is `nil`.
    public struct PhotoMetadata: Sendable, Decodable, Hashable {
        /// Millimetres.
        public let focalLength: Double?
        public let apertureFNumber: Double?
        public let isoEquivalent: Int?
        /// A Duration string as the API writes it, e.g. `"0.008s"`.
        public let exposureTime: String?

        /// ``exposureTime`` in seconds.
        public var exposureSeconds: Double? {
            exposureTime.flatMap { $0.hasSuffix("s") ? Double($0.dropLast()) : nil }
        }
    }

    /// The video's frame rate and processing state (always `READY` here: the file is whole).
    public struct VideoMetadata: Sendable, Decodable, Hashable {
        public let fps: Double?
        public let processingStatus: String?
    }

    /// The item's identifier (the asset's UUID).
    public let id: String
    public let createTime: Date
    public let type: Kind
    public let mediaFile: MediaFile
}

/// One page of picked items.
public struct MediaItemsPage: Sendable, Decodable {
    public let mediaItems: [PickedMediaItem]
    /// Pass to the next request; `nil` on the last page.
    public let nextPageToken: String?

    private enum CodingKeys: String, CodingKey { case mediaItems, nextPageToken }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mediaItems = try container.decodeIfPresent([PickedMediaItem].self, forKey: .mediaItems) ?? []
        nextPageToken = try container.decodeIfPresent(String.self, forKey: .nextPageToken).flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// What to fetch of a picked item: the parameter appended to its `baseUrl`.
public enum MediaContent: Sendable, Hashable {
    /// Fit inside `width`×`height` (`=wW-hH`).
    case fit(width: Int, height: Int)
    /// Cropped to exactly `width`×`height` (`=wW-hH-c`).
    case crop(width: Int, height: Int)
    /// That width, the height in proportion (`=wW`).
    case width(Int)
    /// That height, the width in proportion (`=hH`).
    case height(Int)
    /// A photo's original bytes, without location (`=d`).
    case original
    /// A video's bytes (`=dv`).
    case video

    /// What is appended to the base URL.
    public var suffix: String {
        switch self {
        case let .fit(width, height): "=w\(width)-h\(height)"
        case let .crop(width, height): "=w\(width)-h\(height)-c"
        case let .width(width): "=w\(width)"
        case let .height(height): "=h\(height)"
        case .original: "=d"
        case .video: "=dv"
        }
    }
}

/// An answer other than success: the HTTP status and the server's Google-form error.
public struct PickerClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public let status: Int
    /// The Google API status name, e.g. `NOT_FOUND`, `FAILED_PRECONDITION`, `INVALID_ARGUMENT`.
    public let code: String
    public let message: String

    public init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    init(status: Int, body: Data) {
        struct Body: Decodable {
            struct Detail: Decodable {
                let status: String
                let message: String
            }
            let error: Detail
        }
        let detail = try? JSONDecoder().decode(Body.self, from: body).error
        self.init(status: status, code: detail?.status ?? "HTTP_\(status)",
                  message: detail?.message ?? String(decoding: body.prefix(500), as: UTF8.self))
    }

    public var description: String { "\(status) \(code): \(message)" }
}

/// Google's JSON form of a duration: seconds with a fraction and the suffix `s` (`"1799.5s"`).
enum DurationString {
    static func decode<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Duration {
        let text = try container.decode(String.self, forKey: key)
        guard text.hasSuffix("s"), let seconds = Double(text.dropLast()), seconds >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "'\(text)' is not a duration like \"5s\"")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
