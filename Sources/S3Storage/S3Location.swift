/// A place in S3: a bucket and a key prefix, written `s3://BUCKET/PREFIX`.
///
/// The prefix is a "folder": empty (the whole bucket) or ending with `/`. It is taken as written
/// (the AWS command line does not percent-decode `s3://` addresses either), and refused when it
/// would be ambiguous as a folder: a `.` or `..` segment, an empty segment (`a//b`), a control
/// character, or more than S3's 1,024 bytes of key.
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    /// The bucket's name, valid by S3's naming rules.
    public let bucket: String
    /// The key prefix: empty, or ending with `/` (`photos/2024/`).
    public let prefix: String

    /// The location `string` names, `s3://BUCKET` or `s3://BUCKET/PREFIX`; `nil` when it is
    /// not one (another scheme, an invalid bucket name, a refused prefix).
    public init?(string: String) {
        guard string.lowercased().hasPrefix("s3://") else { return nil }
        let rest = string.dropFirst(5)
        let bucket: Substring
        let prefix: Substring
        if let slash = rest.firstIndex(of: "/") {
            bucket = rest[..<slash]
            prefix = rest[rest.index(after: slash)...]
        } else {
            bucket = rest
            prefix = ""
        }
        self.init(bucket: String(bucket), prefix: String(prefix))
    }

    /// The location of `prefix` in `bucket`; a prefix without its final `/` gets one. `nil` when
    /// the bucket name is invalid or the prefix refused.
    public init?(bucket: String, prefix: String = "") {
        guard Self.isValidBucketName(bucket), let normalised = Self.normalisedPrefix(prefix) else { return nil }
        self.bucket = bucket
        self.prefix = normalised
    }

    /// `s3://BUCKET/PREFIX`.
    public var description: String { "s3://\(bucket)/\(prefix)" }

    /// The key of `relativePath` under this location's prefix.
    public func key(_ relativePath: String) -> String { prefix + relativePath }

    /// Whether `name` follows S3's rules for (general purpose) bucket names: 3 to 63 characters
    /// of lower-case letters, digits, `.` and `-`, beginning and ending with a letter or digit,
    /// no `..`, not shaped like an IP address, and not one of the reserved prefixes (`xn--`,
    /// `sthree-`) or suffixes (`-s3alias`, `--ol-s3`).
    public static func isValidBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard bytes.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }),
              isAlphanumeric(bytes.first!), isAlphanumeric(bytes.last!), !name.contains("..") else { return false }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        if octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) { return false }
        for reserved in ["xn--", "sthree-"] where name.hasPrefix(reserved) { return false }
        for reserved in ["-s3alias", "--ol-s3"] where name.hasSuffix(reserved) { return false }
        return true
    }

    /// `prefix` ending with `/` (or empty), or `nil` when it is refused.
    static func normalisedPrefix(_ prefix: String) -> String? {
        guard !prefix.isEmpty else { return "" }
        guard prefix.utf8.count < 1024,
              !prefix.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        var segments = prefix.split(separator: "/", omittingEmptySubsequences: false)
        if segments.last == "" { segments.removeLast() }
        guard segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return segments.joined(separator: "/") + "/"
    }
}
