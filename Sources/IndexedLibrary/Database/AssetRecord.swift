import AssetsKit
import Foundation
import GRDB

/// A row of the `asset` table. Dates are unix seconds (REAL), so they sort and compare in SQL.
struct AssetRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "asset"

    var id: Int64?
    var uuid: UUID
    var relativePath: String
    var directoryId: Int64
    var filename: String
    var mediaType: Int
    var pixelWidth: Int
    var pixelHeight: Int
    var creationDate: Double
    var timeZoneOffset: Int?
    var creationDateSource: CreationDateSource
    /// Nanoseconds since 1970, exactly as `stat` gave it.
    var modificationTime: Int64
    var byteSize: Int64
    var duration: Double?
    var orientation: Int
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var make: String?
    var model: String?
    var format: String
    var hasEmbeddedThumbnail: Bool
    var fingerprint: String
    var isFavorite: Bool = false
    var isHidden: Bool = false
    var deletedAt: Double?
    var addedAt: Double
    var isImported: Bool = false

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The asset the row describes, named by its local identifier.
    var asset: Asset {
        Asset(
            id: .local(LocalIdentifier(uuid: uuid)), filename: filename,
            mediaType: MediaType(databaseCode: mediaType), pixelSize: PixelSize(width: pixelWidth, height: pixelHeight),
            creationDate: Date(timeIntervalSince1970: creationDate), timeZoneOffset: timeZoneOffset,
            creationDateSource: creationDateSource,
            modificationDate: Date(timeIntervalSince1970: Double(modificationTime) / 1e9), byteSize: byteSize,
            duration: duration, orientation: orientation,
            location: latitude.flatMap { latitude in longitude.map { GeoLocation(latitude: latitude, longitude: $0, altitude: altitude) } },
            camera: make != nil || model != nil ? Camera(make: make, model: model) : nil,
            format: format, hasEmbeddedThumbnail: hasEmbeddedThumbnail, isFavorite: isFavorite, isHidden: isHidden)
    }
}

extension MediaType {
    /// The compact code stored in the index (`0` photo, `1` video), part of its browse indexes.
    var databaseCode: Int {
        switch self {
        case .photo: 0
        case .video: 1
        }
    }

    init(databaseCode: Int) {
        self = databaseCode == 1 ? .video : .photo
    }
}
