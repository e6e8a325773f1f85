import AssetsKit
import Foundation

/// A collection every library over a folder tree has, whichever backend names it: All Photos
/// and each folder of the tree.
///
/// The folder library calls them `camera-roll` and `assets-library://group/?id=UUID`; an
/// indexed library `smart:all` and `directory:UUID`, with the same UUID
/// (``AssetUUID/forDirectory(atRelativePath:)``). Each backend hands out its own form and
/// accepts both, so an album id kept before a library was indexed still answers after it (and
/// after `--backend folder`), as asset ids do.
package enum TreeCollection: Hashable, Sendable {
    /// All Photos: every asset of the library.
    case allPhotos
    /// The folder whose ``AssetUUID/forDirectory(atRelativePath:)`` is this UUID.
    case directory(UUID)

    /// The folder library's form of All Photos.
    package static let folderAllPhotos = "camera-roll"
    /// The indexed library's form of All Photos.
    package static let indexedAllPhotos = "smart:all"
    private static let folderDirectoryPrefix = "assets-library://group/?id="
    private static let indexedDirectoryPrefix = "directory:"

    /// Parses either backend's form; `nil` for anything else (an indexed library's other
    /// smart albums and user albums among them).
    package init?(_ identifier: CollectionIdentifier) {
        let text = identifier.rawValue
        if text == Self.folderAllPhotos || text == Self.indexedAllPhotos {
            self = .allPhotos
        } else if let uuid = Self.uuid(in: text, after: Self.folderDirectoryPrefix) ?? Self.uuid(in: text, after: Self.indexedDirectoryPrefix) {
            self = .directory(uuid)
        } else {
            return nil
        }
    }

    /// The folder at `relativePath` (empty for the root).
    package init(directoryAt relativePath: String) {
        self = .directory(AssetUUID.forDirectory(atRelativePath: relativePath))
    }

    /// The identifier the folder library hands out for it.
    package var folderLibraryIdentifier: CollectionIdentifier {
        switch self {
        case .allPhotos: CollectionIdentifier(Self.folderAllPhotos)
        case .directory(let uuid): CollectionIdentifier(Self.folderDirectoryPrefix + uuid.uuidString)
        }
    }

    /// The identifier an indexed library hands out for it.
    package var indexedLibraryIdentifier: CollectionIdentifier {
        switch self {
        case .allPhotos: CollectionIdentifier(Self.indexedAllPhotos)
        case .directory(let uuid): CollectionIdentifier(Self.indexedDirectoryPrefix + uuid.uuidString)
        }
    }

    /// Whether `identifier` has the form of a collection only an indexed library keeps (its
    /// other smart albums, `smart:…`, and the person's albums and folders, `album:UUID`), which
    /// a library read as a plain folder cannot answer.
    package static func isIndexedOnly(_ identifier: CollectionIdentifier) -> Bool {
        TreeCollection(identifier) == nil && (identifier.rawValue.hasPrefix("smart:") || identifier.rawValue.hasPrefix("album:"))
    }

    private static func uuid(in text: String, after prefix: String) -> UUID? {
        guard text.hasPrefix(prefix) else { return nil }
        return UUID(uuidString: String(text.dropFirst(prefix.count)))
    }
}
