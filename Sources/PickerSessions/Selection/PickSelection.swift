import AssetsKit
import Foundation

/// The assets a person has picked, in the order they picked them, never more than a maximum.
///
/// The selection of the original picker's grid: a maximum with a clear refusal when it is
/// reached, the total byte size of the picks, and the picks handed over by pick order or by date.
public struct PickSelection: Sendable, Hashable {
    /// The most assets that can be picked (at least 1).
    public let maximum: Int
    /// Which media the picker lets a person pick.
    public let filter: MediaFilter
    /// The picks, in pick order.
    public private(set) var assets: [PickedAsset] = []

    /// An empty selection of at most `maximum` assets that pass `filter`.
    public init(maximum: Int, filter: MediaFilter = .all) {
        precondition(maximum >= 1, "a selection takes at least one asset")
        self.maximum = maximum
        self.filter = filter
    }

    /// A selection holding `picks` as they were kept (by a store that keeps them elsewhere), in
    /// pick order; they are not checked again.
    package init(maximum: Int, filter: MediaFilter, restoring picks: [PickedAsset]) {
        self.init(maximum: maximum, filter: filter)
        assets = picks
    }

    /// How many assets are picked.
    public var count: Int { assets.count }

    /// Whether no more assets can be picked.
    public var isFull: Bool { assets.count >= maximum }

    /// The total byte size of the picks' originals, photos and videos alike.
    public var byteSize: Int64 { assets.reduce(0) { $0 + $1.byteSize } }

    /// Whether the asset with this UUID is picked.
    public func contains(_ uuid: UUID) -> Bool {
        assets.contains { $0.uuid == uuid }
    }

    /// Picks `asset` after the others; picking a picked asset again changes nothing.
    /// - Throws: ``SelectionError`` when the selection is full or the asset is not allowed.
    public mutating func add(_ asset: PickedAsset) throws(SelectionError) {
        guard !contains(asset.uuid) else { return }
        guard filter.includes(asset.mediaType) else { throw .notAllowed(filename: asset.filename) }
        guard !isFull else { throw .maximumReached(maximum) }
        assets.append(asset)
    }

    /// Unpicks the asset with this UUID, if it is picked.
    public mutating func remove(_ uuid: UUID) {
        assets.removeAll { $0.uuid == uuid }
    }

    /// Replaces the picks with `newAssets` in their order (repeats dropped).
    /// - Throws: ``SelectionError`` when there are more than the maximum or one is not allowed;
    ///   the selection is unchanged then.
    public mutating func replace(with newAssets: [PickedAsset]) throws(SelectionError) {
        let unique = Self.withoutRepeats(newAssets)
        if let refused = unique.first(where: { !filter.includes($0.mediaType) }) {
            throw .notAllowed(filename: refused.filename)
        }
        guard unique.count <= maximum else { throw .maximumReached(maximum) }
        assets = unique
    }

    /// `assets` in their order, each UUID kept where it first appears.
    public static func withoutRepeats(_ assets: [PickedAsset]) -> [PickedAsset] {
        var seen = Set<UUID>()
        return assets.filter { seen.insert($0.uuid).inserted }
    }

    /// The picks in `order`: pick order, or by creation date, oldest first (ties by identifier).
    public func ordered(by order: PickOrder) -> [PickedAsset] {
        switch order {
        case .pick:
            assets
        case .date:
            assets.sorted { ($0.creationDate, $0.uuid.uuidString) < ($1.creationDate, $1.uuid.uuidString) }
        }
    }
}
