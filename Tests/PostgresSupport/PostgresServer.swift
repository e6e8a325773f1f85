import Foundation
import Logging
import PostgresIndex
import PostgresNIO
import ProcessRunning
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server for the tests: Debian's (package postgresql, installed by
/// `make dependencies`), its cluster made by `initdb` in a temporary folder and started the
/// first time a test asks, once per test process, on a free loopback port and a socket in that
/// folder; killed and removed when the process exits. As root (CI) the cluster belongs to the
/// `postgres` user (else `nobody`), as PostgreSQL refuses to run as root.
///
/// Each test takes a database of its own (``makeDatabase()``). The superuser ``user`` signs in
/// over the socket without a password and over TCP with ``password``.
///
/// When PostgreSQL is not installed, every test that asks fails with ``Missing``, naming
/// `make dependencies`; nothing is skipped.
public final class PostgresServer: Sendable {
    /// The superuser, made by `initdb`.
    public static let user = "assets"
    /// Its password over TCP.
    public static let password = "test-secret"

    /// The loopback port it listens on.
    public let port: Int
    /// The folder holding its socket (`.s.PGSQL.PORT`).
    public let socketFolder: String

    /// The server of this test process, started on first use.
    public static func shared() async throws -> PostgresServer {
        try await sharedServer.value
    }

    /// A server of the caller's own, for a test that stops and starts it again (``stop()``, ``start()``)
    /// without disturbing the other tests' databases.
    public static func own() async throws -> PostgresServer {
        let (port, folder, pid) = try await PostgresProcess.start()
        return PostgresServer(port: port, socketFolder: folder, pid: pid)
    }

    /// Stops the server as an operator does for a restart (fast shutdown: every connection is
    /// closed, transactions in flight roll back); returns once it has exited.
    public func stop() async throws {
        try await PostgresProcess.stop(pid.withLock { $0 })
    }

    /// Freezes every process of the server (`SIGSTOP` to the postmaster, then to each of its
    /// children: every backend leads a session of its own, so a signal to the postmaster's
    /// process group does not reach them): connections stay open and new ones are accepted by
    /// the kernel, but nothing is answered or closed, as with a stalled database or a network
    /// that drops packets. ``resume()`` thaws it.
    public func pause() {
        let postmaster = pid.withLock { $0 }
        kill(postmaster, SIGSTOP)
        for child in Self.children(of: postmaster) { kill(child, SIGSTOP) }
    }

    /// Thaws a server ``pause()`` froze.
    public func resume() {
        let postmaster = pid.withLock { $0 }
        for child in Self.children(of: postmaster) { kill(child, SIGCONT) }
        kill(postmaster, SIGCONT)
    }

    /// The processes whose parent is `parent`, from `/proc/PID/stat` (its fourth field).
    private static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let child = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "PID (COMMAND)": the state, then the parent's PID.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? child : nil
        }
    }

    /// Starts the stopped server again on the same port and folder; returns once it accepts connections.
    public func start() async throws {
        let new = try await PostgresProcess.run(folder: socketFolder, port: port)
        pid.withLock { $0 = new }
    }

    /// A new, empty database on the server, reached over its socket.
    public func makeDatabase() async throws -> PostgresAddress {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        return try socketAddress(database: name)
    }

    /// The address of `database` over the socket (no password needed).
    public func socketAddress(database: String) throws -> PostgresAddress {
        try PostgresAddress(url: "postgresql://\(Self.user)@/\(database)?host=\(socketFolder)&port=\(port)")
    }

    /// The `postgresql://` URL of `database` over TCP, with `password` (default: the right one).
    public func tcpURL(database: String, password: String = PostgresServer.password) -> String {
        "postgresql://\(Self.user):\(password)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// What a test gets when PostgreSQL is not installed.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/postgres): run `make dependencies`, which installs Debian's postgresql"
        }
    }

    /// The server did not start.
    public struct StartFailure: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { "PostgreSQL did not start: \(reason)" }
    }

    private let admin: PostgresClient
    private let running: Task<Void, Never>
    /// The server process (its group's leader).
    private let pid: Mutex<pid_t>

    private init(port: Int, socketFolder: String, pid: pid_t) {
        self.port = port
        self.socketFolder = socketFolder
        self.pid = Mutex(pid)
        let configuration = PostgresClient.Configuration(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: Self.user,
                                                         password: nil, database: "postgres")
        let client = PostgresClient(configuration: configuration)
        admin = client
        running = Task { await client.run() }
    }

    private static let sharedServer = Task {
        let (port, folder, pid) = try await PostgresProcess.start()
        return PostgresServer(port: port, socketFolder: folder, pid: pid)
    }
}

/// One PostgreSQL cluster: made by `initdb`, run by `postgres` in a process group of its own,
/// ready when it says so; killed, and its folder removed, when the test process exits.
enum PostgresProcess {
    private static let cleanup = Mutex<(groups: [pid_t], folders: [String])>(([], []))
    private static let exitHook: Void = {
        atexit {
            let (groups, folders) = PostgresProcess.cleanup.withLock { $0 }
            for group in groups { kill(-group, SIGKILL) }
            for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
        }
    }()

