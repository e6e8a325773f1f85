import AssetsKit
import Foundation
@testable import IndexedLibrary
import LibraryTree
import Synchronization
import Testing

@Suite("Incremental rescans")
struct RescanTests {
    /// A small tree: three photos in two folders and a video.
    /// The tree's files, by the corpus file each is a copy of.
    static let treeFiles = [
        "2019/sony.jpg": "A_camera_exif/jhead__sony.jpg", "2019/sample.jpg": "A_camera_exif/goexif__sample1.jpg",
        "2020/olympus.jpg": "A_camera_exif/jhead__olympus.jpg", "2020/clip.mp4": "E_formats/puremagic__test.mp4",
    ]

    static func makeTree(engine: IndexEngine = .sqlite) throws -> TemporaryTree {
        let tree = try TemporaryTree(engine: engine)
        for (path, corpusFile) in treeFiles { try tree.copy(corpusFile, to: path) }
        return tree
    }

    /// The path in ``makeTree(engine:)``'s tree of the file named `filename`.
    static func path(of filename: String) -> String {
        treeFiles.keys.first { ($0 as NSString).lastPathComponent == filename } ?? filename
    }

    func allAssets(_ library: IndexedLibrary) async throws -> [Asset] {
        try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions()))
    }

    @Test("unchanged files are not read again; a modified one is, and keeps its identifier", arguments: IndexEngine.allCases)
    func modified(_ engine: IndexEngine) async throws {
        let tree = try Self.makeTree(engine: engine)
        defer { tree.remove() }
        let reader = CountingReader()
        let library = try await tree.openLibrary(reader: reader)
        let first = try await library.scan()
        #expect(first.added == 4 && first.metadataReads == 4 && reader.readPaths.count == 4)
        let before = try #require(try await allAssets(library).first { $0.filename == "sony.jpg" })

        reader.reset()
        let unchanged = try await library.scan()
        #expect(reader.readPaths.isEmpty)
        #expect(unchanged.scanned == 4 && unchanged.metadataReads == 0 && unchanged.updated == 0)

        try FileManager.default.removeItem(at: tree.url("2019/sony.jpg"))
        try FileManager.default.copyItem(at: tree.url("2020/olympus.jpg"), to: tree.url("2019/sony.jpg"))
        let changed = try await library.scan()
        #expect(reader.readPaths == ["sony.jpg"])
        #expect(changed.updated == 1 && changed.added == 0 && changed.removed == 0 && changed.moved == 0)
        let after = try #require(try await allAssets(library).first { $0.filename == "sony.jpg" })
        #expect(after.id == before.id)
        #expect(after.byteSize != before.byteSize)
        #expect(after.camera != before.camera)
    }

    @Test("a video's frame rate comes from the scan's one read; a video indexed before rates were kept is read once more", arguments: IndexEngine.allCases)
    func videoFrameRate(_ engine: IndexEngine) async throws {
        let tree = try Self.makeTree(engine: engine)
        defer { tree.remove() }
        let reader = CountingReader()
        let library = try await tree.openLibrary(reader: reader)
        try await library.scan()
        let clip = try #require(try await allAssets(library).first { $0.filename == "clip.mp4" })
        #expect(clip.framesPerSecond == 29.97)
        #expect(try await allAssets(library).filter { $0.mediaType == .photo }.allSatisfy { $0.framesPerSecond == nil })

        // As an index of schema v4 left it after the migration to v5.
        try await library.executeSQL("UPDATE asset SET framesPerSecond = NULL")
        reader.reset()
        let upgraded = try await library.scan()
        #expect(reader.readPaths == ["clip.mp4"])
        #expect(upgraded.updated == 1 && upgraded.added == 0 && upgraded.removed == 0)
        let reread = try #require(try await allAssets(library).first { $0.filename == "clip.mp4" })
        #expect(reread.id == clip.id && reread.framesPerSecond == 29.97 && reread.modificationDate == clip.modificationDate)

        reader.reset()
        try await library.scan()
        #expect(reader.readPaths.isEmpty)
    }

    @Test("a removed file disappears from the library and its folder; a removed folder is no collection", arguments: IndexEngine.allCases)
    func removed(_ engine: IndexEngine) async throws {
        let tree = try Self.makeTree(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        try await library.scan()
        let token = ChangeToken(Int64(try await library.integer("SELECT MAX(token) FROM change") ?? 0))
        let gone = try #require(try await allAssets(library).first { $0.filename == "olympus.jpg" })
        try FileManager.default.removeItem(at: tree.url("2020/olympus.jpg"))
        try FileManager.default.removeItem(at: tree.url("2019"))
        let summary = try await library.scan()
        #expect(summary.removed == 3)
        #expect(try await allAssets(library).map(\.filename) == ["clip.mp4"])
        #expect(try await library.assets(withIdentifiers: [gone.id]).missing == [gone.id])
        #expect(try await library.collections().filter { $0.kind == .directory }.map(\.title) == ["2020"])
        let change = try await library.changes(since: token)
        #expect(change.removedAssets.contains(gone.id))
        #expect(change.removedAssets.count == 3)
    }

    @Test("every folder is an album, empty or not, from the scan that finds it to the one that finds it gone; the root only while it holds media", arguments: IndexEngine.allCases)
    func folderAlbums(_ engine: IndexEngine) async throws {
        let tree = try Self.makeTree(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        func folders() async throws -> [String: Int] {
            var counts: [String: Int] = [:]
            for collection in try await library.collections() where collection.kind == .directory {
                counts[collection.title] = collection.estimatedAssetCount
            }
            return counts
        }
        func latestToken() async throws -> ChangeToken {
            ChangeToken(Int64(try await library.integer("SELECT MAX(token) FROM change") ?? 0))
        }
        try FileManager.default.createDirectory(at: tree.url("2021/empty"), withIntermediateDirectories: true)
        try tree.copy("A_camera_exif/jhead__hp.jpg", to: "hp.jpg")
        try await library.scan()
        #expect(try await folders() == ["2019": 2, "2020": 2, "2021": 0, "empty": 0, "library": 1])
        let token = try await latestToken()

        for file in ["2019/sony.jpg", "2019/sample.jpg", "hp.jpg"] { try FileManager.default.removeItem(at: tree.url(file)) }
        try FileManager.default.removeItem(at: tree.url("2021/empty"))
        try await library.scan()
        #expect(try await folders() == ["2019": 0, "2020": 2, "2021": 0])
        let gone = AssetUUID.forDirectory(atRelativePath: "2021/empty")
        #expect(try await library.changes(since: token).collections[CollectionID.directory(gone)]?.collectionChanged == true)
        let settled = try await latestToken()
        try await library.scan()
        #expect(try await latestToken() == settled, "a rescan that finds nothing new records nothing")
    }

    @Test("a moved file keeps its row and UUID; its new path is used from then on", arguments: IndexEngine.allCases)
    func moved(_ engine: IndexEngine) async throws {
        let tree = try Self.makeTree(engine: engine)
        defer { tree.remove() }
        let reader = CountingReader()
        let library = try await tree.openLibrary(reader: reader)
        try await library.scan()
        let before = try #require(try await allAssets(library).first { $0.filename == "sample.jpg" })
        #expect(before.id.uuid == AssetUUID.forFile(atRelativePath: "2019/sample.jpg"))

        try FileManager.default.createDirectory(at: tree.url("Trips/Beijing"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: tree.url("2019/sample.jpg"), to: tree.url("Trips/Beijing/renamed.jpg"))
        reader.reset()
        let summary = try await library.scan()
        #expect(summary.moved == 1 && summary.added == 0 && summary.removed == 0)
        #expect(reader.readPaths.isEmpty)
        let after = try #require(try await allAssets(library).first { $0.id == before.id })
        #expect(after.filename == "renamed.jpg")
        #expect(try await library.originalFile(for: after).file.resolvedPath == tree.url("Trips/Beijing/renamed.jpg").resolvingSymlinksInPath().path)
        #expect(try await library.assets(withIdentifiers: [.legacy(LegacyAssetURL(uuid: before.id.uuid, fileExtension: "JPG"))]).found.count == 1)
        let beijing = try #require(try await library.collections().first { $0.title == "Beijing" })
        #expect(try await library.assetCount(in: beijing.id, filter: .all) == 1)
    }

    @Test("a copy of a file that is still in place is a new asset, not a move", arguments: IndexEngine.allCases)
    func copyIsNotMove(_ engine: IndexEngine) async throws {
        let tree = try Self.makeTree(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        try await library.scan()
        try FileManager.default.copyItem(at: tree.url("2019/sony.jpg"), to: tree.url("2020/sony copy.jpg"))
        let summary = try await library.scan()
        #expect(summary.added == 1 && summary.moved == 0)
        #expect(try await allAssets(library).count == 5)
    }

    @Test("a file that fails is recorded and not read again until it changes; then it is indexed", arguments: IndexEngine.allCases)
    func failureThenFixed(_ engine: IndexEngine) async throws {
        let tree = try Self.makeTree(engine: engine)
        defer { tree.remove() }
        try tree.copy("D_hostile/jhead__poc2.jpg", to: "2019/broken.jpg")
        let reader = CountingReader()
        let library = try await tree.openLibrary(reader: reader)
        let first = try await library.scan()
        #expect(first.added == 4)
        #expect(first.failed.map(\.path) == ["2019/broken.jpg"])
        reader.reset()
        let again = try await library.scan()
        #expect(reader.readPaths.isEmpty)
        #expect(again.failed.map(\.path) == ["2019/broken.jpg"])

        try FileManager.default.removeItem(at: tree.url("2019/broken.jpg"))
        try tree.copy("B_orientation/goexif__f1-exif.jpg", to: "2019/broken.jpg")
        let fixed = try await library.scan()
        #expect(reader.readPaths == ["broken.jpg"])
        #expect(fixed.added == 1 && fixed.failed.isEmpty)
        let failures = try await library.integer("SELECT COUNT(*) FROM scan_failure")
        #expect(failures == 0)
    }

    @Test("progress reaches every file found", arguments: IndexEngine.allCases)
    func progress(_ engine: IndexEngine) async throws {
        let tree = try Self.makeTree(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        let reports = ProgressLog()
        try await library.scan { reports.append($0) }
        #expect(reports.last == ScanProgress(discovered: 4, processed: 4))
        #expect(reports.all.map(\.processed) == reports.all.map(\.processed).sorted())
    }
}

/// Progress reports, in the order they came.
final class ProgressLog: Sendable {
    private let reports = Mutex<[ScanProgress]>([])
    func append(_ progress: ScanProgress) { reports.withLock { $0.append(progress) } }
    var all: [ScanProgress] { reports.withLock { $0 } }
    var last: ScanProgress? { all.last }
}
