import IndexedLibrary
import S3Storage

/// The bucket could not be used at all — unreachable, the credentials refused, no such bucket,
/// the service failing — as opposed to one object being unreadable: it stops a scan (a
/// `ScanInterruption`) instead of being recorded against every file.
struct BucketUnavailable: ScanInterruption, CustomStringConvertible {
    /// What S3 or the transport said, one line.
    let error: S3Error

    var description: String { error.description }

    /// `error` as a ``BucketUnavailable`` when it is the bucket's, not one object's; else itself.
    static func classify(_ error: any Error) -> any Error {
        guard let s3 = error as? S3Error else { return error }
        switch s3 {
        case .unreachable, .accessDenied, .noSuchBucket, .notConfigured:
            return BucketUnavailable(error: s3)
        case let .http(_, _, status, _, _) where status >= 500 || status == 429:
            return BucketUnavailable(error: s3)
        default:
            return s3
        }
    }

    /// The reason alone, without the place S3's description begins with: for a line that names
    /// the library first.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let unavailable as BucketUnavailable: reason(unavailable.error)
        case let S3Error.accessDenied(_, reason): reason
        case S3Error.noSuchBucket: "no such bucket"
        case let S3Error.unreachable(endpoint, reason): "\(endpoint) is unreachable: \(reason)"
        default: "\(error)"
        }
    }
}
