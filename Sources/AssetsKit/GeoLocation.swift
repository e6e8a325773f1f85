/// Where a photo or video was taken, in WGS 84 degrees (south and west negative).
public struct GeoLocation: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Metres above sea level, when recorded.
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}
