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

    /// Creates a page.
    public init(objects: [S3Object], commonPrefixes: [String], nextContinuationToken: String?) {
        self.objects = objects
        self.commonPrefixes = commonPrefixes
        self.nextContinuationToken = nextContinuationToken
    }
}
