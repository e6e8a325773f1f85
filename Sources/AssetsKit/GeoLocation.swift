/// Where a photo or video was taken, in WGS 84 signed decimal degrees (south and west
/// negative), as EXIF's GPS directory and a video's location record give it.
public struct GeoLocation: Sendable, Hashable, Codable {
    /// Degrees north of the equator; south is negative.
    public var latitude: Double
    /// Degrees east of Greenwich; west is negative.
    public var longitude: Double
    /// Metres above sea level; below sea level (EXIF GPSAltitudeRef 1) is negative. `nil` when
    /// not recorded.
    public var altitude: Double?

    /// A position from signed degrees and an optional signed altitude in metres.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Whether latitude and longitude are finite and within ±90° and ±180° (and the altitude,
    /// when there is one, is finite).
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && (altitude?.isFinite ?? true)
    }
}
