/// What an asset is: a still photo or a video.
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    case photo
    case video
}

/// Which media types a fetch, a count or a poster takes into account.
public enum MediaFilter: String, Sendable, Hashable, Codable, CaseIterable {
    case photo
    case video
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
