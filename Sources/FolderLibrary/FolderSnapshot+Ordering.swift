import AssetsKit
import Foundation

extension FolderSnapshot {
    /// Whether `lhs` comes before `rhs` in `order`: by creation date, ties broken by asset
    /// identifier in the same direction, so that one order is the other reversed.
    func precedes(_ lhs: Item, _ rhs: Item, in order: DateOrder) -> Bool {
        if lhs.creationDate != rhs.creationDate {
            return order == .newestFirst ? lhs.creationDate > rhs.creationDate : lhs.creationDate < rhs.creationDate
        }
        let left = asset(lhs).id.description, right = asset(rhs).id.description
        return order == .newestFirst ? left > right : left < right
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