    /// The newest installed server's programs' folder.
    static func binaries() -> URL? {
        let base = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed()
            .map { base.appendingPathComponent("\($0)/bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("postgres").path) }
    }

    /// Makes and starts a cluster; its port, socket folder and server process.
    static func start() async throws -> (port: Int, folder: String, pid: pid_t) {
        guard let binaries = binaries() else { throw PostgresServer.Missing() }
        _ = exitHook
        let folder = "/tmp/ap-pg-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        cleanup.withLock { $0.folders.append(folder) }
        try Data(PostgresServer.password.utf8).write(to: URL(fileURLWithPath: folder + "/password"))
        let owner = try unprivilegedOwner(of: folder)
        try await runToEnd(binaries.appendingPathComponent("initdb").path,
                           ["-D", folder + "/data", "-U", PostgresServer.user, "--pwfile=\(folder)/password",
                            "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"],
                           as: owner, log: folder + "/initdb.log")
        let port = try freePort()
        return (port, folder, try await run(folder: folder, port: port))
    }

    /// Starts the server of the cluster in `folder` on `port`; returns its process once it
    /// accepts connections.
    static func run(folder: String, port: Int) async throws -> pid_t {
        guard let binaries = binaries() else { throw PostgresServer.Missing() }
        let log = folder + "/server.log"
        try? FileManager.default.removeItem(atPath: log)
        let pid = try spawn(binaries.appendingPathComponent("postgres").path,
                            ["-D", folder + "/data", "-k", folder, "-h", "127.0.0.1", "-p", String(port),
                             "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                             "-c", "max_connections=300", "-c", "shared_buffers=64MB"],
                            as: try owner(of: folder), log: log)
        cleanup.withLock { $0.groups.append(pid) }
        try await waitUntilReady(socket: "\(folder)/.s.PGSQL.\(port)", log: log, pid: pid)
        return pid
    }

    /// Stops the server `pid` with a fast shutdown and waits for it to exit.
    static func stop(_ pid: pid_t) async throws {
        kill(pid, SIGINT)
        let status = await Task.detached {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return status
        }.value
        guard status == 0 else { throw PostgresServer.StartFailure(reason: "postgres stopped with status \(status)") }
    }

    /// The user the cluster in `folder` runs as: the folder's owner when we are root.
    private static func owner(of folder: String) throws -> (uid: uid_t, gid: gid_t)? {
        guard geteuid() == 0 else { return nil }
        var info = stat()
        guard stat(folder, &info) == 0 else { throw PostgresServer.StartFailure(reason: "\(folder): \(String(cString: strerror(errno)))") }
        return (info.st_uid, info.st_gid)
    }

    /// As root, the `postgres` user (else `nobody`), made owner of `folder`; else nobody but us.
    private static func unprivilegedOwner(of folder: String) throws -> (uid: uid_t, gid: gid_t)? {
        guard geteuid() == 0 else { return nil }
        guard let entry = getpwnam("postgres") ?? getpwnam("nobody") else {
            throw PostgresServer.StartFailure(reason: "running as root, and there is neither a postgres nor a nobody user to run it as")
        }
        let owner = (uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
        for path in [folder, folder + "/password"] where chown(path, owner.uid, owner.gid) != 0 {
            throw PostgresServer.StartFailure(reason: "cannot give \(path) to uid \(owner.uid): \(String(cString: strerror(errno)))")
        }
        return owner
    }

    /// Spawns `program` (as `owner`, through `setpriv`, when given) in a process group of its
    /// own, its output in `log`.
    private static func spawn(_ program: String, _ arguments: [String], as owner: (uid: uid_t, gid: gid_t)?, log: String) throws -> pid_t {
        let (executable, all) = owner.map { owner in
            ("/usr/bin/setpriv", ["--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", "--", program] + arguments)
        } ?? (program, arguments)
        do {
            return try ProcessSpawn.spawn(executable, arguments: all, environment: ["LC_ALL": "C"],
                                          fileActions: [.write(descriptor: 1, path: log), .duplicate(1, to: 2)], ownProcessGroup: true)
        } catch {
            throw PostgresServer.StartFailure(reason: "\(program): \(error)")
        }
    }

    /// Runs `program` to its end; a failure says what it printed.
    private static func runToEnd(_ program: String, _ arguments: [String], as owner: (uid: uid_t, gid: gid_t)?, log: String) async throws {
        let pid = try spawn(program, arguments, as: owner, log: log)
        let status = await Task.detached {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return status
        }.value
        guard status == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw PostgresServer.StartFailure(reason: "\((program as NSString).lastPathComponent) exited with status \(status): \(output.suffix(2000))")
        }
    }

    /// A loopback port nothing listens on now (the kernel's pick for a socket bound to port 0).
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw PostgresServer.StartFailure(reason: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until the server says it accepts connections (and its socket is there), or fails
    /// when it exits first or is not ready within two minutes.
    private static func waitUntilReady(socket: String, log: String, pid: pid_t) async throws {
        let started = ContinuousClock.now
        while true {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if output.contains("database system is ready to accept connections"), FileManager.default.fileExists(atPath: socket) { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw PostgresServer.StartFailure(reason: "postgres exited with status \(status): \(output.suffix(2000))")
            }
            if ContinuousClock.now - started > .seconds(120) {
                throw PostgresServer.StartFailure(reason: "not ready within 120 s: \(output.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

extension PostgresServer {
    /// The database `name` on the server, made when it is not there yet.
    public func database(named name: String) async throws -> PostgresAddress {
        let rows = try await admin.query("SELECT 1 FROM pg_database WHERE datname = \(name)").collect()
        if rows.isEmpty { try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)")) }
        return try socketAddress(database: name)
    }
}
