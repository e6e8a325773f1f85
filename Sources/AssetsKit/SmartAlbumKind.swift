/// Which of the albums a library keeps by rule a collection is, whatever its identifier or title
/// (PhotoKit's smart-album subtypes). A picker translates a title by it and leaves out the trash
/// by it; no caller reads it from an identifier's spelling.
public enum SmartAlbumKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every asset of the library not hidden or deleted: the camera roll.
    case allPhotos
    /// The assets the person marked as favourites.
    case favorites
    /// The videos.
    case videos
    /// The assets added to the library lately.
    case recentlyAdded
    /// The assets the person deleted and may still restore: the trash, never offered for picking.
    case recentlyDeleted
}
