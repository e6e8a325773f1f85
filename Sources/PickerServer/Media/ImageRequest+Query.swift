import AssetsKit
import Hummingbird

/// The image requests the server's routes make, typed from the wire: a rendition route's query
/// (`w`, `h`, `mode=fit|fill`, `format=jpeg|webp`, `quality=1…100` and, on the picker page,
/// `delivery=fast|high` and `network=0|1`), a baseUrl's size (``BaseURLParameters``), a thumbnail
/// batch and a prefetch. Each asks the pipeline not to keep the bytes in memory: the server keeps
/// what it answers itself (``RenditionMemo``), once.
///
/// Network access is the server's decision per request, as PhotoKit's `isNetworkAccessAllowed`
/// is the caller's: a grid's thumbnails, its batches, prefetch and posters never wait for an
/// original kept elsewhere (they get what is at hand); the picker page's large view asks with
/// `network=1`, and a client program's baseUrl is an explicit ask, so it may fetch.
extension ImageRequest {
    /// The largest side a rendition may ask for (4096: a 4K screen's width). A larger request is
    /// refused with 400 before any decode: a rendition costs its pixels, and the original is
    /// there for anything bigger.
    static let maximumServedSide = 4_096
    /// A rendition the server makes: `width`×`height`, kept in memory by the server, not the
    /// pipeline; with `network`, from an original fetched first when it is kept elsewhere.
    init(served width: Int, _ height: Int, mode: ContentMode, format: ImageFormat = .jpeg, quality: Int = PickerThumbnails.quality,
         delivery: DeliveryMode = .highQualityFormat, network: Bool = false, priority: RenderPriority) {
        self.init(targetSize: PixelSize(width: width, height: height), contentMode: mode, deliveryMode: delivery,
                  resizeMode: .exact, format: format, quality: quality, isNetworkAccessAllowed: network, priority: priority,
                  keepsInMemory: false)
    }

    /// This request made for `session`: its renders take turns with other sessions'.
    func asked(by session: String) -> ImageRequest {
        var request = self
        request.requester = session
        return request
    }

    /// The rendition `request`'s query asks for, checked.
    /// - Parameters:
    ///   - allowsDelivery: Whether `delivery` and `network` may be given (the picker page's API).
    ///   - priority: The render queue's tier (a `fast` delivery is always ``RenderPriority/visibleFirst``).
    /// - Throws: ``APIError`` 400 naming the parameter and what it accepts.
    init(query request: Request, allowsDelivery: Bool = false, priority: RenderPriority) throws(APIError) {
        let parameters = request.uri.queryParameters
        try self.init(allowsDelivery: allowsDelivery, priority: priority) { parameters.get($0) }
    }

    /// The rendition whose query parameters `value` gives by name, checked as
    /// ``init(query:allowsDelivery:priority:)`` checks a request's.
    init(allowsDelivery: Bool = false, priority: RenderPriority, value: (String) -> String?) throws(APIError) {
        func integer(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = DecimalText.wholeNumber(text), range.contains(number) else {
                throw .badParameter("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound); got '\(text.echoed)'.")
            }
            return number
        }
        func choice<T>(_ name: String, _ names: [String], _ named: (String) -> T?) throws(APIError) -> T? {
            guard let text = value(name) else { return nil }
            guard let choice = named(text) else {
                throw .badParameter("'\(name)' must be one of \(names.joined(separator: ", ")); got '\(text.echoed)'.")
            }
            return choice
        }
        let sides = 1...Self.maximumServedSide
        guard let width = try integer("w", in: sides), let height = try integer("h", in: sides) else {
            throw .badParameter("Give the size as 'w' and 'h', whole numbers from 1 to \(Self.maximumServedSide).")
        }
        let mode = try choice("mode", ["fill", "fit"], Self.mode) ?? .fit
        let format = try choice("format", ["jpeg", "jpg", "webp"], Self.format) ?? .jpeg
        let quality = try integer("quality", in: 1...100) ?? PickerThumbnails.quality
        let delivery = allowsDelivery ? try choice("delivery", ["fast", "high"], Self.delivery) ?? .highQualityFormat : .highQualityFormat
        let network = allowsDelivery ? try choice("network", ["0", "1"], Self.network) ?? false : false
        self.init(served: width, height, mode: mode, format: format, quality: quality, delivery: delivery, network: network,
                  priority: delivery == .fastFormat ? .visibleFirst : priority)
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

    private static func network(_ name: String) -> Bool? {
        switch name {
        case "1": true
        case "0": false
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
}
