/// One page of a listing (`ListObjectsV2`): at most 1,000 objects, and with a delimiter the
/// "folders" one level down.
public struct S3ListPage: Sendable, Hashable {
    /// The objects of this page, in key order (UTF-8 byte order, as S3 sorts).
    public var objects: [S3Object]
    /// With a delimiter, the key prefixes one level down, each ending with the delimiter
    /// (`photos/2024/`): the "folders".
    public var commonPrefixes: [String]
    /// The token that asks for the next page; `nil` on the last page.
    public var nextContinuationToken: String?
    /// Entries of the page that could not be read (a key that is not percent-encoded UTF-8, a
    /// size that is no number of bytes, a missing key, size or time): each passed over with its
    /// reason, so that one bad entry does not refuse the page.
    public var unreadable: [UnreadableEntry]

    /// A listed entry that could not be read.
    public struct UnreadableEntry: Sendable, Hashable {
        /// The key as the listing wrote it (still percent-encoded), or `nil` when it had none.
        public var listedKey: String?
        /// The key decoded, when it could be.
        public var key: String?
        /// Why it could not be read, one line.
        public var reason: String

        /// Creates an unreadable entry.
        public init(listedKey: String?, key: String? = nil, reason: String) {
            self.listedKey = listedKey
            self.key = key
            self.reason = reason
        }
    }

    /// Creates a page.
    public init(objects: [S3Object], commonPrefixes: [String], nextContinuationToken: String?, unreadable: [UnreadableEntry] = []) {
        self.objects = objects
        self.commonPrefixes = commonPrefixes
        self.nextContinuationToken = nextContinuationToken
        self.unreadable = unreadable
    }
}
