import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A client of one S3 service: lists, reads, downloads and writes objects, with requests signed
/// by ``SigV4Signer``.
///
/// It speaks to AWS and to S3-compatible servers (moto, MinIO) alike, over async-http-client.
/// Every answer read into memory is bounded (``Limits``); downloads stream to a file, resume
/// after a dropped connection, and stop promptly when the calling task is cancelled. Nothing is
/// logged, and no error carries the secret key, a signature or an `Authorization` header.
///
/// ```swift
/// let client = S3Client(configuration: try .standard())
/// for try await page in client.objects(bucket: "photos", prefix: "2024/", delimiter: nil) {
///     for object in page.objects { print(object.key, object.byteSize) }
/// }
/// ```
public final class S3Client: Sendable {
    /// The service and the keys.
    public let configuration: S3Configuration
    let httpClient: HTTPClient
    let signer: SigV4Signer
    let limits: Limits
    /// The signing clock (the tests' vectors set it).
    let now: @Sendable () -> Date

    /// Bounds on what is read from the network into memory and on waiting.
    public struct Limits: Sendable {
        /// The most ``S3Client/bytes(bucket:key:range:ifMatch:)`` returns: 16 MiB.
        public var maximumBytes: Int64 = 16 << 20
        /// The most a listing answer may be: 8 MiB (a page of 1,000 long keys is under 1 MiB).
        public var maximumListingBytes = 8 << 20
        /// The most of an error answer that is read: 64 KiB.
        public var maximumErrorBytes = 64 << 10
        /// How long a request without a long body may take from start to end (an upload gets a
        /// second more per MiB).
        public var requestTimeout: Duration = .seconds(60)
        /// How many times a download tries again after its connection drops without progress.
        public var downloadAttempts = 4
        /// The first pause before trying a download again; it doubles each time, up to 2 s.
        public var firstRetryDelay: Duration = .milliseconds(100)

        /// The default limits.
        public init() {}
    }

    /// The HTTP client S3 clients share unless given another: redirects are not followed (S3's
    /// redirects name another region, and a signature is for one host), answers are not
    /// decompressed (the bytes of an object are its bytes), connecting may take 10 s and a read
    /// may wait 60 s. A refused connection fails the request at once rather than being tried
    /// again until the connect timeout: an endpoint that is down (a bucket browsed offline) is
    /// told in moments, and a download tries again on its own (``Limits/downloadAttempts``).
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(60)),
            decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: The service and the keys.
    ///   - httpClient: The HTTP client to send with; one that follows redirects or decompresses
    ///     answers would break signatures and byte counts.
    ///   - limits: Bounds on answers and waiting.
    public convenience init(configuration: S3Configuration, httpClient: HTTPClient = S3Client.sharedHTTPClient,
                            limits: Limits = Limits()) {
        self.init(configuration: configuration, httpClient: httpClient, limits: limits, now: { Date() })
    }

    init(configuration: S3Configuration, httpClient: HTTPClient, limits: Limits, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.limits = limits
        self.now = now
        signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region)
    }
}

// MARK: - Sending

extension S3Client {
    /// One request to S3, before it is addressed and signed.
    struct Request: Sendable {
        enum Payload: Sendable {
            case none
            case bytes(Data)
            /// A file streamed as it is read; signed as ``SigV4Signer/unsignedPayload``.
            case file(URL, byteSize: Int64)
        }

        var method: HTTPMethod
        var bucket: String
        var key: String?
        var query: [(String, String)] = []
        var headers: [(String, String)] = []
        var payload: Payload = .none
    }

    /// Where a request goes: the `Host` header, the path as sent and the URL before the path.
    struct Address {
        var host: String
        var encodedPath: String
        var origin: String
    }

    /// The host and path of an object (or of the bucket when `key` is `nil`), in path or
    /// virtual-hosted style.
    func address(bucket: String, key: String?) -> Address {
        let endpoint = configuration.endpoint
        let scheme = endpoint.scheme?.lowercased() ?? "https"
        var host = endpoint.host ?? ""
        let pathStyle = configuration.usesPathStyle || bucket.contains(".")
        if !pathStyle { host = "\(bucket).\(host)" }
        if let port = endpoint.port, port != (scheme == "https" ? 443 : 80) {
            host += ":\(port)"
        }
        var path = endpoint.path
        while path.hasSuffix("/") { path.removeLast() }
        if pathStyle { path += "/" + URIEncoding.encode(bucket) }
        if let key {
            path += "/" + URIEncoding.encode(key, keepingSlashes: true)
        } else if path.isEmpty {
            path = "/"
        }
        return Address(host: host, encodedPath: path, origin: "\(scheme)://\(host)")
    }

    /// The NIO deadline `duration` from now.
    static func deadline(after duration: Duration) -> NIODeadline {
        .now() + .nanoseconds(Int64(duration / .nanoseconds(1)))
    }

