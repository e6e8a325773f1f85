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

    /// `error`, met reading one object at `place` (`s3://bucket/key`): that object's failure when
    /// it is the object's alone — S3 refusing it (`AccessDenied`: an SSE-KMS key without
    /// `kms:Decrypt`, a bucket policy) or failing on it (a 5xx other than 503) — so the scan
    /// records it and goes on; else as ``classify(_:)`` says (refused credentials, an
    /// unreachable or throttling service stop the scan).
    static func classify(_ error: any Error, readingObjectAt place: String) -> any Error {
        switch error as? S3Error {
        case let .accessDenied(_, reason) where reason.hasPrefix("access denied"):
            return ObjectReadFailure(description: "\(place): \(reason)")
        case let .http(_, _, status, code, _) where status >= 500 && status != 503:
            return ObjectReadFailure(description: "\(place): S3 failed to read it (HTTP \(status)\(code.isEmpty ? "" : " \(code)"))")
        default:
            return classify(error)
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
