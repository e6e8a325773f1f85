import Crypto
import Foundation

/// Signs requests with AWS Signature Version 4, in the `Authorization` header or in the query
/// string (a presigned URL).
///
/// The signature is an HMAC-SHA256, under a key derived from the secret for one day, region and
/// service (`AWS4` + secret → date → region → service → `aws4_request`), of a string naming the
/// time, that scope and the SHA-256 of the *canonical request*:
///
/// ```
/// METHOD
/// /path/as%20sent                    each segment URI-encoded once; S3 neither normalises nor encodes twice
/// name=value&name2=value2            query names and values URI-encoded, sorted by name, then value
/// host:example.com                   header names lower-cased, values trimmed, runs of spaces made one,
/// x-amz-date:20130524T000000Z        repeated headers joined by commas, sorted by name
///
/// host;x-amz-date                    the signed header names
/// e3b0c442…                          the payload's SHA-256, or UNSIGNED-PAYLOAD
/// ```
///
/// The clock is a parameter, so the published test vectors reproduce exactly. Nothing here logs;
/// the secret leaves this type only as HMAC keys.
public struct SigV4Signer: Sendable {
    /// The keys that sign.
    public var credentials: S3Credentials
    /// The region in the scope (`us-east-1`).
    public var region: String
    /// The service in the scope: `s3` (others, e.g. `iam` or the test suite's `service`, sign the same way).
    public var service: String

    /// The payload hash that says the body is not signed: what a streamed upload and a presigned
    /// URL use.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of no bytes, the payload hash of a request without a body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    static let algorithm = "AWS4-HMAC-SHA256"

    /// Creates a signer.
    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// A signature and what it was computed from, for tests and for explaining a refusal
    /// (none of it is secret, but it is not to be logged either: the `authorization` opens the
    /// request it signs).
    public struct Signature: Sendable, Equatable {
        /// The canonical request, as hashed.
        public var canonicalRequest: String
        /// The string the signing key signs: algorithm, time, scope, the canonical request's hash.
        public var stringToSign: String
        /// The signed header names, lower-case, sorted, separated by `;`.
        public var signedHeaders: String
        /// The signature, 64 lower-case hex digits.
        public var signature: String
        /// The `Authorization` header's value.
        public var authorization: String
    }

