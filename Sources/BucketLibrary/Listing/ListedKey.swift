import S3Storage

/// A key as a listing gives it, checked where it enters: it must lie under the prefix that was
/// listed and, in a listing by folder (delimiter `/`), hold no further `/` (an object) or only
/// its final one (a folder prefix). A server that ignores the prefix or the delimiter, or lists
/// keys it was not asked for, gets each such key refused with a reason: never a path made of it.
enum ListedKey {
    /// Why a listed key was refused, and how to show it (escaped: no control character reaches
    /// a terminal or a log).
    struct Refusal: Error, Equatable {
        let shownName: String
        let reason: String
    }

    /// The name of `key` in the folder `prefix` (the part after it): an object's name, or a
    /// folder prefix's without its `/`.
    static func name(of key: String, under prefix: String, isFolder: Bool) -> Result<String, Refusal> {
        guard key.utf8.count <= S3Object.maximumKeyBytes else {
            return .failure(Refusal(shownName: escaped(String(key.prefix(64))) + "…",
                                    reason: "a key of \(key.utf8.count) bytes is over the \(S3Object.maximumKeyBytes) S3 allows"))
        }
        // Bytes, not characters: a key that is canonically equivalent to the prefix is not under it.
        guard key.utf8.starts(with: prefix.utf8) else {
            return .failure(Refusal(shownName: escaped(key), reason: "the listing gave a key outside the prefix `\(escaped(prefix))` it was asked for"))
        }
        var name = String(decoding: key.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
        if isFolder {
            guard name.hasSuffix("/") else {
                return .failure(Refusal(shownName: escaped(key), reason: "the listing gave a folder that does not end with `/`"))
            }
            name.removeLast()
        }
        guard !name.utf8.contains(UInt8(ascii: "/")) else {
            return .failure(Refusal(shownName: escaped(name),
                                    reason: "the listing gave a key more than one folder down (it ignored the delimiter `/`)"))
        }
        return .success(name)
    }

    /// `text` with every control character (C0, DEL, C1) and line or paragraph separator written
    /// as `\u{…}`, and `\` as `\\`: safe to show on one line.
    static func escaped(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                shown += "\\\\"
            } else if isControl(scalar) {
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// Whether `scalar` is a control character or one that breaks or reorders a line.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
