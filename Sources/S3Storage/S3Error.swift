/// What went wrong talking to S3, in words a person can act on.
///
/// Each description is one line naming the bucket or object (`s3://bucket/key`) and the reason.
/// None carries a secret, a signature or an `Authorization` header.
public enum S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bucket does not exist (`NoSuchBucket`).
    case noSuchBucket(bucket: String)
    /// The object does not exist (`NoSuchKey`; or a 404 to a `HEAD`, which has no body to say
    /// which of bucket and key is missing).
    case noSuchKey(bucket: String, key: String)
    /// The service refused the credentials (`InvalidAccessKeyId`, `SignatureDoesNotMatch`,
    /// `InvalidToken`, `ExpiredToken`) or their rights (`AccessDenied`); `reason` says which.
    case accessDenied(bucket: String, reason: String)
    /// No answer from the endpoint: the connection was refused, timed out or kept dropping.
    case unreachable(endpoint: String, reason: String)
    /// The object changed while it was read: its entity tag is no longer the one asked for
    /// (`PreconditionFailed`), so the bytes would mix two versions.
    case changed(bucket: String, key: String)
    /// Fewer (or more) bytes arrived than the object has.
    case truncated(bucket: String, key: String, expected: Int64, received: Int64)
    /// An answer larger than the caller's bound (``S3Client/bytes(bucket:key:range:ifMatch:)``)
    /// or than a listing or error may be; `size` is -1 when the answer did not say its size.
    case tooLarge(bucket: String, key: String, size: Int64, limit: Int64)
    /// Any other refusal: the HTTP status and S3's error code and message.
    case http(bucket: String, key: String?, status: Int, code: String, message: String)
    /// An answer that is not what S3 sends (unreadable XML, a missing header).
    case malformed(String)
    /// The configuration is incomplete or wrong: a missing variable, a bad endpoint.
    case notConfigured(String)

    /// One line: the bucket or object and what happened.
    public var description: String {
        switch self {
        case let .noSuchBucket(bucket):
            "s3://\(bucket): no such bucket"
        case let .noSuchKey(bucket, key):
            "s3://\(bucket)/\(key): no such object"
        case let .accessDenied(bucket, reason):
            "s3://\(bucket): \(reason)"
        case let .unreachable(endpoint, reason):
            "\(endpoint): unreachable: \(reason)"
        case let .changed(bucket, key):
            "s3://\(bucket)/\(key): the object changed while it was read (its entity tag is no longer the one read)"
        case let .truncated(bucket, key, expected, received):
            "s3://\(bucket)/\(key): \(received) bytes arrived of \(expected)"
        case let .tooLarge(bucket, key, size, limit):
            "s3://\(bucket)/\(key): \(size < 0 ? "more than \(limit)" : "\(size)") bytes is over the limit of \(limit)"
        case let .http(bucket, key, status, code, message):
            "s3://\(bucket)\(key.map { "/\($0)" } ?? ""): HTTP \(status)\(code.isEmpty ? "" : " \(code)")\(message.isEmpty ? "" : ": \(message)")"
        case let .malformed(what):
            "S3 answered something unreadable: \(what)"
        case let .notConfigured(what):
            what
        }
    }
}

extension S3Error {
    /// The error S3's answer means: `code` and `message` from its XML error body (empty when
    /// there was none, as for `HEAD`).
    static func from(status: Int, code: String, message: String, bucket: String, key: String?) -> S3Error {
        switch code {
        case "NoSuchBucket":
            return .noSuchBucket(bucket: bucket)
        case "NoSuchKey":
            return .noSuchKey(bucket: bucket, key: key ?? "")
        case "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "InvalidClientTokenId",
             "AuthorizationHeaderMalformed":
            return .accessDenied(bucket: bucket, reason: "the credentials were refused (\(code))")
        case "AccessDenied", "AllAccessDisabled":
            return .accessDenied(bucket: bucket, reason: "access denied\(message.isEmpty ? "" : ": \(message)")")
        case "PreconditionFailed":
            return .changed(bucket: bucket, key: key ?? "")
        case "" where status == 404:
            if let key { return .noSuchKey(bucket: bucket, key: key) }
            return .noSuchBucket(bucket: bucket)
        case "" where status == 403:
            return .accessDenied(bucket: bucket, reason: "the credentials were refused or lack the right (HTTP 403)")
        case "" where status == 412:
            return .changed(bucket: bucket, key: key ?? "")
        default:
            return .http(bucket: bucket, key: key, status: status, code: code, message: message)
        }
    }
}
