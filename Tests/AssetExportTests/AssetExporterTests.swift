import AssetExport
import AssetsKit
import FolderLibrary
import Foundation
import ImagePipeline
import LibraryTree
import Synchronization
import Testing
import TestSupport

@Suite("Export: one at a time per core, each failure reported, the rest exported")
struct AssetExporterTests {
    let library = FolderLibrary(root: Corpus.root)

    func album(_ title: String) async throws -> CollectionIdentifier {
        try #require(try await library.collections().first { $0.title == title }).id
    }

    func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
    }

    @Test("resized renditions are written with the assets' names at the asked size")
    func resized() async throws {
        let out = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let assets = try await library.assets(in: try await album("A_camera_exif"), options: FetchOptions())
        let progress = ProgressLog()
        let report = try await AssetExporter(library: library).export(
            assets, to: out, options: ExportOptions(size: PixelSize(width: 100, height: 100), contentMode: .fill, format: .webp)
        ) { progress.record($0) }
        #expect(report.failed.isEmpty)
        #expect(report.exported.count == 15)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        #expect(names.contains("jhead__sony.webp") && names.count == 15)
        let sizes = Dictionary(uniqueKeysWithValues: try await assets.assets(in: 0..<15).map { ($0.id.description, $0.pixelSize) })
        for item in report.exported {
            let original = try #require(sizes[item.id])
            #expect(item.pixelWidth == min(100, original.width) && item.pixelHeight == min(100, original.height)) // never enlarged
            let data = try Data(contentsOf: URL(fileURLWithPath: item.file))
            #expect(String(decoding: data[8..<12], as: UTF8.self) == "WEBP")
            #expect(Int64(data.count) == item.byteSize)
        }
        #expect(progress.last?.completed == 15)
        #expect(report.originalBytes == (try await assets.assets(in: 0..<15)).reduce(0) { $0 + $1.byteSize })
    }

    @Test("one export thread for many assets: each exported once, under its own name, progress counting up to all")
    func oneThread() async throws {
        let out = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let assets = try await library.assets(in: try await album("A_camera_exif"), options: FetchOptions())
        let progress = ProgressLog()
        let report = try await AssetExporter(library: library).export(
            assets, to: out, options: ExportOptions(size: PixelSize(width: 48, height: 48), concurrency: 1)) { progress.record($0) }
        #expect(report.failed.isEmpty)
        #expect(Set(report.exported.map(\.id)).count == assets.count)
        #expect(Set(report.exported.map(\.file)).count == assets.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).count == assets.count)
        #expect(progress.all.map(\.completed) == Array(1...assets.count))
        for item in report.exported {
            #expect(Int64(try Data(contentsOf: URL(fileURLWithPath: item.file)).count) == item.byteSize)
        }
    }

    @Test("an export cancelled before it starts writes nothing")
    func cancelled() async throws {
        let out = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let assets = try await library.assets(in: try await album("A_camera_exif"), options: FetchOptions())
        let exporter = AssetExporter(library: library)
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await exporter.export(assets, to: out, options: ExportOptions(size: PixelSize(width: 48, height: 48)))
        }.result
        if case .success(let report) = outcome {
            #expect(report.exported.isEmpty)
            #expect(report.failed.allSatisfy { $0.reason == "cancelled" })
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: out.path))?.isEmpty ?? true)
    }

    @Test("an asset that fails is reported with its reason and the others are exported")
    func failuresReported() async throws {
        let out = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let assets = try await library.assets(in: try await album("D_hostile"), options: FetchOptions())
        let report = try await AssetExporter(library: library).export(assets, to: out, options: ExportOptions(size: PixelSize(width: 64, height: 64)))
        #expect(report.exported.count + report.failed.count == assets.count)
        let failedNames = report.failed.map(\.reason)
        #expect(failedNames.contains { $0.contains("pillow__truncated_jpeg.jpg") })
        #expect(report.exported.count >= 8)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no partial files left behind")
    }

    @Test("originals are copied byte for byte; a second export does not overwrite the first")
    func originals() async throws {
        let out = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let lookup = try await library.assets(in: try await album("E_formats"), options: FetchOptions(mediaFilter: .video))
        for _ in 0..<2 {
            let report = try await AssetExporter(library: library).export(lookup, to: out, options: ExportOptions(original: true))
            #expect(report.failed.isEmpty)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names.contains("puremagic__test.mp4") && names.contains("puremagic__test (2).mp4"))
        #expect(try Data(contentsOf: out.appendingPathComponent("puremagic__test.mp4")) == Data(contentsOf: Corpus.file("E_formats/puremagic__test.mp4")))
    }

    @Test("a 255-byte file name is exported, as a copy and as a rendition, with no temporary file left")
    func longestName() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent("library"), out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let name = String(repeating: "n", count: 251) + ".jpg"
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__has-lens-info.jpg"), to: root.appendingPathComponent(name))
        let library = FolderLibrary(root: root)
        let assets = try await library.assets(in: try await library.cameraRoll().id, options: FetchOptions())
        let original = try await AssetExporter(library: library).export(assets, to: out.appendingPathComponent("copies"),
                                                                         options: ExportOptions(original: true))
        let rendition = try await AssetExporter(library: library).export(assets, to: out.appendingPathComponent("renditions"),
                                                                          options: ExportOptions(size: PixelSize(width: 32, height: 32)))
        #expect(original.failed.isEmpty && rendition.failed.isEmpty, "\(original.failed + rendition.failed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("copies").path) == [name])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("renditions").path) == [name])
    }

    @Test("full-resolution export is upright")
    func fullResolution() async throws {
        let out = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let photo = try #require(try await library.assets(withIdentifiers: [
            .local(LocalIdentifier(uuid: AssetUUID.forFile(atRelativePath: "A_camera_exif/goexif__has-lens-info.jpg"))),
        ]).found.first)
        let report = try await AssetExporter(library: library).export(FetchResult(assets: [photo]), to: out, options: ExportOptions())
        #expect(report.exported.first?.pixelWidth == 102)
        #expect(report.exported.first?.pixelHeight == 205)
    }
}

/// The progress reports an export made.
final class ProgressLog: Sendable {
    private let reports = Mutex<[ExportProgress]>([])
    func record(_ progress: ExportProgress) { reports.withLock { $0.append(progress) } }
    var last: ExportProgress? { reports.withLock { $0.last } }
    var all: [ExportProgress] { reports.withLock { $0 } }
}
