import ArgumentParser
import Foundation
import S3Storage

/// `assets-picker-bench s3 --bucket B --to DIR`: times S3Storage on a bucket as the library
/// will use it: listing every object (pages of 1,000), reading the first 64 KiB of each (a
/// photo's EXIF), and downloading each whole into a folder, `--concurrency` at a time. The
/// endpoint and keys come from the AWS variables. Prints one JSON line; `scripts/bench-s3.sh`
/// times boto3 doing the same on the same bucket and prints the ratios.
struct S3Command: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "s3",
        abstract: "Time listing, first bytes and downloads of a bucket's objects with S3Storage (AWS_* variables).")

    @Option(help: "The bucket.")
    var bucket: String

    @Option(help: "Only objects under this prefix.")
    var prefix = ""

    @Option(help: "The folder the objects are downloaded into (created).", transform: { URL(fileURLWithPath: $0) })
    var to: URL

    @Option(help: "How many requests run at once.")
    var concurrency = 8

    func run() async throws {
        let client = S3Client(configuration: try S3Configuration.standard())
        try FileManager.default.createDirectory(at: to, withIntermediateDirectories: true)

        var clock = ContinuousClock.now
        var objects: [S3Object] = []
        for try await page in client.objects(bucket: bucket, prefix: prefix, delimiter: nil) {
            objects += page.objects
        }
        let listing = ContinuousClock.now - clock

        clock = ContinuousClock.now
        try await forEach(objects) { object in
            _ = try await client.bytes(bucket: bucket, key: object.key, range: 0..<65536, ifMatch: object.eTag)
        }
        let heads = ContinuousClock.now - clock

        clock = ContinuousClock.now
        try await forEach(objects) { [to] object in
            let file = to.appendingPathComponent(object.key.replacingOccurrences(of: "/", with: "_"))
            try await client.download(bucket: bucket, key: object.key, eTag: object.eTag, to: file, progress: nil)
        }
        let downloads = ContinuousClock.now - clock

        let bytes = objects.reduce(Int64(0)) { $0 + $1.byteSize }
        func seconds(_ duration: Duration) -> Double { Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }
        print("""
            {"objects":\(objects.count),"bytes":\(bytes),"listSeconds":\(seconds(listing)),\
            "firstBytesSeconds":\(seconds(heads)),"downloadSeconds":\(seconds(downloads))}
            """)
    }

    /// Runs `body` on each object, `concurrency` at a time.
    private func forEach(_ objects: [S3Object], _ body: @escaping @Sendable (S3Object) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, object) in objects.enumerated() {
                if index >= concurrency { try await group.next() }
                group.addTask { try await body(object) }
            }
            try await group.waitForAll()
        }
    }
}
