import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

extension AssetRecord {
    /// The columns of `asset` after `id`, in the table's order (as `SELECT asset.*` gives them).
    static let valueColumns = """
        uuid, relativePath, directoryId, filename, mediaType, pixelWidth, pixelHeight, creationDate, timeZoneOffset, \
        creationDateSource, modificationTime, byteSize, duration, orientation, latitude, longitude, altitude, make, model, \
        format, hasEmbeddedThumbnail, fingerprint, isFavorite, isHidden, deletedAt, addedAt, isImported, framesPerSecond
        """

    /// The row's values for ``valueColumns``, in that order, bound to `$first`, `$first + 1`, ….
    func bind(into bindings: inout PostgresBindings) {
        bindings.append(uuid)
        bindings.append(relativePath)
        bindings.append(directoryId)
        bindings.append(filename)
        bindings.append(mediaType)
        bindings.append(pixelWidth)
        bindings.append(pixelHeight)
        bindings.append(creationDate)
        bindings.append(timeZoneOffset)
        bindings.append(creationDateSource.rawValue)
        bindings.append(modificationTime)
        bindings.append(byteSize)
        bindings.append(duration)
        bindings.append(orientation)
        bindings.append(latitude)
        bindings.append(longitude)
        bindings.append(altitude)
        bindings.append(make)
        bindings.append(model)
        bindings.append(format)
        bindings.append(hasEmbeddedThumbnail)
        bindings.append(fingerprint)
        bindings.append(isFavorite)
        bindings.append(isHidden)
        bindings.append(deletedAt)
        bindings.append(addedAt)
        bindings.append(isImported)
        bindings.append(framesPerSecond)
    }

    /// `$first, $first + 1, …` for ``valueColumns``.
    static func placeholders(from first: Int) -> String {
        (first..<first + columnCount - 1).map { "$\($0)" }.joined(separator: ", ")
    }

    /// Decodes the first ``columnCount`` columns of a row of `SELECT asset.*`, by position.
    init(postgresRow row: PostgresRow) throws {
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ index: Int, _ type: T.Type = T.self) throws -> T { try cells[index].decode(T.self) }
        let source: String = try value(10)
        guard let creationDateSource = CreationDateSource(rawValue: source) else {
            throw PostgresDecodingError.Code.failure
        }
        self.init(
            rowID: try value(0), uuid: try value(1), relativePath: try value(2), directoryId: try value(3), filename: try value(4),
            mediaType: try value(5), pixelWidth: try value(6), pixelHeight: try value(7), creationDate: try value(8),
            timeZoneOffset: try value(9), creationDateSource: creationDateSource, modificationTime: try value(11),
            byteSize: try value(12), duration: try value(13), orientation: try value(14), latitude: try value(15),
            longitude: try value(16), altitude: try value(17), make: try value(18), model: try value(19), format: try value(20),
            hasEmbeddedThumbnail: try value(21), fingerprint: try value(22), isFavorite: try value(23), isHidden: try value(24),
            deletedAt: try value(25), addedAt: try value(26), isImported: try value(27), framesPerSecond: try value(28))
    }

    /// Inserts the row; its `id` is set to the one the database gave it.
    mutating func insert(_ session: PostgresSession) async throws {
        var bindings = PostgresBindings()
        bind(into: &bindings)
        id = try await session.value(PostgresQuery(unsafeSQL: """
            INSERT INTO asset (\(Self.valueColumns)) VALUES (\(Self.placeholders(from: 1))) RETURNING id
            """, binds: bindings), as: Int64.self)
    }

    /// Writes every column of the row (by `id`).
    func update(_ session: PostgresSession) async throws {
        var bindings = PostgresBindings()
        bindings.append(id)
        bind(into: &bindings)
        try await session.execute(PostgresQuery(unsafeSQL: """
            UPDATE asset SET (\(Self.valueColumns)) = ROW(\(Self.placeholders(from: 2))) WHERE id = $1
            """, binds: bindings))
    }
}

extension PostgresSession {
    /// The asset rows of a statement selecting `asset.*` (and maybe more columns after).
    func assetRecords(_ query: PostgresQuery) async throws -> [AssetRecord] {
        try await rows(query).map(AssetRecord.init(postgresRow:))
    }
}
