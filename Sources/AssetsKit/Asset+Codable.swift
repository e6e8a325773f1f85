import Foundation

/// The JSON form every tool of the project uses for an asset: flat, camelCase keys, dates in
/// ISO 8601 (with the recorded offset when there is one, else UTC), optional keys left out.
extension Asset: Codable {
    enum CodingKeys: String, CodingKey {
        case id, filename, mediaType, pixelWidth, pixelHeight, creationDate, timeZoneOffset
        case creationDateSource, modificationDate, byteSize, duration, framesPerSecond, orientation, location
        case camera, format, hasEmbeddedThumbnail, isFavorite, isHidden
    }

    /// Decodes an asset from its JSON form.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(AssetIdentifier.self, forKey: .id),
            filename: try c.decode(String.self, forKey: .filename),
            mediaType: try c.decode(MediaType.self, forKey: .mediaType),
            pixelSize: PixelSize(width: try c.decode(Int.self, forKey: .pixelWidth),
                                 height: try c.decode(Int.self, forKey: .pixelHeight)),
            creationDate: try Self.decodeDate(c, .creationDate),
            timeZoneOffset: try c.decodeIfPresent(Int.self, forKey: .timeZoneOffset),
            creationDateSource: try c.decode(CreationDateSource.self, forKey: .creationDateSource),
            modificationDate: try Self.decodeDate(c, .modificationDate),
            byteSize: try c.decode(Int64.self, forKey: .byteSize),
            duration: try c.decodeIfPresent(Double.self, forKey: .duration),
            framesPerSecond: try c.decodeIfPresent(Double.self, forKey: .framesPerSecond),
            orientation: try c.decodeIfPresent(Int.self, forKey: .orientation) ?? 1,
            location: try c.decodeIfPresent(GeoLocation.self, forKey: .location),
            camera: try c.decodeIfPresent(Camera.self, forKey: .camera),
            format: try c.decode(String.self, forKey: .format),
            hasEmbeddedThumbnail: try c.decodeIfPresent(Bool.self, forKey: .hasEmbeddedThumbnail) ?? false,
            isFavorite: try c.decodeIfPresent(Bool.self, forKey: .isFavorite) ?? false,
            isHidden: try c.decodeIfPresent(Bool.self, forKey: .isHidden) ?? false
        )
    }

    /// Encodes the asset in its JSON form.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(filename, forKey: .filename)
        try c.encode(mediaType, forKey: .mediaType)
        try c.encode(pixelSize.width, forKey: .pixelWidth)
        try c.encode(pixelSize.height, forKey: .pixelHeight)
        try c.encode(ISO8601.string(from: creationDate, offset: timeZoneOffset), forKey: .creationDate)
        try c.encodeIfPresent(timeZoneOffset, forKey: .timeZoneOffset)
        try c.encode(creationDateSource, forKey: .creationDateSource)
        try c.encode(ISO8601.string(from: modificationDate, offset: nil), forKey: .modificationDate)
        try c.encode(byteSize, forKey: .byteSize)
        try c.encodeIfPresent(duration, forKey: .duration)
        try c.encodeIfPresent(framesPerSecond, forKey: .framesPerSecond)
        try c.encode(orientation, forKey: .orientation)
        try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(camera, forKey: .camera)
        try c.encode(format, forKey: .format)
        try c.encode(hasEmbeddedThumbnail, forKey: .hasEmbeddedThumbnail)
        try c.encode(isFavorite, forKey: .isFavorite)
        try c.encode(isHidden, forKey: .isHidden)
    }

    private static func decodeDate(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date {
        let text = try c.decode(String.self, forKey: key)
        guard let date = ISO8601.date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not an ISO 8601 date: \(text)")
        }
        return date
    }
}
