/// What an asset is: a still photo or a video.
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A still image.
    case photo
    /// A video.
    case video
}

/// Which media types a fetch, a count or a poster takes into account.
public enum MediaFilter: String, Sendable, Hashable, Codable, CaseIterable {
    /// Photos only.
    case photo
    /// Videos only.
    case video
    /// Photos and videos.
    case all

    /// Whether an asset of `type` passes the filter.
    public func includes(_ type: MediaType) -> Bool {
        switch self {
        case .all: true
        case .photo: type == .photo
        case .video: type == .video
        }
    }
}
