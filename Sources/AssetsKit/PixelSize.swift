/// A size in pixels. For assets it is always the upright size (EXIF orientation or video
/// rotation applied), so a portrait photo is taller than wide.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size of `width` by `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size with width and height exchanged, as a quarter turn makes it.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// The number of pixels.
    public var area: Int { width.multipliedReportingOverflow(by: height).overflow ? .max : width * height }

    /// Whether both sides are positive.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The largest size with this aspect ratio that fits inside `bounds`, never larger than self.
    public func fitting(in bounds: PixelSize) -> PixelSize {
        guard !isEmpty, !bounds.isEmpty else { return PixelSize(width: 0, height: 0) }
        let scale = min(1, min(Double(bounds.width) / Double(width), Double(bounds.height) / Double(height)))
        return PixelSize(width: max(1, Int((Double(width) * scale).rounded())),
                         height: max(1, Int((Double(height) * scale).rounded())))
    }

    /// The smallest size with this aspect ratio that covers `bounds`, never larger than self.
    public func covering(_ bounds: PixelSize) -> PixelSize {
        guard !isEmpty, !bounds.isEmpty else { return PixelSize(width: 0, height: 0) }
        let scale = min(1, max(Double(bounds.width) / Double(width), Double(bounds.height) / Double(height)))
        return PixelSize(width: max(1, Int((Double(width) * scale).rounded(.up))),
                         height: max(1, Int((Double(height) * scale).rounded(.up))))
    }

    /// Parses `"WxH"`, e.g. `"256x256"`.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              width > 0, height > 0 else { return nil }
        self.init(width: width, height: height)
    }

    /// The size as `WIDTHxHEIGHT`, e.g. `4032x3024`.
    public var description: String { "\(width)x\(height)" }
}
