/// How urgent a render is: the tiers of the render queue, most urgent last.
///
/// A grid cell's first image comes before the sharp upgrade of a cell already showing one,
/// which comes before warming the caches for rows not on screen yet.
public enum RenderPriority: Int, Sendable, Comparable, CaseIterable {
    /// Warming caches for what may be shown next.
    case prefetch = 0
    /// Someone looks at an image of this asset already and waits for the sharp one.
    case visibleSharp = 1
    /// Someone looks at an empty place: the first image of a visible cell.
    case visibleFirst = 2

    public static func < (lhs: RenderPriority, rhs: RenderPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The tier that renders of the final image of a request made in this task take, when set:
    /// a caller that knows the request is the sharp upgrade of an image already shown (the
    /// picker page's upgrade of a `fast` thumbnail) says so with ``visibleSharp``. Unset, a
    /// final image is a ``visibleFirst`` render unless a degraded image was delivered before it.
    /// A render for `DeliveryMode.fastFormat` is always ``visibleFirst``.
    @TaskLocal public static var requested: RenderPriority?
}
