/// Why a library in a bucket was not opened, in one line that says what to do.
public enum BucketOpeningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--backend folder` with a bucket: a bucket is only ever read through its index.
    case alwaysIndexed(place: String)
    /// A command other than `index` on a bucket that was never indexed (or whose first index
    /// was cut short).
    case notIndexed(place: String)
    /// An `s3://` address that names no bucket and prefix.
    case invalidAddress(String)

    /// One line: the place and what to do.
    public var description: String {
        switch self {
        case .alwaysIndexed(let place):
            "\(place): a bucket is always indexed; leave out --backend folder (or give --backend indexed)"
        case .notIndexed(let place):
            "\(place) has not been indexed here yet: run `assets-picker index \(place)` first"
        case .invalidAddress(let text):
            "\(text) is not a bucket address: give s3://BUCKET or s3://BUCKET/PREFIX (a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens; no `.`, `..` or empty part in the prefix)"
        }
    }
}
