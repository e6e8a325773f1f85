import Foundation

/// What S3 says about one object: its key, size, entity tag and time of change.
public struct S3Object: Sendable, Hashable {
    /// The object's key in its bucket (`photos/2024/IMG_0001.jpg`).
    public var key: String
    /// The object's size in bytes, 0 to ``maximumByteSize`` when it comes from a listing.
    public var byteSize: Int64
    /// The entity tag as S3 gives it, with its quotes (`"9b2cf535f27731c974343645a3985328"`):
    /// a version of the object's bytes, and what `If-Match` takes.
    public var eTag: String
    /// When the object was last written.
    public var lastModified: Date

    /// The largest size a listed object may have: 64 TiB, over S3's largest object (50 TB), and
    /// far enough under `Int64.max` that no sum of sizes and offsets overflows.
    public static let maximumByteSize: Int64 = 1 << 46

    /// The longest key S3 takes, in UTF-8 bytes.
    public static let maximumKeyBytes = 1024

    /// Creates an object's facts.
    public init(key: String, byteSize: Int64, eTag: String, lastModified: Date) {
        self.key = key
        self.byteSize = byteSize
        self.eTag = eTag
        self.lastModified = lastModified
    }
}
