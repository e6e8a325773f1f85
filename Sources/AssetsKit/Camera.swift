/// The device that made a photo, as its EXIF names it.
public struct Camera: Sendable, Hashable, Codable {
    public var make: String?
    public var model: String?

    public init(make: String?, model: String?) {
        self.make = make
        self.model = model
    }
}
