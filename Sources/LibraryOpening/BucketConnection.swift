import Foundation
import S3Storage

/// How a library in a bucket (`s3://BUCKET/PREFIX`) is reached: the S3 endpoint and region over
/// the standard variables (`AWS_ENDPOINT_URL`, `AWS_REGION`; the keys from `AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`), and what its originals may take on this
/// machine.
public struct BucketConnection: Sendable {
    /// The S3 endpoint (`--endpoint-url`), over `AWS_ENDPOINT_URL_S3` and `AWS_ENDPOINT_URL`;
    /// `nil` for those, or AWS's endpoint in the region.
    public var endpoint: URL?
    /// The region (`--region`), over `AWS_REGION` and `AWS_DEFAULT_REGION`; `nil` for those, or `us-east-1`.
    public var region: String?
    /// The variables read (the process's own by default).
    public var environment: [String: String]
    /// The most fetched originals may take on this machine; `nil` for the store's default (2 GiB).
    public var originalsByteBudget: Int64?
    /// How often a served library lists its bucket again; `nil` for the store's default (5 minutes).
    public var rescanInterval: Duration?

    /// A connection from `environment`, with these options over it.
    public init(endpoint: URL? = nil, region: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                originalsByteBudget: Int64? = nil, rescanInterval: Duration? = nil) {
        self.endpoint = endpoint
        self.region = region
        self.environment = environment
        self.originalsByteBudget = originalsByteBudget
        self.rescanInterval = rescanInterval
    }

    /// The S3 configuration: endpoint, region and keys.
    /// - Throws: `S3Error.notConfigured(_:)` naming what is missing (the keys) or wrong (the endpoint).
    public func configuration() throws -> S3Configuration {
        try S3Configuration.standard(environment: environment, endpoint: endpoint, region: region)
    }

    /// The endpoint the configuration would have, without needing the keys: what an index of a
    /// bucket is keyed by besides its address.
    /// In its one form (``S3Configuration/normalizedEndpoint(_:)``): `http://h:9000` and
    /// `http://h:9000/` key the same index.
    public var resolvedEndpoint: URL {
        if let endpoint { return (try? S3Configuration.normalizedEndpoint(endpoint)) ?? endpoint }
        for name in ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"] {
            if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty, let url = URL(string: value) {
                return (try? S3Configuration.normalizedEndpoint(url)) ?? url
            }
        }
        let region = region ?? [environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]].compactMap { $0 }.first { !$0.isEmpty } ?? "us-east-1"
        return S3Configuration.awsEndpoint(region: region)
    }
}
