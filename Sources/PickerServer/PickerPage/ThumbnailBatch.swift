import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST api/thumbnails`: the final thumbnails of a grid's first screen that the server holds
/// already (``RenditionMemo``), in one answer.
///
/// HTTP/1.1 gives a page six connections to its server: seventy thumbnails asked one by one
/// take a dozen round trips on each, and the browser's work for each request (its loader, its
/// timing entry, its answer handed to the page) is most of a warm first screen. Asked together,
/// they come in one. What the server does not hold already is left out, and the page asks for
/// it one by one as before (`delivery=fast`): this never renders, so it never waits.
///
/// The body is `{"ids": [...], "w": W, "h": H, "mode": "fill"|"fit"}` (the image route's `w`,
/// `h` and `mode`; JPEG at quality 80, as the page's thumbnails). The answer, `no-store`, is
/// `{"thumbnails":[{"id","type","data"}]}`: the thumbnails it holds in the order asked, each
/// with its bytes in base64, which the page shows as `data:` URLs (the browser decodes those in
/// the page's own process; a `blob:` URL is loaded through the browser's, a round trip for each).
/// Ids the session may not show are left out as those not rendered yet are: the answer says
/// nothing of their existence.
enum ThumbnailBatch {
    /// Ids in one request: the first screen of a large display, with room.
    static let maximumIDs = 500
    /// The largest side asked for: a thumbnail's (``PrefetchLimits/maximumSide``).
    static let maximumSide = PrefetchLimits.maximumSide
    /// Image bytes in one answer, at most: held thumbnails beyond are left out (asked for one by one).
    static let maximumBytes = 16 << 20

    /// The body of `POST api/thumbnails`.
    struct Request: Decodable {
        let ids: [String]
        let w: Int
        let h: Int
        let mode: ContentMode?
    }

    /// The rendition `request` asks of each id, checked as the image route checks its query.
    /// - Throws: ``APIError`` 400 with the reason, before any lookup.
    static func query(of request: Request) throws(APIError) -> ImageQuery {
        guard request.ids.count <= maximumIDs else {
            throw .badParameter("A thumbnail batch takes at most \(maximumIDs) ids; got \(request.ids.count).")
        }
        guard (1...maximumSide).contains(request.w), (1...maximumSide).contains(request.h) else {
            throw .badParameter("A thumbnail batch takes 'w' and 'h' from 1 to \(maximumSide); larger images are asked for one at a time.")
        }
        let values = ["w": String(request.w), "h": String(request.h), "mode": request.mode == .fit ? "fit" : "fill"]
        return try ImageQuery { values[$0] }
    }

    /// The answer holding `thumbnails` (each asked id's text, a canonical UUID, and its remembered
    /// final rendition), in order, up to ``maximumBytes`` of images.
    static func response(_ thumbnails: [(id: String, answer: PreparedAnswer)]) -> Response {
        var kept: [(id: String, body: ByteBuffer, type: String)] = [], bytes = 0
        for (id, answer) in thumbnails {
            guard let body = answer.body, bytes + body.readableBytes <= maximumBytes else { continue }
            bytes += body.readableBytes
            kept.append((id, body, answer.head.headerFields[.contentType] ?? "image/jpeg"))
        }
        var json = ByteBuffer()
        json.reserveCapacity(32 + kept.count * 80 + bytes * 4 / 3 + 4)
        json.writeString(#"{"thumbnails":["#)
        var first = true
        for (id, body, type) in kept {
            if !first { json.writeString(",") }
            first = false
            // An id is a canonical UUID and a type one of the pipeline's image types: nothing to escape.
            json.writeString(#"{"id":""# + id + #"","type":""# + type + #"","data":""#)
            json.writeString(Data(body.readableBytesView).base64EncodedString())
            json.writeString(#""}"#)
        }
        json.writeString("]}")
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: json))
    }
}
