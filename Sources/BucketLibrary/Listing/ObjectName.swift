import Foundation

/// What a listed name (the part of a key in one folder: an object's name, or a "folder" prefix's)
/// is to the library: a name it lists, one it ignores as the local walk does, or one it refuses
/// with a reason, because as a path it would be unsafe or impossible on this machine, where the
/// original is kept once fetched.
enum ObjectName: Equatable {
    /// A name safe as a path component.
    case accepted
    /// Hidden (a leading dot), as on the local walk; or, for an object, empty: the marker some
    /// tools put for a "folder" (a key ending in `/`).
    case ignored
    /// Refused, for this reason (one line).
    case refused(String)

    /// The longest name a Linux file system takes, in bytes.
    static let maximumNameBytes = 255

    /// What `name` is, the name of an object (`isFolder` false) or of a folder prefix.
    static func judge(_ name: String, isFolder: Bool) -> ObjectName {
        if name.isEmpty {
            return isFolder ? .refused("an empty name: the key has `//` in it, or begins with `/`") : .ignored
        }
        if name == "." || name == ".." {
            return .refused("`\(name)` as a name would lead out of its folder")
        }
        if name.hasPrefix(".") { return .ignored }
        if name.utf8.contains(0) {
            return .refused("a NUL character cannot be in a file name here")
        }
        if let control = name.unicodeScalars.first(where: { ListedKey.isControl($0) }) {
            return .refused("a control character (U+\(String(control.value, radix: 16, uppercase: true))) is not taken in a name")
        }
        if name.utf8.count > maximumNameBytes {
            return .refused("a name of \(name.utf8.count) bytes is over the \(maximumNameBytes) a file name may have here")
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .surrogate || $0 == "\u{FFFD}" }) {
            return .refused("the name is not valid UTF-8 (it holds U+FFFD, a character put for undecodable bytes)")
        }
        return .accepted
    }

    /// Whether `path` (relative, `/` between its parts) is safe to put under a folder of this
    /// machine: every part a name ``judge(_:isFolder:)`` accepts, so no empty, `.` or `..`
    /// part, no leading `/`, no NUL or control character. What a key becomes a local path
    /// through is checked with it again, whatever the index holds.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, path.utf8.count <= 4096 else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            judge(String($0), isFolder: false) == .accepted
        }
    }
}
