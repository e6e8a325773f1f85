import AssetsKit
import Foundation

/// What the changes recorded since a part of the album list was kept (``AlbumListMemo``) can have
/// touched in it: the user albums and directories whose membership changed, and the assets that
/// changed themselves, whose albums and directory the store then looks up (``resolve(_:)``): a
/// hidden, deleted, restored or re-dated asset moves their counts and key assets, a favourite
/// changes the key asset handed out.
///
/// A part whose set is `nil` is read whole: a user album or folder was made, renamed, moved or
/// deleted (the albums' rows and order change), or a directory was found or went (the
/// directories'). No delta at all (`init` fails) when more than ``limit`` changes were recorded
/// — a scan: reading the list whole is then the cheaper way — or (``resolve(_:)``) an asset
/// changed is no longer indexed (its albums can no longer be named).
package struct AlbumListDelta: Sendable {
    /// The most changes brought into a kept list one by one.
    package static let limit = 256

    /// User albums touched, or `nil` when the albums must be read whole.
    package private(set) var albums: Set<UUID>? = []
    /// Directories touched, or `nil` when the directories must be read whole.
    package private(set) var directories: Set<UUID>? = []
    /// Assets changed themselves: their albums and directory are touched (``resolve(_:)``).
    package private(set) var assets: Set<UUID> = []

    /// The delta of `changes`, in token order, or `nil` when there are more than ``limit``.
    package init?(_ changes: [RecordedChange]) {
        guard changes.count <= Self.limit else { return nil }
        for change in changes {
            guard let collection = change.collection else {
                if let asset = change.asset { assets.insert(asset) }
                continue
            }
            switch CollectionID(collection) {
            case .album(let album):
                if change.kind == .collection { albums = nil } else { albums?.insert(album) }
            case .directory(let directory):
                if change.kind == .collection { directories = nil } else { directories?.insert(directory) }
            case .smart, nil:
                continue
            }
        }
    }

    /// Touches the albums and directory of each asset changed, as the index holds them now: a row
    /// per membership (or one without an album). `false` when an asset changed has no row: it is
    /// no longer indexed, and the albums it left can no longer be named.
    package mutating func resolve(_ rows: [(asset: UUID, album: UUID?, directory: UUID)]) -> Bool {
        var found: Set<UUID> = []
        for row in rows {
            found.insert(row.asset)
            if let album = row.album { albums?.insert(album) }
            directories?.insert(row.directory)
        }
        return found.count == assets.count
    }

    /// The album list's identifiers of `albums`.
    package static func albumIdentifiers(_ albums: Set<UUID>) -> Set<CollectionIdentifier> {
        Set(albums.map { uuid -> CollectionIdentifier in CollectionID.album(uuid) })
    }
}
