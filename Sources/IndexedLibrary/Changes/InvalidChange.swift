import AssetsKit
import Foundation

/// The refusals of a change batch, worded once for every store: each is a
/// ``LibraryError/invalidChange(_:)`` whose reason a person can act on.
package enum InvalidChange {
    package static func noAsset(_ identifier: AssetIdentifier) -> LibraryError {
        .invalidChange("no asset \(identifier) in this library")
    }

    package static func notUserCollection(_ identifier: CollectionIdentifier) -> LibraryError {
        .invalidChange("\(identifier) is not a user album or folder (smart albums and directories cannot be changed)")
    }

    package static func noCollection(_ identifier: CollectionIdentifier) -> LibraryError {
        .invalidChange("no album or folder \(identifier) in this library")
    }

    package static func wrongKind(_ identifier: CollectionIdentifier, title: String, is found: String, expected: String) -> LibraryError {
        .invalidChange("\(identifier) (\"\(title)\") is a \(found), not a \(expected)")
    }

    package static func folderNotEmpty(title: String, children: Int) -> LibraryError {
        .invalidChange("folder \"\(title)\" is not empty (\(children) albums or folders): delete them first")
    }

    package static func notInRecentlyDeleted(_ identifier: AssetIdentifier, filename: String) -> LibraryError {
        .invalidChange("\(identifier) (\(filename)) is not in Recently Deleted: delete it before purging it")
    }

    package static func notMember(_ identifier: AssetIdentifier, filename: String, albumTitle: String) -> LibraryError {
        .invalidChange("\(identifier) (\(filename)) is not in album \"\(albumTitle)\"")
    }

    /// `title` trimmed; a blank one is refused.
    package static func validTitle(_ title: String) throws -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw LibraryError.invalidChange("an album or folder needs a title that is not blank") }
        return trimmed
    }
}
