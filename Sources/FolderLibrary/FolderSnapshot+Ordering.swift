import AssetsKit
import Foundation
import LibraryTree

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
        var best = BestItems(count: count)
        // Items come in walk order (folders by path; dated folders oldest first): newest first,
        // they are taken from the end, so that most are passed over after one comparison.
        // The result is the same either way.
        if order == .newestFirst {
            for item in items.reversed() { offer(item, to: &best, in: order) }
        } else {
            for item in items { offer(item, to: &best, in: order) }
        }
        return best.items
    }

    /// The first `count` in `order` of the items ``items(in:filter:includingUnread:)`` gives,
    /// sorted, picked in one pass without making the list of them all.
    func first(_ count: Int, in folderIndices: [Int], filter: MediaFilter, includingUnread: Bool, order: DateOrder) -> [Item] {
        var best = BestItems(count: count)
        // As above: newest first, from the end of the walk.
        forEachItem(in: folderIndices, filter: filter, includingUnread: includingUnread, reversed: order == .newestFirst) {
            offer($0, to: &best, in: order)
        }
        return best.items
    }

    /// The best items seen so far, sorted, at most `count` of them.
    struct BestItems {
        let count: Int
        var items: [Item] = []

        init(count: Int) {
            self.count = max(0, count)
            items.reserveCapacity(self.count + 1)
        }
    }

    /// Keeps `item` among `best` when it comes before the last of them (or they are not full).
    private func offer(_ item: Item, to best: inout BestItems, in order: DateOrder) {
        guard best.count > 0 else { return }
        if best.items.count == best.count {
            guard let last = best.items.last, precedes(item, last, in: order) else { return }
            best.items.removeLast()
        }
        var low = 0, high = best.items.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(best.items[middle], item, in: order) { low = middle + 1 } else { high = middle }
        }
        best.items.insert(item, at: low)
    }
}
