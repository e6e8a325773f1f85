import Foundation

/// What one `POST api/prefetch` may ask for. Prefetch renders thumbnails of the rows about to
/// scroll into view; a request beyond these bounds is refused with 400 before any lookup or
/// decode, so a small body cannot buy seconds of CPU and gigabytes of pixels.
enum PrefetchLimits {
    /// Ids in one request (a grid asks for a screen and a half of rows).
    static let maximumIDs = 500
    /// The largest side of a prefetched thumbnail.
    static let maximumSide = 1_024
    /// Output pixels of one request, all ids together: 500 thumbnails of 512x512.
    static let maximumPixels = 500 * 512 * 512

    /// The one-line reason `request` is refused, or `nil` when it is within the bounds.
    static func refusal(of request: PrefetchRequest) -> String? {
        let sides = 1...maximumSide
        guard sides.contains(request.w), sides.contains(request.h) else {
            return "Prefetch takes 'w' and 'h' from 1 to \(maximumSide); larger images are asked for one at a time."
        }
        guard request.ids.count <= maximumIDs else { return "Prefetch takes at most \(maximumIDs) ids; got \(request.ids.count)." }
        guard request.ids.count * request.w * request.h <= maximumPixels else {
            return "Prefetch takes at most \(maximumPixels) pixels per request (ids x w x h); got \(request.ids.count * request.w * request.h)."
        }
        return nil
    }
}