    /// `request` addressed and signed at the client's clock, ready to send.
    func prepare(_ request: Request) -> HTTPClientRequest {
        let address = address(bucket: request.bucket, key: request.key)
        let payloadHash: String
        switch request.payload {
        case .none: payloadHash = SigV4Signer.emptyPayloadHash
        case let .bytes(data): payloadHash = SigV4Signer.hexSHA256(data)
        case .file: payloadHash = SigV4Signer.unsignedPayload
        }
        let headers = [("host", address.host)] + request.headers
        let signing = signer.authorizationHeaders(method: request.method.rawValue, encodedPath: address.encodedPath,
                                                  query: request.query, headers: headers, payloadHash: payloadHash, now: now())
        let query = SigV4Signer.canonicalQuery(request.query)
        var http = HTTPClientRequest(url: address.origin + address.encodedPath + (query.isEmpty ? "" : "?" + query))
        http.method = request.method
        http.headers = HTTPHeaders(headers + signing)
        switch request.payload {
        case .none:
            break
        case let .bytes(data):
            http.body = .bytes(ByteBuffer(data: data))
        case let .file(url, byteSize):
            http.body = .stream(FileChunks(url: url), length: .known(byteSize))
        }
        return http
    }

    /// Sends `request` signed and returns the answer's head, its body still to be read.
    ///
    /// - Throws: ``S3Error/unreachable(endpoint:reason:)`` when no answer came, or
    ///   `CancellationError` when the task was cancelled.
    func send(_ request: Request, deadline: NIODeadline) async throws -> HTTPClientResponse {
        try Task.checkCancellation()
        do {
            return try await httpClient.execute(prepare(request), deadline: deadline)
        } catch {
            throw transportFailure(error)
        }
    }

    /// Sends `request` and reads its whole (bounded) answer; a refusal becomes the ``S3Error``
    /// it means.
    func perform(_ request: Request, limit: Int, timeout: Duration? = nil) async throws -> (HTTPClientResponse, Data) {
        let response = try await send(request, deadline: Self.deadline(after: timeout ?? limits.requestTimeout))
        guard (200..<300).contains(response.status.code) else {
            throw await failure(response, bucket: request.bucket, key: request.key)
        }
        // A HEAD answer's Content-Length is the object's; it has no body.
        guard request.method != .HEAD else { return (response, Data()) }
        return (response, try await body(of: response, limit: limit, bucket: request.bucket, key: request.key))
    }

    /// The body of `response`, refused beyond `limit` bytes.
    func body(of response: HTTPClientResponse, limit: Int, bucket: String, key: String?) async throws -> Data {
        if let length = response.headers.first(name: "content-length").flatMap(Int64.init), length > Int64(limit) {
            throw S3Error.tooLarge(bucket: bucket, key: key ?? "", size: length, limit: Int64(limit))
        }
        do {
            let buffer = try await response.body.collect(upTo: limit)
            return Data(buffer: buffer)
        } catch is NIOTooManyBytesError {
            throw S3Error.tooLarge(bucket: bucket, key: key ?? "", size: -1, limit: Int64(limit))
        } catch {
            throw transportFailure(error)
        }
    }

    /// The error a non-2xx answer means, read from its XML error body (at most
    /// ``Limits/maximumErrorBytes`` of it).
    func failure(_ response: HTTPClientResponse, bucket: String, key: String?) async -> any Error {
        if Task.isCancelled { return CancellationError() }
        var data = Data()
        if let buffer = try? await response.body.collect(upTo: limits.maximumErrorBytes) {
            data = Data(buffer: buffer)
        }
        let answer = ErrorAnswer(data)
        return S3Error.from(status: Int(response.status.code), code: answer.code, message: answer.message,
                            bucket: bucket, key: key)
    }

    /// What a failure to get an answer becomes: `CancellationError` when the task was
    /// cancelled, an ``S3Error`` as it stands, and anything else ``S3Error/unreachable(endpoint:reason:)``.
    func transportFailure(_ error: any Error) -> any Error {
        if Task.isCancelled || error is CancellationError { return CancellationError() }
        if error is S3Error { return error }
        return S3Error.unreachable(endpoint: configuration.endpointForMessages, reason: Self.describe(error))
    }

    /// A short phrase for a transport error.
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "connecting timed out"
            case .readTimeout: return "no bytes arrived for too long (read timeout)"
            case .deadlineExceeded: return "the request took too long"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: return "\(error)"
            }
        }
        let text = "\(error)"
        if text.contains("Connection refused") || text.contains("connection refused") { return "connection refused" }
        if text.contains("Connection reset") { return "the connection was reset" }
        return text
    }
}

/// A file's bytes as an async sequence of buffers, read a MiB at a time as the upload asks.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let url: URL

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        let url: URL

        mutating func next() async throws -> ByteBuffer? {
            guard let handle else { throw S3Error.malformed("\(url.path): the file to upload cannot be opened") }
            guard let data = try handle.read(upToCount: 1 << 20), !data.isEmpty else {
                try? handle.close()
                return nil
            }
            return ByteBuffer(data: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: try? FileHandle(forReadingFrom: url), url: url)
    }
}
