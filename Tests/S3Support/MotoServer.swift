import AsyncHTTPClient
import Foundation
import NIOCore
import ProcessRunning
import S3Storage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A real S3 server for the tests: moto's (PyPI `moto[server]`, installed by `make dependencies`),
/// started on a free loopback port the first time a test asks, once per test process, and
/// killed when the process exits.
///
/// Two servers can run: ``open()`` checks no signature (any keys work; keys with any characters
/// round-trip), and ``authenticating()`` checks every request's SigV4 signature against an IAM
/// user it was given at start, so a wrong secret or an unknown key is refused for real. (moto
/// recomputes signatures from the path and query as it decoded them, so it refuses what boto3
/// signs too when a key has other characters than letters, digits, `/`, `-`, `_`, `.` and `~`,
/// or a query value has a `/` (a prefix `photos/`, the delimiter): on that server, tests keep
/// to plain keys and prefixes without `/`. The open server takes every key.)
///
/// When `moto_server` is missing, every test that asks fails with ``Missing``, naming
/// `make dependencies`; nothing is skipped.
public final class MotoServer: Sendable {
    /// The loopback port it listens on.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public let endpoint: URL
    /// Keys it accepts: for the authenticating server, its IAM user's.
    public let credentials: S3Credentials
    /// Whether it checks signatures.
    public let checksSignatures: Bool

    /// The server that checks no signature.
    public static func open() async throws -> MotoServer {
        try await openServer.value
    }

    /// The server that checks every signature against its one IAM user, ``credentials``.
    public static func authenticating() async throws -> MotoServer {
        try await authenticatingServer.value
    }

    /// This server's configuration: path style, `us-east-1`, ``credentials`` unless others are given.
    public func configuration(credentials: S3Credentials? = nil, endpoint: URL? = nil) -> S3Configuration {
        S3Configuration(endpoint: endpoint ?? self.endpoint, region: "us-east-1", credentials: credentials ?? self.credentials,
                        usesPathStyle: true)
    }

    /// A client of this server (or of `endpoint`, a proxy in front of it).
    public func client(credentials: S3Credentials? = nil, endpoint: URL? = nil) -> S3Client {
        S3Client(configuration: configuration(credentials: credentials, endpoint: endpoint))
    }

    /// Temporary credentials (an access key id, a secret and a session token) from moto's STS:
    /// a role made for the caller, allowed everything, assumed by the IAM user. Only on the
    /// authenticating server, which checks the token as AWS does.
    public func temporaryCredentials() async throws -> S3Credentials {
        try await IAMSetup.assumeRole(port: port, user: credentials)
    }

    /// What a test gets when moto is not installed.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "moto_server is not installed (neither on PATH nor in ~/.local/bin): run `make dependencies`, which installs moto[server] from PyPI"
        }
    }

    /// moto did not start.
    public struct StartFailure: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { "moto_server did not start: \(reason)" }
    }

    init(port: Int, credentials: S3Credentials, checksSignatures: Bool) {
        self.port = port
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        self.credentials = credentials
        self.checksSignatures = checksSignatures
    }

    // MARK: - Starting

    private static let openServer = Task {
        let port = try await MotoProcess.start(environment: [:])
        return MotoServer(port: port, credentials: S3Credentials(accessKeyID: "AKIAMOTOOPEN00000000", secretAccessKey: "open-secret"),
                          checksSignatures: false)
    }

    private static let authenticatingServer = Task {
        // The first three actions go unchecked: the IAM user, its key and its policy.
        let port = try await MotoProcess.start(environment: ["INITIAL_NO_AUTH_ACTION_COUNT": "3"])
        let credentials = try await IAMSetup.makeUser(port: port)
        return MotoServer(port: port, credentials: credentials, checksSignatures: true)
    }
}

/// One moto process: spawned in a process group of its own with its output on a pipe that a
/// thread of its own reads (so moto never blocks on a full pipe), ready when it prints the
/// port it listens on.
enum MotoProcess {
    /// The process groups to kill when the test process exits.
    private static let running = Mutex<[pid_t]>([])
    private static let exitHook: Void = {
        atexit {
            for group in MotoProcess.running.withLock({ $0 }) { kill(-group, SIGKILL) }
        }
    }()

    static func locate() -> URL? {
        if let found = ExternalTool("moto_server").locate() { return found }
        let local = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/bin/moto_server")
        return FileManager.default.isExecutableFile(atPath: local.path) ? local : nil
    }

    /// Starts moto on a port it picks and returns that port.
    static func start(environment: [String: String]) async throws -> Int {
        guard let executable = locate() else { throw MotoServer.Missing() }
        return try await start(executable: executable, arguments: ["-H", "127.0.0.1", "-p", "0"], environment: environment)
    }

