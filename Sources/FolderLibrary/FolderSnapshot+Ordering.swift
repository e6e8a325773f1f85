import AssetsKit
import Foundation
import LibraryFolders

extension FolderSnapshot {
    /// Whether `lhs` comes before `rhs` in `order`: by creation date, ties broken by asset
    /// identifier in the same direction, so that one order is the other reversed. A file not
    /// read yet sorts by its provisional date; on a tie it follows the read ones, and files not
    /// read yet follow one another by folder path, then name (a folder's unread files share
    /// their folder's date: they go by name).
    func precedes(_ lhs: Item, _ rhs: Item, in order: DateOrder) -> Bool {
        if lhs.creationDate != rhs.creationDate {
            return order == .newestFirst ? lhs.creationDate > rhs.creationDate : lhs.creationDate < rhs.creationDate
        }
        if lhs.isRead != rhs.isRead { return order == .newestFirst ? lhs.isRead : rhs.isRead }
        if !lhs.isRead {
            // Compared in place: a provisional page of a large folder compares many of these.
            if lhs.folder != rhs.folder, folders[lhs.folder].listing.path != folders[rhs.folder].listing.path {
                let left = folders[lhs.folder].listing.path, right = folders[rhs.folder].listing.path
                return order == .newestFirst ? left > right : left < right
            }
            let left = folders[lhs.folder].files[lhs.file].name, right = folders[rhs.folder].files[rhs.file].name
            return order == .newestFirst ? left > right : left < right
        }
        let left = identifierText(lhs), right = identifierText(rhs)
        return order == .newestFirst ? left > right : left < right
    }

    private func identifierText(_ item: Item) -> String {
        let path = relativePath(item)
        return AssetIdentifier.legacy(LegacyAssetURL(uuid: AssetUUID.forFile(atRelativePath: path),
                                                     fileExtension: (path as NSString).pathExtension)).description
    }

    /// The first `count` of `items` in `order`, sorted; all of them when `count` is `nil`. A
    /// short page of a long list is picked in one pass instead of sorting the whole list.
    func first(_ count: Int?, of items: [Item], in order: DateOrder) -> [Item] {
        guard let count, count < items.count / 8 else {
            return items.sorted { precedes($0, $1, in: order) }
        }
        guard count > 0 else { return [] }
        var best: [Item] = []
        best.reserveCapacity(count + 1)
        // Items come in walk order (folders by path; dated folders oldest first): newest first,
        // they are taken from the end, so that most are passed over after one comparison.
        // The result is the same either way.
        for item in order == .newestFirst ? AnySequence(items.reversed()) : AnySequence(items) {
            if best.count == count {
                guard let last = best.last, precedes(item, last, in: order) else { continue }
                best.removeLast()
            }
            var low = 0, high = best.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(best[middle], item, in: order) { low = middle + 1 } else { high = middle }
            }
            best.insert(item, at: low)
        }
        return best
    }
}
