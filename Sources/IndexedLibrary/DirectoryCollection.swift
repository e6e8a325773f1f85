import AssetsKit
import Foundation
import LibraryTree

/// A folder of the tree as a collection: every store lists its directories this way.
package enum DirectoryCollection {
    /// The album of a folder, titled under `libraryName` as on the folder backend, in the album
    /// of the folder above it (none at the top).
    package static func collection(uuid: UUID, relativePath: String, count: Int, libraryName: String) -> AssetCollection {
        let parent = relativePath.split(separator: "/").dropLast().joined(separator: "/")
        return AssetCollection(id: CollectionID.directory(uuid), title: AssetCollection.directoryTitle(relativePath: relativePath, libraryName: libraryName),
                               kind: .directory, estimatedAssetCount: count,
                               parentID: parent.isEmpty ? nil : CollectionID.directory(AssetUUID.forDirectory(atRelativePath: parent)))
    }
}