    /// Starts `executable` with `arguments`, a server that prints `Running on http://127.0.0.1:PORT`
    /// as moto does, and returns that port.
    static func start(executable: URL, arguments: [String], environment: [String: String]) async throws -> Int {
        _ = exitHook
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw MotoServer.StartFailure(reason: "no pipe: \(String(cString: strerror(errno)))") }
        // Ours only (ProcessSpawn closes every other descriptor in a child anyway).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try ProcessSpawn.spawn(executable.path, arguments: arguments,
                                         environment: environment.merging(["PYTHONUNBUFFERED": "1"]) { $1 },
                                         fileActions: [.duplicate(ends[1], to: 1), .duplicate(ends[1], to: 2)],
                                         ownProcessGroup: true)
        } catch {
            close(ends[0])
            close(ends[1])
            throw MotoServer.StartFailure(reason: "\(error)")
        }
        close(ends[1])
        running.withLock { $0.append(pid) }
        let reader = ends[0]
        return try await withCheckedThrowingContinuation { continuation in
            Thread { watch(pid: pid, output: reader, ready: continuation) }.start()
        }
    }

    /// Reads moto's output until it says its port (answering `ready`), then drains it until moto
    /// exits, and reaps it.
    private static func watch(pid: pid_t, output: Int32, ready: CheckedContinuation<Int, any Error>) {
        var continuation: CheckedContinuation<Int, any Error>? = ready
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let marker = "Running on http://127.0.0.1:"
        let started = ContinuousClock.now
        while true {
            // Before it is ready, a hang guard far beyond moto's few seconds of start.
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let waited = poll(&descriptor, 1, continuation == nil ? -1 : 1000)
            if waited == 0 {
                if ContinuousClock.now - started > .seconds(120) {
                    kill(-pid, SIGKILL)
                    continuation?.resume(throwing: MotoServer.StartFailure(reason: "no port printed within 120 s: \(text.suffix(2000))"))
                    continuation = nil
                }
                continue
            }
            if waited < 0 { if errno == EINTR { continue } else { break } }
            let count = read(output, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            guard continuation != nil else { continue }
            text += String(decoding: buffer[..<count], as: UTF8.self)
            if let range = text.range(of: marker) {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), text[range.upperBound...].dropFirst(digits.count).first?.isWhitespace == true {
                    continuation?.resume(returning: port)
                    continuation = nil
                    text = ""
                }
            }
        }
        close(output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        running.withLock { $0.removeAll { $0 == pid } }
        continuation?.resume(throwing: MotoServer.StartFailure(reason: "it exited (status \(status)): \(text.suffix(2000))"))
    }
}

/// The authenticating server's IAM user, made through moto's IAM API in its first three
/// (unchecked) actions.
enum IAMSetup {
    static let user = "s3-storage-tests"
    static let setupKeys = S3Credentials(accessKeyID: "AKIAMOTOSETUP0000000", secretAccessKey: "setup")

    static func makeUser(port: Int) async throws -> S3Credentials {
        _ = try await call(port: port, service: "iam", ["Action": "CreateUser", "UserName": user])
        let answer = try await call(port: port, service: "iam", ["Action": "CreateAccessKey", "UserName": user])
        guard let keyID = element("AccessKeyId", in: answer), let secret = element("SecretAccessKey", in: answer) else {
            throw MotoServer.StartFailure(reason: "CreateAccessKey gave no key: \(answer.prefix(500))")
        }
        _ = try await call(port: port, service: "iam", ["Action": "PutUserPolicy", "UserName": user, "PolicyName": "everything",
                                                        "PolicyDocument": allowEverything])
        return S3Credentials(accessKeyID: keyID, secretAccessKey: secret)
    }

    static let allowEverything = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}"#

    /// A new role the user may assume and that may do everything, assumed through STS.
    static func assumeRole(port: Int, user keys: S3Credentials) async throws -> S3Credentials {
        let role = "s3-storage-tests-\(UUID().uuidString.prefix(8).lowercased())"
        let trust = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:user/"#
            + user + #""},"Action":"sts:AssumeRole"}]}"#
        let created = try await call(port: port, service: "iam", signedWith: keys,
                                     ["Action": "CreateRole", "RoleName": role, "AssumeRolePolicyDocument": trust])
        guard let arn = element("Arn", in: created) else {
            throw MotoServer.StartFailure(reason: "CreateRole gave no ARN: \(created.prefix(500))")
        }
        _ = try await call(port: port, service: "iam", signedWith: keys,
                           ["Action": "PutRolePolicy", "RoleName": role, "PolicyName": "everything", "PolicyDocument": allowEverything])
        let assumed = try await call(port: port, service: "sts", signedWith: keys, version: "2011-06-15",
                                     ["Action": "AssumeRole", "RoleArn": arn, "RoleSessionName": "tests"])
        guard let keyID = element("AccessKeyId", in: assumed), let secret = element("SecretAccessKey", in: assumed),
              let token = element("SessionToken", in: assumed) else {
            throw MotoServer.StartFailure(reason: "AssumeRole gave no credentials: \(assumed.prefix(500))")
        }
        return S3Credentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: token)
    }

    /// One IAM or STS Query API call (a signed form `POST`); its XML answer.
    private static func call(port: Int, service: String, signedWith keys: S3Credentials = setupKeys, version: String = "2010-05-08",
                             _ parameters: [String: String]) async throws -> String {
        let form = (parameters.merging(["Version": version]) { $1 })
            .map { "\(formEncode($0.key))=\(formEncode($0.value))" }.sorted().joined(separator: "&")
        let body = Data(form.utf8)
        let host = "127.0.0.1:\(port)"
        let headers = [("host", host), ("content-type", "application/x-www-form-urlencoded")]
        let signer = SigV4Signer(credentials: keys, region: "us-east-1", service: service)
        let signing = signer.authorizationHeaders(method: "POST", encodedPath: "/", query: [], headers: headers,
                                                  payloadHash: SigV4Signer.hexSHA256(body), now: Date())
        var request = HTTPClientRequest(url: "http://\(host)/")
        request.method = .POST
        request.headers = .init(headers + signing)
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await S3Client.sharedHTTPClient.execute(request, timeout: .seconds(60))
        let answer = String(buffer: try await response.body.collect(upTo: 1 << 20))
        guard response.status == .ok else {
            throw MotoServer.StartFailure(reason: "\(service) \(parameters["Action"] ?? "") answered \(response.status.code): \(answer.prefix(500))")
        }
        return answer
    }

    private static func formEncode(_ value: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    private static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"), let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex) else {
            return nil
        }
        return String(xml[start.upperBound..<end.lowerBound])
    }
}
