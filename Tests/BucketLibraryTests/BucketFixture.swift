import AssetsKit
@testable import BucketLibrary
import Foundation
@testable import IndexedLibrary
import ProcessRunning
import S3Storage
import S3TestSupport
import TestSupport

/// A bucket on the tests' moto server holding chosen files, and indexed libraries over it and
/// over the same files in a folder of this machine: what the bucket tests share.
struct BucketFixture {
    let server: MotoServer
    let bucket: String
    /// The prefix the library is at (`""` or ending with `/`).
    let prefix: String
    /// A temporary folder for indexes, caches and local copies; removed by ``remove()``.
    let scratch: URL

    /// A new bucket (named for `purpose`, unique in the process) on the open server.
    static func make(_ purpose: String, prefix: String = "library/", server: MotoServer? = nil) async throws -> BucketFixture {
        let server = if let server { server } else { try await MotoServer.open() }
        let bucket = "bl-\(purpose)-\(UUID().uuidString.prefix(8).lowercased())"
        try await server.client().createBucket(bucket)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bucket-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return BucketFixture(server: server, bucket: bucket, prefix: prefix, scratch: scratch)
    }

    var location: S3Location { S3Location(bucket: bucket, prefix: prefix)! }
    var client: S3Client { server.client() }

    func remove() {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Puts `data` at `path` under the prefix; returns its entity tag.
    @discardableResult
    func put(_ data: Data, at path: String) async throws -> String {
        try await client.put(bucket: bucket, key: prefix + path, data: data, contentType: nil)
    }

    /// Puts a corpus file (e.g. `A_camera_exif/jhead__sony.jpg`) at `path` under the prefix.
    @discardableResult
    func put(corpus file: String, at path: String) async throws -> String {
        try await put(try Data(contentsOf: Corpus.file(file)), at: path)
    }

    /// Puts every file of `files` (path under the prefix → bytes), several at once.
    func put(_ files: [String: Data]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            for (path, data) in files {
                if started >= 16 { try await group.next() }
                group.addTask { try await put(data, at: path) }
                started += 1
            }
            try await group.waitForAll()
        }
    }

    func delete(_ path: String) async throws {
        try await client.delete(bucket: bucket, key: prefix + path)
    }

    /// The store over the bucket, read through `endpoint` (a proxy, a dead port) or the server,
    /// its cache in `name`'s folder of the scratch folder.
    func store(_ name: String = "library", endpoint: URL? = nil, credentials: S3Credentials? = nil,
               byteBudget: Int64 = BucketOriginalsStore.defaultByteBudget) -> BucketOriginalsStore {
        BucketOriginalsStore(location: location, client: server.client(credentials: credentials, endpoint: endpoint),
                             cacheFolder: BucketOriginalsStore.cacheFolder(besideIndexAt: indexURL(name)), byteBudget: byteBudget)
    }

    func indexURL(_ name: String) -> URL {
        scratch.appendingPathComponent(name, isDirectory: true).appendingPathComponent("library.sqlite")
    }

    /// An indexed library over `store`, its index in `name`'s folder (the same name reopens it).
    func library(_ store: BucketOriginalsStore, name: String = "library") throws -> IndexedLibrary {
        try IndexedLibrary(root: store.rootURL, databaseURL: indexURL(name), originals: store)
    }

    /// Copies of what the bucket holds under the prefix in a folder of this machine, each with
    /// its object's time of change as its modification time, and the indexed library over them.
    func localTwin() async throws -> IndexedLibrary {
        let folder = scratch.appendingPathComponent("twin", isDirectory: true)
        for try await page in client.objects(bucket: bucket, prefix: prefix, delimiter: nil) {
            for object in page.objects {
                let file = folder.appendingPathComponent(String(object.key.dropFirst(prefix.count)))
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try await client.download(bucket: bucket, key: object.key, eTag: nil, to: file, progress: nil)
                let nanoseconds = BucketListingWalk.nanoseconds(object.lastModified)
                let time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
                var times = [time, time]
                _ = utimensat(AT_FDCWD, file.path, &times, 0)
            }
        }
        return try IndexedLibrary(root: folder, databaseURL: scratch.appendingPathComponent("twin-index/library.sqlite"))
    }

    /// A short video made with ffmpeg, `seconds` long, its `moov` at the end (ffmpeg's default
    /// for MP4), larger than a head.
    static func video(seconds: Int = 2) async throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bucket-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("clip.mp4")
        let made = try await ToolRunner.fixture(.ffmpeg, arguments: [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=640x480:rate=25", "-t", "\(seconds)",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-metadata", "creation_time=2021-06-01T10:20:30Z", file.path,
        ])
        guard made.succeeded else { throw FixtureFailure(description: made.standardError) }
        return try Data(contentsOf: file)
    }

    /// A large JPEG of noise (megabytes: noise does not compress), `width`x`height`, with the EXIF
    /// segment of the corpus file `exifFrom` put after its start (its camera, date and place).
    static func largeJPEG(width: Int = 2400, height: Int = 1600, exifFrom: String? = nil) async throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bucket-jpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("large.jpg")
        let made = try await ToolRunner.fixture(.ffmpeg, arguments: [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "nullsrc=size=\(width)x\(height),geq=random(1)*255:128:128",
            "-frames:v", "1", "-q:v", "2", file.path,
        ])
        guard made.succeeded else { throw FixtureFailure(description: made.standardError) }
        var jpeg = try Data(contentsOf: file)
        if let exifFrom {
            let source = [UInt8](try Data(contentsOf: Corpus.file(exifFrom)))
            // The first APP1 segment of the source: FF E1, its length, its payload.
            guard let start = (2..<(source.count - 4)).first(where: { source[$0] == 0xFF && source[$0 + 1] == 0xE1 }) else {
                throw FixtureFailure(description: "\(exifFrom) has no APP1 segment")
            }
            let length = Int(source[start + 2]) << 8 | Int(source[start + 3])
            jpeg.insert(contentsOf: source[start..<(start + 2 + length)], at: 2)
        }
        return jpeg
    }

    struct FixtureFailure: Error, CustomStringConvertible {
        var description: String
    }
}

extension IndexedLibrary {
    /// Every asset of the camera roll, by file path relative to the root.
    func assetsByPath() async throws -> [String: Asset] {
        var found: [String: Asset] = [:]
        let all = try await assets(in: cameraRoll().id, options: FetchOptions())
        for try await asset in all {
            let record = try await index.records(uuids: [asset.id.uuid])[asset.id.uuid]!
            found[record.relativePath] = asset
        }
        return found
    }
}
