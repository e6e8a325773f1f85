/// How urgent a render is.
public enum RenderPriority: Int, Sendable, Comparable {
    /// Warming caches for what may be shown next.
    case prefetch = 0
    /// Someone is looking at the result now.
    case visible = 1

    public static func < (lhs: RenderPriority, rhs: RenderPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
