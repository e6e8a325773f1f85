import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// Debian's nginx in front of several `serve` processes, round-robining over them at one
/// address, on the configuration `scripts/cluster.sh` uses (`scripts/lib/nginx-front.conf`),
/// in a folder of the test's own; stopped when the test calls ``stop()`` or the value goes.
final class NginxFront: Sendable {
    /// The port people reach the servers at.
    let port: Int
    /// The run's folder: configuration, logs, temporary files.
    let folder: URL
    private let process: Process

    /// What a test gets when nginx is not installed.
    struct Missing: Error, CustomStringConvertible {
        var description: String { "nginx is not installed (/usr/sbin/nginx): run `make dependencies`, which installs Debian's nginx" }
    }

    /// Starts nginx on `port` in front of the servers on `upstreams`; returns once it listens.
    init(port: Int, upstreams: [Int]) async throws {
        let nginx = "/usr/sbin/nginx"
        guard FileManager.default.isExecutableFile(atPath: nginx) else { throw Missing() }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-front-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.port = port
        let template = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("scripts/lib/nginx-front.conf"), encoding: .utf8)
        let user = geteuid() == 0 ? "user root root;" : ""
        let configuration = template
            .replacingOccurrences(of: "@FOLDER@", with: folder.path)
            .replacingOccurrences(of: "@PORT@", with: String(port))
            .replacingOccurrences(of: "@USER@", with: user)
            .replacingOccurrences(of: "@UPSTREAMS@", with: upstreams.map { "server 127.0.0.1:\($0) max_fails=1 fail_timeout=5s;" }.joined(separator: " "))
        let configurationURL = folder.appendingPathComponent("nginx.conf")
        try configuration.write(to: configurationURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", folder.path, "-c", configurationURL.path, "-e", folder.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let errorLog = folder.appendingPathComponent("error.log")
        try await HangGuard.waitUntil("nginx listening on \(port)", limit: .seconds(60)) {
            guard process.isRunning else {
                throw NginxFailure(log: (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "")
            }
            guard let socket = LoopbackSocket.connect(port: port, readTimeout: timeval(tv_sec: 1, tv_usec: 0)) else { return false }
            close(socket)
            return true
        }
    }

    /// nginx exited before it listened.
    struct NginxFailure: Error, CustomStringConvertible {
        let log: String
        var description: String { "nginx exited: \(log.suffix(2000))" }
    }

    /// Stops nginx (a graceful quit) and removes its folder.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGQUIT)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit {
        stop()
    }
}

/// Loopback ports nothing listens on.
enum LoopbackPort {
    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
    static func free() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
