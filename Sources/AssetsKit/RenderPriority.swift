/// How urgent an image is: the tiers of the render queue, most urgent last.
///
/// A grid cell's first image comes before the sharp upgrade of a cell already showing one,
/// which comes before warming the caches for rows not on screen yet. A request says its tier
/// (``ImageRequest/priority``); the final image of an opportunistic request that delivered a
/// degraded one first is never more urgent than ``visibleSharp``.
public enum RenderPriority: Int, Sendable, Comparable, CaseIterable {
    /// Warming caches for what may be shown next.
    case prefetch = 0
    /// Someone looks at an image of this asset already and waits for the sharp one.
    case visibleSharp = 1
    /// Someone looks at an empty place: the first image of a visible cell.
    case visibleFirst = 2

    /// Whether `lhs` is less urgent than `rhs`.
    public static func < (lhs: RenderPriority, rhs: RenderPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
