import AssetExport
import AssetsKit
import FolderLibrary
import Foundation
import IndexedLibrary
import Testing
import TestSupport

/// An export reads each original confined to its library, of the version the library knows
/// (issue 26): a file swapped after the assets were fetched is reported missing or changed, by
/// its file name, and nothing of a file outside the library is written.
@Suite("Export reads originals confined to the library")
struct ExportConfinementTests {
    enum Backend: String, CaseIterable, Sendable {
        case folder, indexed
    }

    /// A library in a new temporary folder: a photo and a link to it (inside the library) and,
    /// beside the library, a photo it does not hold.
    struct Fixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-confined-\(UUID().uuidString)")
        var root: URL { folder.appendingPathComponent("library") }
        var outside: URL { folder.appendingPathComponent("outside/secret.jpg") }
        var out: URL { folder.appendingPathComponent("out") }
        let photos = Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }.sorted { $0.path < $1.path }

        init() throws {
            let manager = FileManager.default
            try manager.createDirectory(at: root.appendingPathComponent("links"), withIntermediateDirectories: true)
            try manager.createDirectory(at: outside.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: photos[0], to: root.appendingPathComponent("photo.jpg"))
            try manager.createSymbolicLink(atPath: root.appendingPathComponent("links/linked.jpg").path, withDestinationPath: "../photo.jpg")
            try manager.copyItem(at: photos[1], to: outside)
        }

        func library(_ backend: Backend) async throws -> any PhotoLibrary {
            switch backend {
            case .folder:
                return FolderLibrary(root: root)
            case .indexed:
                let library = try IndexedLibrary(root: root, databaseURL: folder.appendingPathComponent("index/library.sqlite"))
                try await library.scan()
                return library
            }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("a swapped original is reported missing or changed by its name; nothing of the outside file is written",
          arguments: Backend.allCases, OriginalSwap.allCases)
    func swapped(backend: Backend, swap: OriginalSwap) async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let library = try await fixture.library(backend)
        let assets = try await library.assets(in: try await library.cameraRoll().id, options: FetchOptions(mediaFilter: .photo))
        let name = swap.swapsALink ? "linked.jpg" : "photo.jpg"
        let asset = try #require(try await assets.assets(in: 0..<assets.count).first { $0.filename == name })
        try swap.apply(to: fixture.root.appendingPathComponent(swap.swapsALink ? "links/linked.jpg" : "photo.jpg"),
                       outside: fixture.outside, other: try Data(contentsOf: fixture.photos[2]))
        let secret = try Data(contentsOf: fixture.outside)

        for options in [ExportOptions(original: true), ExportOptions(size: PixelSize(width: 64, height: 64))] {
            let report = try await AssetExporter(library: library).export(FetchResult(assets: [asset]), to: fixture.out, options: options)
            #expect(report.exported.isEmpty)
            let failure = try #require(report.failed.first)
            #expect(failure.reason.contains("\(name): the original is missing or changed"), "\(failure.reason)")
            #expect(!failure.reason.contains(fixture.folder.path))
        }
        for file in (try? FileManager.default.contentsOfDirectory(atPath: fixture.out.path)) ?? [] {
            #expect(try Data(contentsOf: fixture.out.appendingPathComponent(file)) != secret, "\(file)")
        }
    }

    @Test("a link that stays inside the library is exported as the file it leads to", arguments: Backend.allCases)
    func linkInside(backend: Backend) async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let library = try await fixture.library(backend)
        let assets = try await library.assets(in: try await library.cameraRoll().id, options: FetchOptions(mediaFilter: .photo))
        let linked = try #require(try await assets.assets(in: 0..<assets.count).first { $0.filename == "linked.jpg" })
        let report = try await AssetExporter(library: library).export(FetchResult(assets: [linked]), to: fixture.out,
                                                                      options: ExportOptions(original: true))
        #expect(report.failed.isEmpty)
        let exported = fixture.out.appendingPathComponent("linked.jpg")
        #expect(try Data(contentsOf: exported) == Data(contentsOf: fixture.photos[0]))
        #expect(try FileManager.default.attributesOfItem(atPath: exported.path)[.type] as? FileAttributeType == .typeRegular)
    }
}
