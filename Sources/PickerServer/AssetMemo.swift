import AssetsKit
import Foundation
import Synchronization

/// The assets the picker page listed lately, by UUID, so that the thumbnails it asks for next
/// need no lookup in the library. Bounded; emptied whenever the library changes.
final class AssetMemo: Sendable {
    private let limit: Int
    private let assets = Mutex<[UUID: Asset]>([:])

    init(limit: Int = 50_000) {
        self.limit = limit
    }

    func remember(_ listed: [Asset]) {
        assets.withLock { memo in
            if memo.count + listed.count > limit { memo.removeAll(keepingCapacity: true) }
            for asset in listed { memo[asset.id.uuid] = asset }
        }
    }

    func asset(_ uuid: UUID) -> Asset? {
        assets.withLock { $0[uuid] }
    }

    func forgetAll() {
        assets.withLock { $0.removeAll(keepingCapacity: true) }
    }
}
