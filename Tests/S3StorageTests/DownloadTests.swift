import Foundation
import Testing
import S3Storage
import S3TestSupport

/// Downloads on a real server, with faults made for real by a proxy in between: a connection
/// cut mid-answer, an endpoint that only answers as fast as the test lets it.
@Suite("downloads on a real server")
struct DownloadTests {
    @Test("a 20 MB file put from disk (streamed, signatures checked) downloads with identical bytes")
    func largeFile() async throws {
        let server = try await MotoServer.authenticating()
        let client = server.client()
        let bucket = try await Fixtures.bucket("large", on: server)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source.bin")
        try Fixtures.randomBytes(20_000_000).write(to: source)
        let eTag = try await client.put(bucket: bucket, key: "videos/big.mov", file: source, contentType: "video/quicktime")

        let progress = ProgressEvents()
        let target = folder.appendingPathComponent("copy.bin")
        let object = try await client.download(bucket: bucket, key: "videos/big.mov", eTag: eTag, to: target, progress: progress.report)
        progress.finish()
        #expect(object.byteSize == 20_000_000)
        #expect(object.eTag == eTag)
        #expect(try Fixtures.sha256(file: target) == Fixtures.sha256(file: source))
        var reports: [S3Progress] = []
        for await report in progress.stream { reports.append(report) }
        #expect(reports.first == S3Progress(received: 0, total: 20_000_000))
        #expect(reports.last == S3Progress(received: 20_000_000, total: 20_000_000))
        #expect(reports.map(\.received) == reports.map(\.received).sorted())
    }

    @Test("an answer longer than the size the caller knows is refused before a byte is written; the size it knows is taken")
    func sizeKnownBeforehand() async throws {
        let server = try await MotoServer.open()
        let client = server.client()
        let bucket = try await Fixtures.bucket("size", on: server)
        // The listing said 10,248 bytes; the object now answers 3 MB.
        try await client.put(bucket: bucket, key: "e.jpg", data: Fixtures.randomBytes(3_000_000), contentType: nil)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("e.jpg")
        let progress = ProgressEvents()
        await #expect(throws: S3Error.changed(bucket: bucket, key: "e.jpg")) {
            try await client.download(bucket: bucket, key: "e.jpg", eTag: nil, byteSize: 10_248, to: target, progress: progress.report)
        }
        progress.finish()
        var reports: [S3Progress] = []
        for await report in progress.stream { reports.append(report) }
        #expect(reports.isEmpty, "nothing written, not even the size announced: \(reports)")
        #expect(!FileManager.default.fileExists(atPath: target.path))

