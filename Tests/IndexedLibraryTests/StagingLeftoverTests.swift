import Foundation
@testable import IndexedLibrary
import Testing
import TestSupport

@Suite("Staging files an interrupted import left behind")
struct StagingLeftoverTests {
    @Test("a scan never indexes Imports/.import-* files, and removes those untouched for over an hour (files only)", arguments: IndexEngine.allCases)
    func leftoversAreIgnoredThenRemoved(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let imports = fixture.tree.url("Imports")
        try FileManager.default.createDirectory(at: imports, withIntermediateDirectories: true)
        let photo = try Data(contentsOf: Corpus.file("A_camera_exif/jhead__sony.jpg"))
        let old = imports.appendingPathComponent(".import-\(UUID().uuidString).jpg")
        let fresh = imports.appendingPathComponent(".import-\(UUID().uuidString).jpg")
        let oldFolder = imports.appendingPathComponent(".import-folder")
        let otherHidden = imports.appendingPathComponent(".keep.jpg")
        for file in [old, fresh, otherHidden] { try photo.write(to: file) }
        try FileManager.default.createDirectory(at: oldFolder, withIntermediateDirectories: true)
        let twoHoursAgo = Date().addingTimeInterval(-7_200)
        for item in [old, oldFolder, otherHidden] {
            try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: item.path)
        }

        let summary = try await fixture.library.scan()

        #expect(summary.added == 0)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        #expect(FileManager.default.fileExists(atPath: oldFolder.path))
        #expect(FileManager.default.fileExists(atPath: otherHidden.path))
        let hiddenRows = try await fixture.library.integer("SELECT COUNT(*) FROM asset WHERE relativePath LIKE '%/.%'")
        #expect(hiddenRows == 0)
    }
}
