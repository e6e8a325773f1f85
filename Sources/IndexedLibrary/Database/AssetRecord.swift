import AssetsKit
import Foundation
import GRDB

/// A row of the `asset` table. Dates are unix seconds (REAL), so they sort and compare in SQL.
package struct AssetRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    package static let databaseTableName = "asset"

    package var id: Int64?
    package var uuid: UUID
    package var relativePath: String
    package var directoryId: Int64
    package var filename: String
    package var mediaType: Int
    package var pixelWidth: Int
    package var pixelHeight: Int
    package var creationDate: Double
    package var timeZoneOffset: Int?
    package var creationDateSource: CreationDateSource
    /// Nanoseconds since 1970, exactly as `stat` gave it.
    package var modificationTime: Int64
    package var byteSize: Int64
    package var duration: Double?
    package var orientation: Int
    package var latitude: Double?
    package var longitude: Double?
    package var altitude: Double?
    package var make: String?
    package var model: String?
    package var format: String
    package var hasEmbeddedThumbnail: Bool
    package var fingerprint: String
    package var isFavorite: Bool = false
    package var isHidden: Bool = false
    package var deletedAt: Double?
    package var addedAt: Double
    package var isImported: Bool = false
    /// A video's frames per second; 0 when its stream records none, `NULL` for a photo and for a
    /// video not read since schema version 5 (the next scan reads it again).
    package var framesPerSecond: Double?

    package mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// ``modificationTime`` as a date.
    package var modificationDate: Date {
        Date(timeIntervalSince1970: Double(modificationTime) / 1e9)
    }

    /// The asset the row describes, named by its local identifier.
    package var asset: Asset {
        Asset(
            id: .local(LocalIdentifier(uuid: uuid)), filename: filename,
            mediaType: MediaType(databaseCode: mediaType), pixelSize: PixelSize(width: pixelWidth, height: pixelHeight),
            creationDate: Date(timeIntervalSince1970: creationDate), timeZoneOffset: timeZoneOffset,
            creationDateSource: creationDateSource,
            modificationDate: modificationDate, byteSize: byteSize,
            duration: duration, framesPerSecond: framesPerSecond.flatMap { $0 > 0 ? $0 : nil }, orientation: orientation,
            location: latitude.flatMap { latitude in longitude.map { GeoLocation(latitude: latitude, longitude: $0, altitude: altitude) } },
            camera: make != nil || model != nil ? Camera(make: make, model: model) : nil,
            format: format, hasEmbeddedThumbnail: hasEmbeddedThumbnail, isFavorite: isFavorite, isHidden: isHidden)
    }
}

/// Decoding rows without Codable (a declared initializer in an extension keeps the memberwise one).
extension AssetRecord {
    /// The number of columns of `SELECT asset.*` (all read by ``init(row:)``); a statement may
    /// select more after them.
    package static let columnCount = 29

    /// A row with every column given: how a store in another target (PostgreSQL) builds the
    /// rows it reads.
    package init(rowID id: Int64?, uuid: UUID, relativePath: String, directoryId: Int64, filename: String, mediaType: Int,
                 pixelWidth: Int, pixelHeight: Int, creationDate: Double, timeZoneOffset: Int?, creationDateSource: CreationDateSource,
                 modificationTime: Int64, byteSize: Int64, duration: Double?, orientation: Int, latitude: Double?, longitude: Double?,
                 altitude: Double?, make: String?, model: String?, format: String, hasEmbeddedThumbnail: Bool, fingerprint: String,
                 isFavorite: Bool, isHidden: Bool, deletedAt: Double?, addedAt: Double, isImported: Bool, framesPerSecond: Double?) {
        self.id = id
        self.uuid = uuid
        self.relativePath = relativePath
        self.directoryId = directoryId
        self.filename = filename
        self.mediaType = mediaType
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.creationDate = creationDate
        self.timeZoneOffset = timeZoneOffset
        self.creationDateSource = creationDateSource
        self.modificationTime = modificationTime
        self.byteSize = byteSize
        self.duration = duration
        self.orientation = orientation
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.make = make
        self.model = model
        self.format = format
        self.hasEmbeddedThumbnail = hasEmbeddedThumbnail
        self.fingerprint = fingerprint
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.deletedAt = deletedAt
        self.addedAt = addedAt
        self.isImported = isImported
        self.framesPerSecond = framesPerSecond
    }

    /// Decodes a row of `SELECT asset.*` by column position, in the table's order (schema v1;
    /// later versions only ever add columns after these, and a test pins the order). GRDB's Codable
    /// decoding looks every column up by its lower-cased name: it took 92% of the CPU time of
    /// fetching a page of 60 (a perf profile of the index bench).
    package init(row: Row) throws {
        id = row[0]
        uuid = row[1]
        relativePath = row[2]
        directoryId = row[3]
        filename = row[4]
        mediaType = row[5]
        pixelWidth = row[6]
        pixelHeight = row[7]
        creationDate = row[8]
        timeZoneOffset = row[9]
        let source: String = row[10]
        guard let creationDateSource = CreationDateSource(rawValue: source) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "asset \(relativePath): unknown creationDateSource \(source)")
        }
        self.creationDateSource = creationDateSource
        modificationTime = row[11]
        byteSize = row[12]
        duration = row[13]
        orientation = row[14]
        latitude = row[15]
        longitude = row[16]
        altitude = row[17]
        make = row[18]
        model = row[19]
        format = row[20]
        hasEmbeddedThumbnail = row[21]
        fingerprint = row[22]
        isFavorite = row[23]
        isHidden = row[24]
        deletedAt = row[25]
        addedAt = row[26]
        isImported = row[27]
        framesPerSecond = row[28]
    }
}

extension MediaType {
    /// The compact code stored in the index (`0` photo, `1` video), part of its browse indexes.
    package var databaseCode: Int {
        switch self {
        case .photo: 0
        case .video: 1
        }
    }

    package init(databaseCode: Int) {
        self = databaseCode == 1 ? .video : .photo
    }
}
