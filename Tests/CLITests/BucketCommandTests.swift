import Foundation
import S3Storage
import S3TestSupport
import Testing
import TestSupport

/// The command line on a library in a bucket (moto's real S3 server): `index s3://…`, then
/// `--library s3://…` for the other commands, as a folder's path is taken.
@Suite("assets-picker on a bucket")
struct BucketCommandTests {
    /// A bucket holding a few corpus files under `photos/` (two folders, a video), and the
    /// environment that reaches it the standard way.
    struct Bucket {
        let server: MotoServer
        let name: String
        var address: String { "s3://\(name)/photos" }
        var environment: [String: String] {
            ["AWS_ENDPOINT_URL": server.endpoint.absoluteString, "AWS_ACCESS_KEY_ID": server.credentials.accessKeyID,
             "AWS_SECRET_ACCESS_KEY": server.credentials.secretAccessKey, "AWS_REGION": "us-east-1"]
        }

        init(_ purpose: String) async throws {
            server = try await MotoServer.open()
            name = "cli-\(purpose)-\(UUID().uuidString.prefix(8).lowercased())"
            let client = server.client()
            try await client.createBucket(name)
            for file in ["A_camera_exif/goexif__sample1.jpg", "A_camera_exif/jhead__gpsinfo.jpg", "A_camera_exif/jhead__sony.jpg"] {
                try await client.put(bucket: name, key: "photos/trip/" + (file as NSString).lastPathComponent,
                                     data: try Data(contentsOf: Corpus.file(file)), contentType: nil)
            }
            try await client.put(bucket: name, key: "photos/clips/test.mp4", data: try Data(contentsOf: Corpus.file("E_formats/puremagic__test.mp4")),
                                 contentType: nil)
        }

        func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> CLIResult {
            try await CLI.run(arguments, environment: environment.merging(extra) { $1 })
        }
    }

    @Test("index s3://… lists and reads the bucket; albums and assets --library s3://… then read the index; a rescan changes nothing")
    func indexThenBrowse() async throws {
        let bucket = try await Bucket("index")
        let indexed = try await bucket.run(["index", bucket.address, "--json"])
        try #require(indexed.status == 0, "\(indexed)")
        let summary = try indexed.json()
        #expect(try summary.int("added") == 4)
        #expect(try summary.string("library") == bucket.address + "/")
        #expect(try summary.string("index").hasPrefix(CLI.dataHome.path))

        let albums = try await bucket.run(["albums", "--library", bucket.address, "--json"])
        try #require(albums.status == 0, "\(albums)")
        let list = try albums.json()
        #expect(try list.string("library") == bucket.address + "/" && list.string("backend") == "indexed")
        let titles = try list.objects("albums").map { try $0.string("title") }
        #expect(titles.contains("trip") && titles.contains("clips"), "\(titles)")

        let assets = try await bucket.run(["assets", "--library", bucket.address, "--json"])
        try #require(assets.status == 0, "\(assets)")
        #expect(try assets.json().objects("assets").count == 4)
        let text = try await bucket.run(["albums", "--library", bucket.address])
        #expect(text.stdoutText.hasPrefix("The albums of \(bucket.address)/ (indexed library)"), "\(text)")

        let again = try await bucket.run(["index", "--library", bucket.address, "--json"])
        #expect(try again.json().int("added") == 0 && again.json().int("scanned") == 4)
    }

    @Test("export --json from a bucket fetches the originals, byte for byte; stdout is one JSON document")
    func export() async throws {
        let bucket = try await Bucket("export")
        let scratch = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try #require(try await bucket.run(["index", bucket.address]).status == 0)
        let out = scratch.appendingPathComponent("out")
        let exported = try await bucket.run(["export", "--library", bucket.address, "--album", "smart:all", "--original", "--json",
                                             "--out", out.path])
        try #require(exported.status == 0, "\(exported)")
        #expect(try exported.json().objects("exported").count == 4)
        #expect(try Data(contentsOf: out.appendingPathComponent("goexif__sample1.jpg")) == Data(contentsOf: Corpus.file("A_camera_exif/goexif__sample1.jpg")))
        #expect(exported.stderrText.isEmpty, "no bar into a file: \(exported.stderrText)")
    }

