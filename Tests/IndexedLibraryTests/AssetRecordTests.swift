import AssetsKit
import Foundation
import GRDB
@testable import IndexedLibrary
import Testing

@Suite("Asset rows decoded by column position")
struct AssetRecordTests {
    @Test("the asset table's columns are in the order AssetRecord(row:) reads them")
    func columnOrder() async throws {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let library = try IndexedLibrary(root: tree.root, databaseURL: tree.indexURL)
        let columns = try await library.database.pool.read { db in try db.columns(in: "asset").map(\.name) }
        let keyColumns = try await library.database.pool.read { db in try db.columns(in: "directory_key").map(\.name) }
        #expect(keyColumns == columns, "directory_key (schema v4) copies asset rows column for column")
        #expect(columns.count == AssetRecord.columnCount)
        #expect(columns == [
            "id", "uuid", "relativePath", "directoryId", "filename", "mediaType", "pixelWidth", "pixelHeight",
            "creationDate", "timeZoneOffset", "creationDateSource", "modificationTime", "byteSize", "duration",
            "orientation", "latitude", "longitude", "altitude", "make", "model", "format", "hasEmbeddedThumbnail",
            "fingerprint", "isFavorite", "isHidden", "deletedAt", "addedAt", "isImported",
            "framesPerSecond",   // schema v5
        ])
    }

    @Test("every field written comes back, optionals set and unset")
    func roundTrip() async throws {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let library = try IndexedLibrary(root: tree.root, databaseURL: tree.indexURL)
        let full = AssetRecord(
            uuid: UUID(), relativePath: "a/full.mov", directoryId: 0, filename: "full.mov", mediaType: 1,
            pixelWidth: 1920, pixelHeight: 1080, creationDate: 1_600_000_000.25, timeZoneOffset: 7_200,
            creationDateSource: .container, modificationTime: 1_600_000_001_123_456_789, byteSize: 12_345_678,
            duration: 12.5, orientation: 6, latitude: 48.5, longitude: -2.25, altitude: -3.5, make: "Make", model: "Model",
            format: "mov", hasEmbeddedThumbnail: true, fingerprint: "f:1", isFavorite: true, isHidden: true,
            deletedAt: 1_700_000_000, addedAt: 1_650_000_000, isImported: true, framesPerSecond: 29.97)
        var bare = full
        (bare.uuid, bare.relativePath, bare.timeZoneOffset, bare.duration, bare.latitude, bare.longitude, bare.altitude) =
            (UUID(), "a/bare.jpg", nil, nil, nil, nil, nil)
        (bare.make, bare.model, bare.deletedAt, bare.isFavorite, bare.isHidden, bare.isImported, bare.creationDateSource) =
            (nil, nil, nil, false, false, false, .fileModificationDate)
        (bare.mediaType, bare.framesPerSecond) = (0, nil)
        let written = [full, bare]
        let read = try await library.database.pool.write { db in
            let directoryId = try DirectoryRecord.id(forPath: "a", in: db)
            for var record in written {
                record.directoryId = directoryId
                try record.insert(db)
            }
            return try AssetRecord.fetchAll(db, sql: "SELECT asset.* FROM asset ORDER BY id")
        }
        try #require(read.count == 2)
        for (written, back) in zip(written, read) {
            #expect(back.asset == written.asset)
            #expect(back.id != nil)
            #expect(back.relativePath == written.relativePath)
            #expect(back.directoryId != 0)
            #expect(back.modificationTime == written.modificationTime)
            #expect(back.fingerprint == written.fingerprint)
            #expect(back.deletedAt == written.deletedAt)
            #expect(back.addedAt == written.addedAt)
            #expect(back.isImported == written.isImported)
        }
    }
}
