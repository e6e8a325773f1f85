import Foundation

/// Where the S3 service is and who signs the requests.
///
/// Most programs take it from the environment with
/// ``standard(environment:endpoint:region:credentials:usesPathStyle:)``, the way the AWS command
/// line and SDKs do; the options (from command-line flags) override the variables.
public struct S3Configuration: Sendable {
    /// The service's address, e.g. `http://127.0.0.1:9000` (moto, MinIO) or, for AWS,
    /// `https://s3.eu-west-1.amazonaws.com`. A path in it (`https://host/base`) comes before
    /// every request's path.
    public var endpoint: URL
    /// The region requests are signed for (`us-east-1` unless told).
    public var region: String
    /// The keys requests are signed with.
    public var credentials: S3Credentials
    /// Whether the bucket goes in the path (`https://host/bucket/key`, what moto, MinIO and most
    /// S3-compatible servers want) instead of the host name (`https://bucket.host/key`, AWS's
    /// virtual-hosted style). A bucket whose name has a dot always goes in the path, since its
    /// host name would not match the service's TLS certificate.
    public var usesPathStyle: Bool

    /// The endpoint as messages and logs name it: without a `user:password@` it may carry.
    public var endpointForMessages: String {
        guard var parts = URLComponents(url: endpoint, resolvingAgainstBaseURL: false), parts.user != nil || parts.password != nil else {
            return endpoint.absoluteString
        }
        parts.user = nil
        parts.password = nil
        return parts.string ?? endpoint.absoluteString
    }

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - endpoint: The service's address; `nil` for AWS's in `region`.
    ///   - region: The region requests are signed for.
    ///   - credentials: The keys requests are signed with.
    ///   - usesPathStyle: Whether the bucket goes in the path; `nil` for path style on a custom
    ///     endpoint and virtual-hosted style on AWS.
    public init(endpoint: URL? = nil, region: String = "us-east-1", credentials: S3Credentials, usesPathStyle: Bool? = nil) {
        self.endpoint = endpoint ?? Self.awsEndpoint(region: region)
        self.region = region
        self.credentials = credentials
        self.usesPathStyle = usesPathStyle ?? (endpoint != nil)
    }

    /// AWS's S3 endpoint in `region`: `https://s3.REGION.amazonaws.com`.
    public static func awsEndpoint(region: String) -> URL {
        URL(string: "https://s3.\(region).amazonaws.com")!
    }

    /// The configuration the standard AWS variables give, options overriding them.
    ///
    /// | Setting | Option | Variable (first set wins) | Default |
    /// |---|---|---|---|
    /// | endpoint | `endpoint` | `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL` | AWS's endpoint in the region |
    /// | region | `region` | `AWS_REGION`, `AWS_DEFAULT_REGION` | `us-east-1` |
    /// | access key id | `credentials` | `AWS_ACCESS_KEY_ID` | none: an error |
    /// | secret access key | `credentials` | `AWS_SECRET_ACCESS_KEY` | none: an error |
    /// | session token | `credentials` | `AWS_SESSION_TOKEN` | none |
    ///
    /// - Parameters:
    ///   - environment: The variables to read; the process's own by default.
    ///   - endpoint: The service's address, over the variables.
    ///   - region: The region, over the variables.
    ///   - credentials: The keys, over the variables.
    ///   - usesPathStyle: Path or virtual-hosted style; `nil` for path style on a custom endpoint.
    /// - Throws: ``S3Error/notConfigured(_:)`` naming the missing variable, or an endpoint that
    ///   is not an `http` or `https` address.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment,
                                endpoint: URL? = nil, region: String? = nil, credentials: S3Credentials? = nil,
                                usesPathStyle: Bool? = nil) throws -> S3Configuration {
        func variable(_ name: String) -> String? {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        let region = region ?? variable("AWS_REGION") ?? variable("AWS_DEFAULT_REGION") ?? "us-east-1"
        var chosenEndpoint = endpoint
        if chosenEndpoint == nil, let name = ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"].first(where: { variable($0) != nil }) {
            guard let url = URL(string: variable(name)!) else {
                throw S3Error.notConfigured("\(name) is not an address: give it as http://HOST:PORT or https://HOST")
            }
            chosenEndpoint = url
        }
        if let url = chosenEndpoint {
            chosenEndpoint = try normalizedEndpoint(url)
        }
        let chosenCredentials: S3Credentials
        if let credentials {
            chosenCredentials = credentials
        } else {
            guard let accessKeyID = variable("AWS_ACCESS_KEY_ID") else {
                throw S3Error.notConfigured("AWS_ACCESS_KEY_ID is not set: set it and AWS_SECRET_ACCESS_KEY, or give the keys as options")
            }
            guard let secret = variable("AWS_SECRET_ACCESS_KEY") else {
                throw S3Error.notConfigured("AWS_SECRET_ACCESS_KEY is not set: set it with AWS_ACCESS_KEY_ID, or give the keys as options")
            }
            chosenCredentials = S3Credentials(accessKeyID: accessKeyID, secretAccessKey: secret,
                                              sessionToken: variable("AWS_SESSION_TOKEN"))
        }
        return S3Configuration(endpoint: chosenEndpoint, region: region, credentials: chosenCredentials,
                               usesPathStyle: usesPathStyle)
    }
}

extension S3Configuration {
    /// `url` as the one form an endpoint is kept in: scheme and host in lower case, no `/` at
    /// the end of its path, so `http://h:9000` and `http://H:9000/` are one endpoint (and key one
    /// index).
    ///
    /// - Throws: ``S3Error/notConfigured(_:)`` when it is not an `http` or `https` address with a
    ///   host, or carries a user or password, a query or a fragment (none of which an endpoint
    ///   takes); the message never repeats the address, so never a password in it.
    public static func normalizedEndpoint(_ url: URL) throws -> URL {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let host = parts.host, !host.isEmpty else {
            throw S3Error.notConfigured("the S3 endpoint must be an http or https address with a host, e.g. http://127.0.0.1:9000")
        }
        if parts.user != nil || parts.password != nil {
            throw S3Error.notConfigured("the S3 endpoint must not carry a user or password: give the keys in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        if parts.query != nil || parts.fragment != nil {
            throw S3Error.notConfigured("the S3 endpoint must not carry a query (`?…`) or fragment (`#…`): give it as http://HOST:PORT or https://HOST")
        }
        parts.scheme = scheme
        parts.host = host.lowercased()
        while parts.path.hasSuffix("/") { parts.path.removeLast() }
        guard let normalized = parts.url else {
            throw S3Error.notConfigured("the S3 endpoint must be an http or https address with a host, e.g. http://127.0.0.1:9000")
        }
        return normalized
    }
}

extension S3Configuration: CustomStringConvertible {
    /// The endpoint, region, style and access key id; never the secret or the token.
    public var description: String {
        "S3Configuration(endpoint: \(endpoint.absoluteString), region: \(region), \(usesPathStyle ? "path" : "virtual-hosted") style, \(credentials))"
    }
}
