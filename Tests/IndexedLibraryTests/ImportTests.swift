import AssetsKit
import Foundation
@testable import IndexedLibrary
import LibraryTree
import Testing
import TestSupport

@Suite("Change requests: imports")
struct ImportTests {
    /// `YYYY/MM` of a date in a time zone, worked out here on its own.
    static func month(_ date: Date, offset: Int?) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = offset.flatMap(TimeZone.init(secondsFromGMT:)) ?? .current
        formatter.dateFormat = "yyyy/MM"
        return formatter.string(from: date)
    }

    @Test("importing a file copies it under Imports/YYYY/MM and returns a local identifier that resolves", arguments: IndexEngine.allCases)
    func importFile(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let source = Corpus.file("A_camera_exif/jhead__canon-300d.jpg")
        let before = try Data(contentsOf: source)
        let result = try await fixture.library.performChanges([.importFile(source)])
        #expect(result.insertedAssets.count == 1)
        let identifier = try #require(result.insertedAssets.first)
        guard case .local = identifier else { Issue.record("not a local identifier: \(identifier)"); return }
        let asset = try #require(try await fixture.library.assets(withIdentifiers: [identifier]).found.first)
        #expect(asset.creationDateSource == .exif)
        let original = try await fixture.library.originalFile(for: asset).file
        let expected = "Imports/\(Self.month(asset.creationDate, offset: asset.timeZoneOffset))/jhead__canon-300d.jpg"
        #expect(original.resolvedPath == fixture.tree.url(expected).resolvingSymlinksInPath().path)
        #expect(try withExtendedLifetime(original) { try Data(contentsOf: original.url) } == before)
        #expect(try Data(contentsOf: source) == before)
        #expect(identifier.uuid != AssetUUID.forFile(atRelativePath: expected))
        #expect(try await fixture.count(.all) == 5)
        #expect(try await fixture.count(.recentlyAdded) == 5)
        #expect(try await fixture.library.index.records(uuids: [identifier.uuid])[identifier.uuid]?.isImported == true)
        let month = Self.month(asset.creationDate, offset: asset.timeZoneOffset).split(separator: "/")
        let folders = ["Imports", "Imports / \(month[0])", "Imports / \(month[0]) / \(month[1])"]
        let listed = try await fixture.library.collections().filter { $0.kind == .directory }.map(\.title)
        #expect(Set(folders).isSubset(of: listed), "the import's folder and those above it are albums at once, as on disk")
        #expect(try await fixture.library.scan().added == 0)
    }

    @Test("importing bytes twice under one name gives two files, never overwriting; undated bytes go in the month of now", arguments: IndexEngine.allCases)
    func importData(_ engine: IndexEngine) async throws {
        let now = Date(timeIntervalSince1970: 1_626_350_400) // 2021-07-15T12:00:00Z
        let fixture = try await ChangeFixture(engine, now: { now })
        defer { fixture.remove() }
        let bytes = try Data(contentsOf: Corpus.files(in: "C_pngsuite") { $0.pathExtension == "png" }.first!)
        let album = try await fixture.library.performChanges([.createAlbum(title: "Saved")]).insertedCollections[0]
        let result = try await fixture.library.performChanges([
            .importData(bytes, filename: "shot.png", intoAlbum: album), .importData(bytes, filename: "shot.png"),
        ])
        #expect(result.insertedAssets.count == 2)
        let found = try await fixture.library.assets(withIdentifiers: result.insertedAssets).found
        #expect(found.map(\.id) == result.insertedAssets)
        let folder = "Imports/\(Self.month(now, offset: nil))"
        let imported = try fixture.files().filter { $0.hasPrefix("Imports/") }
        #expect(imported == ["\(folder)/shot.png", "\(folder)/shot 2.png"], "\(imported.sorted())")
        for asset in found {
            let original = try await fixture.library.originalFile(for: asset).file
            #expect(try withExtendedLifetime(original) { try Data(contentsOf: original.url) } == bytes)
        }
        #expect(try await fixture.filenames(in: album) == ["shot.png"])
    }

    @Test("a file that is not a readable photo is refused, naming it; nothing of the batch stays", arguments: IndexEngine.allCases)
    func unreadableRefused(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let token = try await fixture.token()
        let filesBefore = try fixture.files()
        let bogus = fixture.tree.url("notes/fake.jpg")
        try FileManager.default.createDirectory(at: bogus.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a jpeg at all".utf8).write(to: bogus)
        do {
            _ = try await fixture.library.performChanges([
                .createAlbum(title: "Never"), .importFile(Corpus.file("A_camera_exif/jhead__sony.jpg")), .importFile(bogus),
            ])
            Issue.record("an unreadable file was imported")
        } catch let error as LibraryError {
            guard case .invalidChange(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains(bogus.path))
        }
        #expect(try fixture.files() == filesBefore.union(["notes/fake.jpg"]))
        #expect(try await fixture.token() == token)
        #expect(try await fixture.library.collections().allSatisfy { $0.kind != .album })
        #expect(try await fixture.count(.all) == 4)
    }

    @Test("an invalid request rolls the whole batch back: no imported file or row, no album, no favourite", arguments: IndexEngine.allCases)
    func rollback(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let sony = try await fixture.asset("sony.jpg")
        let token = try await fixture.token()
        let unknown = AssetIdentifier.local(LocalIdentifier(uuid: UUID()))
        await #expect(throws: LibraryError.self) {
            try await fixture.library.performChanges([
                .importFile(Corpus.file("A_camera_exif/jhead__canon-300d.jpg")), .createAlbum(title: "Trip"),
                .setFavorite([sony.id], true), .setHidden([unknown], true),
            ])
        }
        await #expect(throws: LibraryError.invalidChange("no asset \(unknown) in this library")) {
            try await fixture.library.performChanges([.setHidden([unknown], true)])
        }
        #expect(try fixture.files().allSatisfy { !$0.hasPrefix("Imports/") })
        #expect(try await fixture.count(.all) == 4)
        #expect(try await fixture.count(.favorites) == 0)
        #expect(try await fixture.library.collections().allSatisfy { $0.kind != .album })
        #expect(try await fixture.token() == token)
    }
}

@Suite("Imports and scans at the same time")
struct ConcurrentImportTests {
    @Test("imports racing rescans leave one row per file, every row's file present, every import resolvable", arguments: IndexEngine.allCases)
    func importsDuringScans(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        var imported: [AssetIdentifier] = []
        for round in 0..<12 {
            let data = try Data(contentsOf: Corpus.file("A_camera_exif/jhead__sony.jpg"))
            async let scan: Void = { _ = try await fixture.library.scan() }()
            async let change = fixture.library.performChanges([.importData(data, filename: "race-\(round).jpg")])
            imported += try await change.insertedAssets
            try await scan
        }
        _ = try await fixture.library.scan()
        let all = try await collect(fixture.library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions()))
        let paths = try await fixture.library.index.records(uuids: all.map(\.id.uuid)).values.map(\.relativePath)
        #expect(try await fixture.library.integer("SELECT COUNT(*) FROM asset") == paths.count, "every asset listed")
        #expect(try await fixture.library.integer("SELECT COUNT(DISTINCT relativePath) FROM asset") == paths.count, "no path indexed twice")
        for path in paths { #expect(FileManager.default.fileExists(atPath: fixture.tree.url(path).path), "\(path) has its file") }
        let lookup = try await fixture.library.assets(withIdentifiers: imported)
        #expect(lookup.missing.isEmpty)
        #expect(lookup.found.count == 12)
        #expect(Set(lookup.found.map(\.filename)).count == 12)
    }
}
