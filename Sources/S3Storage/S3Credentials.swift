/// The keys that sign requests: an access key id, its secret and, for temporary credentials, a
/// session token.
///
/// The secret and the token never appear in a description, a debug description or a `dump`:
/// printing a configuration or an error cannot leak them.
public struct S3Credentials: Sendable, Hashable {
    /// The access key id (`AKIA…`, or `ASIA…` for temporary credentials); not a secret.
    public var accessKeyID: String
    /// The secret access key: signs, is never sent.
    public var secretAccessKey: String
    /// The session token of temporary credentials, sent as `x-amz-security-token`.
    public var sessionToken: String?

    /// Creates credentials.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

extension S3Credentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The access key id; the secret and the token as `<redacted>`.
    public var description: String {
        "S3Credentials(accessKeyID: \(accessKeyID), secretAccessKey: <redacted>, sessionToken: \(sessionToken == nil ? "nil" : "<redacted>"))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// What `dump` and other reflection see: the access key id and nothing secret.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "accessKeyID": accessKeyID,
            "secretAccessKey": "<redacted>",
            "sessionToken": sessionToken == nil ? "nil" : "<redacted>",
        ])
    }
}
