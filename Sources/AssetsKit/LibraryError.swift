import Foundation

/// What can go wrong when using a library, with a message a person can act on.
public enum LibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No asset has this identifier (any more).
    case assetNotFound(String)
    /// No collection has this identifier (any more).
    case collectionNotFound(String)
    /// A collection only an indexed library keeps (a smart album other than All Photos, an
    /// album of the person's), asked of a library read as a plain folder.
    case collectionNeedsIndex(String)
    /// The text is no identifier this library hands out.
    case invalidIdentifier(String)
    /// A position outside a fetch result of `count` assets.
    case indexOutOfRange(index: Int, count: Int)
    /// The library cannot be read.
    case accessDenied(path: String, reason: String)
    /// The library or backend does not allow changes.
    case readOnly(path: String, reason: String)
    /// A file of the library could not be read.
    case unreadableFile(path: String, reason: String)
    /// An asset's original is gone or is no longer the file the library knows: removed,
    /// replaced by another version or by something else, or reached through a link that
    /// leads out of the library. Named by its file name only.
    case originalUnavailable(file: String)
    /// An original kept elsewhere (in a bucket) and not on this machine, asked for without
    /// network access (`ImageRequest.isNetworkAccessAllowed`, or a download that did not allow
    /// it). Named by its file name only.
    case networkAccessRequired(file: String)
    /// An operation the backend does not offer.
    case unsupported(String)
    /// A change token later than any the library has given.
    case futureChangeToken(ChangeToken, latest: ChangeToken)
    /// A change request was refused.
    case invalidChange(String)

    /// One line that says what went wrong and, where it can, what to do.
    public var description: String {
        switch self {
        case .assetNotFound(let id):
            "no asset with identifier \(id) in this library"
        case .collectionNotFound(let id):
            "no album with identifier \(id) in this library; `assets-picker albums` lists them"
        case .collectionNeedsIndex(let id):
            "\(id) is an album only an indexed library keeps, and this library is read as a plain folder (it has no index yet, or --backend folder); `assets-picker index` makes the index, `assets-picker albums` lists the albums there are"
        case .invalidIdentifier(let text):
            "\(text) is not an asset identifier (expected UUID/L0/001 or assets-library://asset/asset.EXT?id=UUID&ext=EXT)"
        case let .indexOutOfRange(index, count):
            "index \(index) is outside a fetch result of \(count) assets"
        case let .accessDenied(path, reason):
            "\(path): cannot read the library: \(reason)"
        case let .readOnly(path, reason):
            "\(path): the library cannot be changed: \(reason)"
        case let .unreadableFile(path, reason):
            "\(path): \(reason)"
        case .originalUnavailable(let file):
            "\(file): the original is missing or changed since the library last read it; index or list the library again"
        case .networkAccessRequired(let file):
            "\(file): the original is not on this machine; fetching it needs network access, which this request did not allow"
        case .unsupported(let what):
            "\(what) is not supported by this library"
        case let .futureChangeToken(token, latest):
            "change token \(token) is later than this library's latest, \(latest); give a token a command printed, or 0 for everything"
        case .invalidChange(let why):
            "change refused: \(why)"
        }
    }
}
