/// A position from the EXIF GPS IFD, in signed decimal degrees.
public struct ExifGPS: Sendable, Hashable {
    /// Degrees north of the equator; south is negative.
    public var latitude: Double
    /// Degrees east of Greenwich; west is negative.
    public var longitude: Double
    /// Metres above sea level; below sea level (GPSAltitudeRef 1) is negative. `nil` when not recorded.
    public var altitude: Double?

    /// A position from signed degrees and an optional signed altitude in metres.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Whether latitude and longitude are finite and within ±90° and ±180°.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && (altitude?.isFinite ?? true)
    }
}
