import AssetsKit
import Hummingbird

/// The rendition a request's query asks for: `w`, `h`, `mode=fit|fill`, `format=jpeg|webp`,
/// `quality=1…100` and, on the picker page, `delivery=fast|high`.
struct ImageQuery: Sendable, Hashable {
    /// The largest side a rendition may ask for (4096: a 4K screen's width). A larger request is
    /// refused with 400 before any decode: a rendition costs its pixels, and the original is
    /// there for anything bigger.
    static let maximumSide = 4_096

    var width: Int
    var height: Int
    var mode: ContentMode = .fit
    var format: ImageFormat = .jpeg
    var quality: Int = 80
    /// `fastFormat`: the quickest answer, maybe smaller; else the final image.
    var delivery: DeliveryMode = .highQualityFormat

    /// The query of `request`, checked.
    /// - Parameter allowsDelivery: Whether `delivery` may be given (the picker page's API).
    /// - Throws: ``APIError`` 400 naming the parameter and what it accepts.
    init(_ request: Request, allowsDelivery: Bool = false) throws(APIError) {
        let parameters = request.uri.queryParameters
        try self.init(allowsDelivery: allowsDelivery) { parameters.get($0) }
    }

    /// The query whose parameters `value` gives by name, checked as ``init(_:allowsDelivery:)``
    /// checks a request's.
    init(allowsDelivery: Bool = false, value: (String) -> String?) throws(APIError) {
        func integer(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = DecimalText.wholeNumber(text), range.contains(number) else {
                throw .badParameter("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound); got '\(text)'.")
            }
            return number
        }
        func choice<T>(_ name: String, _ names: [String], _ named: (String) -> T?) throws(APIError) -> T? {
            guard let text = value(name) else { return nil }
            guard let choice = named(text) else {
                throw .badParameter("'\(name)' must be one of \(names.joined(separator: ", ")); got '\(text)'.")
            }
            return choice
        }
        let sides = 1...Self.maximumSide
        guard let width = try integer("w", in: sides), let height = try integer("h", in: sides) else {
            throw .badParameter("Give the size as 'w' and 'h', whole numbers from 1 to \(Self.maximumSide).")
        }
        self.width = width
        self.height = height
        mode = try choice("mode", ["fill", "fit"], Self.mode) ?? .fit
        format = try choice("format", ["jpeg", "jpg", "webp"], Self.format) ?? .jpeg
        quality = try integer("quality", in: 1...100) ?? 80
        if allowsDelivery {
            delivery = try choice("delivery", ["fast", "high"], Self.delivery) ?? .highQualityFormat
        }
    }

    // Switches, not dictionaries: every thumbnail request reads these, and a switch hashes nothing.
    private static func mode(_ name: String) -> ContentMode? {
        switch name {
        case "fit": .fit
        case "fill": .fill
        default: nil
        }
    }

    private static func format(_ name: String) -> ImageFormat? {
        switch name {
        case "jpeg", "jpg": .jpeg
        case "webp": .webp
        default: nil
        }
    }

    private static func delivery(_ name: String) -> DeliveryMode? {
        switch name {
        case "fast": .fastFormat
        case "high": .highQualityFormat
        default: nil
        }
    }

    /// The image request this query makes.
    var request: ImageRequest {
        ImageRequest(targetSize: PixelSize(width: width, height: height), contentMode: mode, deliveryMode: delivery,
                     resizeMode: .exact, format: format, quality: quality)
    }
}
