import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// A port another program holds is one line that says how to choose another.
@Suite struct ServePortTests {
    @Test func aPortInUseIsOneLineNamingTheWayOut() async throws {
        let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(held >= 0)
        defer { close(held) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(held, $0, length) == 0 && listen(held, 1) == 0 && getsockname(held, $0, &length) == 0 }
        }
        try #require(listening)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-port-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let result = try await CLI.run(["serve", "--library", folder.path, "--backend", "folder", "--port", String(port)])
        #expect(result.status == 1)
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderrText)")
        #expect(lines.first == "Error: Port \(port) on 127.0.0.1 is in use by another program. Give another with --port N (with make run: PORT=N make run), or --port 0 for any free one.")
    }
}
