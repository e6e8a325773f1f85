import Crypto
import Foundation
import S3Storage
import S3TestSupport

/// What the tests against a real server share: a fresh bucket each (suites run in parallel
/// against one server), bytes, files and their hashes.
enum Fixtures {
    /// A new bucket on `server`, named for the test and unique in the process.
    static func bucket(_ purpose: String, on server: MotoServer) async throws -> String {
        let name = "s3t-\(purpose)-\(UUID().uuidString.prefix(8).lowercased())"
        try await server.client().createBucket(name)
        return name
    }

    /// `count` random bytes.
    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            let words = buffer.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = generator.next() }
            for index in (words.count * 8)..<count { buffer[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        return data
    }

    /// A new empty folder of the system's temporary folder.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("s3-storage-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func sha256(_ data: Data) -> String {
        SigV4Signer.hexSHA256(data)
    }

    static func sha256(file: URL) throws -> String {
        sha256(try Data(contentsOf: file))
    }
}

/// Progress reports as events a test can wait for, in order.
final class ProgressEvents: Sendable {
    let stream: AsyncStream<S3Progress>
    private let continuation: AsyncStream<S3Progress>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: S3Progress.self)
    }

    /// What the download calls.
    var report: @Sendable (S3Progress) -> Void {
        { [continuation] in continuation.yield($0) }
    }

    /// Ends the stream (when the download returns, so a waiting test never hangs on it).
    func finish() { continuation.finish() }
}
