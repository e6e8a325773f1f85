import AssetsKit

/// What a client asks of a base URL by what it appends, as the Google Photos Picker API reads it:
/// `=wW-hH` (fit inside W×H), `=wW-hH-c` (crop to exactly W×H), `=wW` or `=hH` alone (that
/// width or height, the other side in proportion), `=d` (a photo's original bytes, without
/// location) and `=dv` (a video's bytes).
enum BaseURLParameters: Equatable {
    /// A rendition: `width`×`height` (a missing side may be as long as the largest allowed),
    /// filled exactly when cropped; JPEG at quality 85. A client program's download is nobody's
    /// first screen: it never delays one (``RenderPriority/visibleSharp``). It is an explicit ask,
    /// so an original kept elsewhere is fetched for it (network access allowed).
    case image(ImageRequest)
    /// A photo's original bytes, location removed.
    case download
    /// A video's bytes.
    case video

    /// The parameters in `text` (what follows `=`), or a 400 naming what is accepted.
    init(_ text: String) throws(APIError) {
        let usage = "Append '=wW-hH' (fit), '=wW-hH-c' (crop), '=wW', '=hH', '=d' (a photo's bytes) or '=dv' (a video's bytes) to the baseUrl"
        switch text {
        case "d": self = .download; return
        case "dv": self = .video; return
        case "": throw .badParameter(usage + ".")
        default: break
        }
        var width: Int?, height: Int?, crop = false
        for option in text.split(separator: "-", omittingEmptySubsequences: false) {
            func side(_ value: Substring) throws(APIError) -> Int {
                guard let number = DecimalText.wholeNumber(String(value)), (1...ImageRequest.maximumServedSide).contains(number) else {
                    throw .badParameter("A side must be a whole number from 1 to \(ImageRequest.maximumServedSide); got '\(value.echoed)'.")
                }
                return number
            }
            switch option.first {
            case "w" where width == nil: width = try side(option.dropFirst())
            case "h" where height == nil: height = try side(option.dropFirst())
            case "c" where option == "c" && !crop: crop = true
            default: throw .badParameter("\(usage); '\(option.echoed)' is not one of them.")
            }
        }
        guard width != nil || height != nil else { throw .badParameter(usage + ".") }
        guard !crop || (width != nil && height != nil) else { throw .badParameter("'-c' crops to a size: give both '=wW-hH-c'.") }
        self = .image(ImageRequest(served: width ?? ImageRequest.maximumServedSide, height ?? ImageRequest.maximumServedSide,
                                   mode: crop ? .fill : .fit, quality: 85, network: true, priority: .visibleSharp))
    }
}
