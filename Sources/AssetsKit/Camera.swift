/// The device that made a photo, as its EXIF names it.
public struct Camera: Sendable, Hashable, Codable {
    /// The camera's maker, as EXIF's Make gives it.
    public var make: String?
    /// The camera's model, as EXIF's Model gives it.
    public var model: String?

    /// A camera by its make and model.
    public init(make: String?, model: String?) {
        self.make = make
        self.model = model
    }
}