    /// Signs a request whose headers are all given: the ones listed are the ones signed, so they
    /// include `host` and `x-amz-date` (and, with temporary credentials, `x-amz-security-token`).
    ///
    /// - Parameters:
    ///   - method: The HTTP method, `GET`.
    ///   - encodedPath: The path as sent, each segment URI-encoded once: only `A-Z a-z 0-9 - . _ ~` and `/` as they are.
    ///   - query: The query parameters, not encoded.
    ///   - headers: The headers to sign, in any case and order; repeated names are joined.
    ///   - payloadHash: The body's SHA-256 in hex, or ``unsignedPayload``.
    ///   - date: The signing time, the same as the `x-amz-date` header.
    public func signature(method: String, encodedPath: String, query: [(String, String)], headers: [(String, String)],
                          payloadHash: String, date: Date) -> Signature {
        let (names, canonicalHeaders) = Self.canonicalHeaders(headers)
        let signedHeaders = names.joined(separator: ";")
        let canonicalRequest = [
            method.uppercased(),
            encodedPath.isEmpty ? "/" : encodedPath,
            Self.canonicalQuery(query),
            canonicalHeaders,
            signedHeaders,
            payloadHash,
        ].joined(separator: "\n")
        let timestamp = Self.timestamp(date)
        let scope = self.scope(date)
        let stringToSign = [Self.algorithm, timestamp, scope, Self.hexSHA256(Data(canonicalRequest.utf8))].joined(separator: "\n")
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: signingKey(date)))
        let authorization = "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return Signature(canonicalRequest: canonicalRequest, stringToSign: stringToSign, signedHeaders: signedHeaders,
                         signature: signature, authorization: authorization)
    }

    /// The headers that sign a request in the `Authorization` header at `now`: `x-amz-date`,
    /// `x-amz-content-sha256`, `x-amz-security-token` (with temporary credentials) and
    /// `Authorization`. The request's own `headers` (with `host`) are signed with them.
    ///
    /// - Returns: The headers to add to the request, in that order.
    public func authorizationHeaders(method: String, encodedPath: String, query: [(String, String)],
                                     headers: [(String, String)], payloadHash: String, now: Date) -> [(String, String)] {
        var added = [("x-amz-date", Self.timestamp(now)), ("x-amz-content-sha256", payloadHash)]
        if let token = credentials.sessionToken {
            added.append(("x-amz-security-token", token))
        }
        let signed = signature(method: method, encodedPath: encodedPath, query: query, headers: headers + added,
                               payloadHash: payloadHash, date: now)
        return added + [("Authorization", signed.authorization)]
    }

    /// The query parameters that sign a request in its URL (a presigned URL), valid for
    /// `expires` seconds from `now`: the caller's `query`, then `X-Amz-Algorithm`,
    /// `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Expires`, `X-Amz-SignedHeaders`,
    /// `X-Amz-Security-Token` (with temporary credentials) and, last, `X-Amz-Signature`. Only
    /// `host` is signed and the payload is ``unsignedPayload``.
    ///
    /// - Returns: The whole query, not encoded; encode it with ``canonicalQuery(_:)``.
    public func presignedQuery(method: String, host: String, encodedPath: String, query: [(String, String)],
                               expires: Int, now: Date) -> [(String, String)] {
        var parameters = query + [
            ("X-Amz-Algorithm", Self.algorithm),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(now))"),
            ("X-Amz-Date", Self.timestamp(now)),
            ("X-Amz-Expires", String(expires)),
            ("X-Amz-SignedHeaders", "host"),
        ]
        if let token = credentials.sessionToken {
            parameters.append(("X-Amz-Security-Token", token))
        }
        let signed = signature(method: method, encodedPath: encodedPath, query: parameters, headers: [("host", host)],
                               payloadHash: Self.unsignedPayload, date: now)
        return parameters + [("X-Amz-Signature", signed.signature)]
    }

    // MARK: - The parts

    /// `date/region/service/aws4_request`.
    func scope(_ date: Date) -> String {
        "\(Self.timestamp(date).prefix(8))/\(region)/\(service)/aws4_request"
    }

    /// The key that signs for one day, region and service: an HMAC chain from `AWS4` + secret.
    func signingKey(_ date: Date) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [String(Self.timestamp(date).prefix(8)), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// The query as signed and as sent: each name and value URI-encoded, `name=value` pairs
    /// sorted by name, then by value, joined by `&` (a parameter without a value is `name=`).
    public static func canonicalQuery(_ query: [(String, String)]) -> String {
        query.map { (URIEncoding.encode($0.0), URIEncoding.encode($0.1)) }
            .sorted { $0.0 == $1.0 ? $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) : $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// The sorted, lower-case names and the canonical header block (each `name:value` followed by
    /// a newline, so the canonical request has an empty line after it).
    static func canonicalHeaders(_ headers: [(String, String)]) -> (names: [String], block: String) {
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            values[name.lowercased(), default: []].append(trimmed(value))
        }
        let names = values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let block = names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()
        return (names, block)
    }

    /// A header value with its ends trimmed and every run of spaces (or tabs) made one space.
    static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// The `x-amz-date` form of `date`: `YYYYMMDD'T'HHMMSS'Z'`, in UTC.
    public static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : String(value)
        }
        return "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }

    /// The SHA-256 of `data` in lower-case hex: a payload hash.
    public static func hexSHA256(_ data: some DataProtocol) -> String {
        hex(SHA256.hash(data: data))
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