        let object = try await client.download(bucket: bucket, key: "e.jpg", eTag: nil, byteSize: 3_000_000, to: target, progress: nil)
        #expect(object.byteSize == 3_000_000)
        let mode = (try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600, "a download may be a private photo: its owner's alone")
    }

    @Test("an endpoint out of reach is named without the user:password it carries")
    func unreachableWithoutUserinfo() async throws {
        let server = try await MotoServer.open()
        let client = server.client(endpoint: URL(string: "http://minio-user:minio-PASSWORD@127.0.0.1:1")!)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var failure: (any Error)?
        do {
            try await client.download(bucket: "b", key: "k", eTag: nil, to: folder.appendingPathComponent("k"), progress: nil)
        } catch { failure = error }
        let line = "\(try #require(failure))"
        #expect(line.contains("http://127.0.0.1:1") && !line.contains("PASSWORD") && !line.contains("minio-user"), "\(line)")
    }

    @Test("a connection cut mid-download resumes by Range with If-Match, and the bytes are identical")
    func resume() async throws {
        let server = try await MotoServer.open()
        let bucket = try await Fixtures.bucket("resume", on: server)
        let data = Fixtures.randomBytes(5_000_000)
        let eTag = try await server.client().put(bucket: bucket, key: "photo.raw", data: data, contentType: nil)
        // The first answer is cut after 1 MB, the second (the first resume) after 600 kB more.
        let proxy = try await FaultProxy.start(upstreamPort: server.port, faults: [.dropAfter(bytes: 1_000_000), .dropAfter(bytes: 600_000)])
        defer { Task { await proxy.stop() } }
        let client = server.client(endpoint: proxy.endpoint)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("photo.raw")

        let object = try await client.download(bucket: bucket, key: "photo.raw", eTag: nil, to: target, progress: nil)
        #expect(object.byteSize == 5_000_000)
        #expect(try Fixtures.sha256(file: target) == Fixtures.sha256(data))

        let events = proxy.events
        #expect(events.filter { if case .dropped = $0 { true } else { false } }.count == 2)
        let heads = events.compactMap { event -> (Int, String)? in
            if case let .request(connection, head) = event { (connection, head.lowercased()) } else { nil }
        }.sorted { $0.0 < $1.0 }
        try #require(heads.count == 3)
        #expect(!heads[0].1.contains("range:"))
        for (_, head) in heads.dropFirst() {
            #expect(head.contains("range: bytes="))
            #expect(head.contains("if-match: \(eTag.lowercased())"))
        }
    }

    @Test("a slow endpoint reports progress before the end, and cancelling the task closes the connection at once")
    func cancelSlowDownload() async throws {
        let server = try await MotoServer.open()
        let bucket = try await Fixtures.bucket("slow", on: server)
        let size = 8_000_000
        try await server.client().put(bucket: bucket, key: "video.mp4", data: Fixtures.randomBytes(size), contentType: nil)
        let proxy = try await FaultProxy.start(upstreamPort: server.port, faults: [.gated])
        defer { Task { await proxy.stop() } }
        let client = server.client(endpoint: proxy.endpoint)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("video.mp4")

        let progress = ProgressEvents()
        let download = Task {
            defer { progress.finish() }
            return try await client.download(bucket: bucket, key: "video.mp4", eTag: nil, to: target, progress: progress.report)
        }
        // The endpoint lets 64 KiB through, then 64 KiB more: two reports of bytes before the end.
        var reports = progress.stream.makeAsyncIterator()
        var received: [Int64] = []
        for grant in 1...2 {
            proxy.grant(64 * 1024)
            while let report = await reports.next() {
                if report.received > (received.last ?? 0) {
                    received.append(report.received)
                    if report.received >= Int64(grant) * 60 * 1024 { break }
                }
            }
        }
        #expect(received.count >= 2)
        #expect((received.last ?? 0) < Int64(size))

        let cancelled = ContinuousClock.now
        download.cancel()
        let closed = try await proxy.event("the client closing its connection") {
            if case .clientClosed(connection: 1, _) = $0 { true } else { false }
        }
        let took = ContinuousClock.now - cancelled
        await #expect(throws: CancellationError.self) { try await download.value }
        guard case let .clientClosed(_, forwardedBytes) = closed else { return }
        #expect(forwardedBytes <= 2 * 64 * 1024)
        #expect(forwardedBytes < size / 50)
        #expect(!FileManager.default.fileExists(atPath: target.path))
        print("cancelling a download: the proxy saw the connection closed \(took) after cancel(), with \(forwardedBytes) of \(size) bytes passed")
    }

    @Test("an object replaced between the cut and the resume is the error changed, not mixed bytes")
    func changedDuringResume() async throws {
        let server = try await MotoServer.open()
        let bucket = try await Fixtures.bucket("changed", on: server)
        try await server.client().put(bucket: bucket, key: "k", data: Fixtures.randomBytes(2_000_000), contentType: nil)
        // The first answer is cut; the resume's request is held until the object is replaced.
        let proxy = try await FaultProxy.start(upstreamPort: server.port, faults: [.dropAfter(bytes: 500_000), .holdRequest])
        defer { Task { await proxy.stop() } }
        let client = server.client(endpoint: proxy.endpoint)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("k")

        let download = Task { try await client.download(bucket: bucket, key: "k", eTag: nil, to: target, progress: nil) }
        _ = try await proxy.event("the resumed request") { if case .opened(connection: 2) = $0 { true } else { false } }
        try await server.client().put(bucket: bucket, key: "k", data: Fixtures.randomBytes(2_000_000), contentType: nil)
        proxy.releaseRequests()
        await #expect(throws: S3Error.changed(bucket: bucket, key: "k")) { try await download.value }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("a connection that keeps dropping without progress ends as unreachable, after a few attempts")
    func givesUp() async throws {
        let server = try await MotoServer.open()
        let bucket = try await Fixtures.bucket("giveup", on: server)
        try await server.client().put(bucket: bucket, key: "k", data: Fixtures.randomBytes(100_000), contentType: nil)
        // Every answer is cut inside its headers: no byte of the object ever arrives.
        let proxy = try await FaultProxy.start(upstreamPort: server.port, faults: Array(repeating: .dropAfter(bytes: 10), count: 10))
        defer { Task { await proxy.stop() } }
        var limits = S3Client.Limits()
        limits.firstRetryDelay = .milliseconds(1)
        let client = S3Client(configuration: server.configuration(endpoint: proxy.endpoint), limits: limits)
        let target = try Fixtures.temporaryFolder().appendingPathComponent("k")
        do {
            _ = try await client.download(bucket: bucket, key: "k", eTag: nil, to: target, progress: nil)
            Issue.record("a download through a cut connection succeeded")
        } catch let S3Error.unreachable(_, reason) {
            #expect(reason.contains("s3://\(bucket)/k"))
        }
        #expect(proxy.events.filter { if case .opened = $0 { true } else { false } }.count == limits.downloadAttempts)
    }
}