    @Test("--originals-cache-mb holds the originals kept on this machine to its budget: the least recently used go, every export is whole")
    func originalsCacheBudget() async throws {
        let bucket = try await Bucket("budget")
        let scratch = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Four photos of 600 KB each (a camera JPEG with data after its end, as some cameras write).
        let photo = try Data(contentsOf: Corpus.file("A_camera_exif/goexif__sample1.jpg"))
        var large: [String: Data] = [:]
        for number in 1...4 {
            large["big-\(number).jpg"] = photo + Data(repeating: UInt8(number), count: 600_000 - photo.count)
        }
        let client = bucket.server.client()
        for (name, data) in large {
            try await client.put(bucket: bucket.name, key: "photos/big/" + name, data: data, contentType: nil)
        }
        let indexed = try await bucket.run(["index", bucket.address, "--json"])
        try #require(indexed.status == 0, "\(indexed)")
        let cache = URL(fileURLWithPath: try indexed.json().string("index")).deletingPathExtension().path + "-originals"

        let out = scratch.appendingPathComponent("out")
        let exported = try await bucket.run(["export", "--library", bucket.address, "--album", "smart:all", "--original", "--json",
                                             "--out", out.path, "--originals-cache-mb", "1"])
        try #require(exported.status == 0, "\(exported)")
        for (name, data) in large {
            #expect(try Data(contentsOf: out.appendingPathComponent(name)) == data, "\(name)")
        }
        let kept = FileManager.default.enumerator(atPath: cache)?.compactMap { $0 as? String }.compactMap { path -> Int? in
            let values = try? URL(fileURLWithPath: cache).appendingPathComponent(path).resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
            return values?.isRegularFile == true ? values?.fileSize : nil
        } ?? []
        #expect(!kept.isEmpty && kept.reduce(0, +) <= 1_048_576, "\(kept)")

        let refused = try await bucket.run(["albums", "--library", bucket.address, "--originals-cache-mb", "0"])
        #expect(refused.status != 0 && refused.stderrText.contains("--originals-cache-mb must be a whole number of megabytes, at least 1"),
                "\(refused)")
    }

    @Test("export on a terminal shows each original being fetched and the bytes fetched of all; the bar ends full")
    func exportProgressOnATerminal() async throws {
        let bucket = try await Bucket("progress")
        let scratch = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try #require(try await bucket.run(["index", bucket.address]).status == 0)
        let run = try await ProgressOnATerminalTests.runOnATerminal(
            ["export", "--json", "--library", bucket.address, "--album", "smart:all", "--original", "--out", scratch.appendingPathComponent("out").path],
            scratch: scratch, environment: bucket.environment)
        #expect(run.status == 0, "\(run.terminal)")
        let bars = run.terminal.components(separatedBy: "\r").filter { $0.hasPrefix("Exporting ") }
        #expect(bars.contains { $0.contains("goexif__sample1.jpg ") && $0.contains(" fetched") }, "\(bars)")
        #expect(bars.last?.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(" 4/4") == true, "\(bars.suffix(2))")
        #expect(try JSONSerialization.jsonObject(with: run.stdout) is [String: Any], "stdout is one JSON document")
    }

    @Test("one line each: a bucket never indexed, --backend folder on a bucket, wrong keys (not printed), an endpoint that is down")
    func refusals() async throws {
        let bucket = try await Bucket("refusals")
        let never = try await bucket.run(["albums", "--library", bucket.address])
        #expect(never.status != 0 && never.stderrLines == ["Error: \(bucket.address) has not been indexed here yet: run `assets-picker index \(bucket.address)` first"],
                "\(never)")
        try #require(try await bucket.run(["index", bucket.address]).status == 0)
        let folder = try await bucket.run(["albums", "--library", bucket.address, "--backend", "folder"])
        #expect(folder.status != 0 && folder.stderrLines.count == 1 && folder.stderrText.contains("a bucket is always indexed"), "\(folder)")

        let authenticating = try await MotoServer.authenticating()
        let denied = try await CLI.run(["index", "s3://\(bucket.name)/photos", "--endpoint-url", authenticating.endpoint.absoluteString],
                                       environment: ["AWS_ACCESS_KEY_ID": "AKIAWRONGKEY00000000", "AWS_SECRET_ACCESS_KEY": "secret-never-shown",
                                                     "AWS_REGION": "us-east-1"])
        #expect(denied.status != 0 && denied.stderrLines.count == 1, "\(denied)")
        #expect(denied.stderrText.contains("credentials were refused") && !denied.stderrText.contains("secret-never-shown"), "\(denied)")

        let down = try await bucket.run(["index", bucket.address, "--endpoint-url", "http://127.0.0.1:1"])
        #expect(down.status != 0 && down.stderrLines.count == 1 && down.stderrText.contains("unreachable"), "\(down)")
        // Browsing needs no network: the index of that endpoint's bucket is another one, never made.
        let browse = try await bucket.run(["albums", "--library", bucket.address])
        #expect(browse.status == 0, "\(browse)")
    }
}
