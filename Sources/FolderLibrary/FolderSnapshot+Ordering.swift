import AssetsKit
import Foundation
import LibraryFolders

extension FolderSnapshot {
    /// Whether `lhs` comes before `rhs` in `order`: by creation date, ties broken by asset
    /// identifier in the same direction, so that one order is the other reversed. A file not
    /// read yet sorts by its provisional date; on a tie it follows the read ones, and files not
    /// read yet follow one another by path (so a folder's unread files go by name).
    func precedes(_ lhs: Item, _ rhs: Item, in order: DateOrder) -> Bool {
        if lhs.creationDate != rhs.creationDate {
            return order == .newestFirst ? lhs.creationDate > rhs.creationDate : lhs.creationDate < rhs.creationDate
        }
        if lhs.isRead != rhs.isRead { return order == .newestFirst ? lhs.isRead : rhs.isRead }
        let left = tieBreaker(lhs), right = tieBreaker(rhs)
        return order == .newestFirst ? left > right : left < right
    }

    private func tieBreaker(_ item: Item) -> String {
        guard item.isRead else { return relativePath(item) }
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
        for item in items {
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
