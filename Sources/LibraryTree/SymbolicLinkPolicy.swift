import Foundation

/// How a library treats symbolic links: it never leaves its root. A link is resolved (every
/// link on the way, as `realpath` does) and followed only when it ends inside the root's own
/// resolved path; a link leading out of the library — to `/`, to `/proc`, to another disk — and
/// a broken link are passed over with the reason reported, like loops and special files. So a
/// walk of the library reads only the library, and a link cannot make a file outside it
/// pickable or servable.
package struct SymbolicLinkPolicy: Sendable {
    /// The root with every link in it resolved.
    private let resolvedRoot: String

    /// The policy for the library at `root`; `nil` when the root cannot be resolved.
    package init?(root: URL) {
        guard let resolved = Self.resolve(root.path) else { return nil }
        resolvedRoot = resolved == "/" ? "" : resolved
    }

    /// Why the link at `path` is not followed; `nil` when it leads to a place inside the root.
    package func refusal(ofLinkAt path: String) -> String? {
        guard Self.resolve(path) != nil else { return "a broken symbolic link" }
        guard contains(path) else { return "a symbolic link leading out of the library (links are followed only inside it)" }
        return nil
    }

    /// Whether `path` (a full path under the root) is, or leads to, a place inside the root,
    /// whichever of its components are links.
    package func contains(_ path: String) -> Bool {
        guard let target = Self.resolve(path) else { return false }
        return target == resolvedRoot || target.hasPrefix(resolvedRoot + "/")
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
