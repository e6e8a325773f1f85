import Foundation

/// What a client asks of a new session.
public struct PickerSessionOptions: Sendable, Encodable {
    /// The most items the person may pick (1…2,000).
    public var maxItems: Int?
    /// `all`, `photo` or `video`.
    public var mediaFilter: String?
    /// `pick` (pick order) or `date` (oldest first).
    public var order: String?
    /// Identifiers to start with (a draft; legacy `assets-library://` URLs are migrated).
    public var preselected: [String]?

    public init(maxItems: Int? = nil, mediaFilter: String? = nil, order: String? = nil, preselected: [String]? = nil) {
        self.maxItems = maxItems
        self.mediaFilter = mediaFilter
        self.order = order
        self.preselected = preselected
    }
}

/// A picker session as the server describes it.
public struct PickerSessionInfo: Sendable, Decodable {
    public struct PollingConfig: Sendable, Decodable {
        /// Seconds between polls.
        public let pollInterval: Double
    }

    public let id: String
    /// Where the person picks.
    public let pickerUri: URL
    public let pollingConfig: PollingConfig
    public let expireTime: Date
    /// Whether the person has finished (Done or Cancel).
    public let mediaItemsSet: Bool
    /// `picking`, `complete` or `cancelled`.
    public let state: String
    public let maxItems: Int
    public let mediaFilter: String
    public let order: String
    /// How many items were picked, once finished.
    public let pickedCount: Int?
}

/// A picked photo or video.
public struct PickedItem: Sendable, Decodable, Hashable {
    /// The item's identifier in the session's URLs (the asset's UUID).
    public let id: String
    /// The library's identifier of the asset (`UUID/L0/001`).
    public let localIdentifier: String
    public let filename: String
    /// `photo` or `video`.
    public let mediaType: String
    /// Upright pixel size.
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// ISO 8601, with the camera's offset when it recorded one.
    public let creationDate: String
    public let byteSize: Int64
    /// Seconds, for videos.
    public let duration: Double?
}

/// One page of picked items.
public struct PickedItemPage: Sendable, Decodable {
    public let items: [PickedItem]
    /// Pass to the next request; `nil` on the last page.
    public let nextPageToken: String?
}

/// How a rendition fits its box: whole (`fit`) or cropped to fill it exactly (`fill`).
public enum ImageFit: String, Sendable {
    case fit, fill
}

/// The encoding of a rendition.
public enum ImageEncoding: String, Sendable {
    case jpeg, webp
}

/// An answer other than success: the HTTP status and the server's code and message.
public struct PickerClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public let status: Int
    /// The server's machine-readable code, e.g. `notFound`, `badParameter`.
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
                let code: String
                let message: String
            }
            let error: Detail
        }
        let detail = try? JSONDecoder().decode(Body.self, from: body).error
        self.init(status: status, code: detail?.code ?? "http\(status)",
                  message: detail?.message ?? String(decoding: body.prefix(500), as: UTF8.self))
    }

    public var description: String { "\(status) \(code): \(message)" }
}
