import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST api/thumbnails`: a grid's first screen in one answer: the final thumbnails the server
/// holds already (``RenditionMemo``), and for the others the quickest image at hand (a preview
/// made ahead, an embedded thumbnail: ``MediaResponder/thumbnails(of:request:session:)``), marked so.
///
/// HTTP/1.1 gives a page six connections to its server: seventy thumbnails asked one by one
/// take a dozen round trips on each, and the browser's work for each request (its loader, its
/// timing entry, its answer handed to the page) is most of a first screen. Asked together, they
/// come in one. This never renders from an original: what has neither a held thumbnail nor a
/// quick image is left out, and the page asks for it one by one as before (`delivery=fast`);
/// the quick ones are sharpened as fast answers are.
///
/// The body is `{"ids": [...], "w": W, "h": H, "mode": "fill"|"fit"}` (the image route's `w`,
/// `h` and `mode`; JPEG at ``PickerThumbnails/quality``, as the page's thumbnails). The answer, `no-store`, is
/// `{"thumbnails":[{"id","type","final","data"}]}` in the order asked, each with its bytes in
/// base64, which the page shows as `data:` URLs (the browser decodes those in the page's own
/// process; a `blob:` URL is loaded through the browser's, a round trip for each). Ids the
/// session may not show are left out as those with nothing at hand are: the answer says
/// nothing of their existence.
enum ThumbnailBatch {
    /// Ids in one request: the first screen of a large display, with room.
    static let maximumIDs = 500
    /// The largest side asked for: a thumbnail's (``PrefetchLimits/maximumSide``).
    static let maximumSide = PrefetchLimits.maximumSide
    /// Image bytes in one answer, at most: thumbnails beyond are left out (asked for one by one).
    static let maximumBytes = 16 << 20
    /// Quick images made for one answer, at most (each a small decode and encode).
    static let maximumQuickImages = 150
    /// How long an answer keeps starting quick images: past it, the rest are left out and the
    /// page asks for them one by one, each shown as it comes (a library of HEIF files without
    /// previews decodes a thumbnail item for each).
    static let quickImageTime = Duration.milliseconds(60)

    /// One thumbnail of the answer: a held final one, or a quick one.
    struct Thumbnail: Sendable {
        let type: String
        let bytes: ByteBuffer
        let isFinal: Bool
    }

    /// The body of `POST api/thumbnails`.
    struct Request: Decodable {
        let ids: [String]
        let w: Int
        let h: Int
        let mode: ContentMode?
    }

    /// The rendition `request` asks of each id (a visible cell's first image), checked as the
    /// image route checks its query.
    /// - Throws: ``APIError`` 400 with the reason, before any lookup.
    static func imageRequest(of request: Request) throws(APIError) -> ImageRequest {
        guard request.ids.count <= maximumIDs else {
            throw .badParameter("A thumbnail batch takes at most \(maximumIDs) ids; got \(request.ids.count).")
        }
        guard (1...maximumSide).contains(request.w), (1...maximumSide).contains(request.h) else {
            throw .badParameter("A thumbnail batch takes 'w' and 'h' from 1 to \(maximumSide); larger images are asked for one at a time.")
        }
        return ImageRequest(served: request.w, request.h, mode: request.mode ?? .fill, priority: .visibleFirst)
    }

    /// The answer holding the `thumbnails` of the `asked` ids (each a canonical UUID, as the
    /// page wrote it), in the order asked, up to ``maximumBytes`` of images. An id is a canonical
    /// UUID and a type one of the pipeline's image types: nothing in them to escape.
    static func response(asked: [(id: String, uuid: UUID)], thumbnails: [UUID: Thumbnail]) -> Response {
        var kept: [(id: String, thumbnail: Thumbnail)] = [], bytes = 0
        for (id, uuid) in asked {
            guard let thumbnail = thumbnails[uuid], bytes + thumbnail.bytes.readableBytes <= maximumBytes else { continue }
            bytes += thumbnail.bytes.readableBytes
            kept.append((id, thumbnail))
        }
        var json = ByteBuffer()
        json.reserveCapacity(32 + kept.count * 96 + bytes * 4 / 3 + 4)
        json.writeString(#"{"thumbnails":["#)
        for (number, (id, thumbnail)) in kept.enumerated() {
            if number > 0 { json.writeString(",") }
            json.writeString(#"{"id":""# + id + #"","type":""# + thumbnail.type + #"","final":"#
                             + (thumbnail.isFinal ? "true" : "false") + #","data":""#)
            json.writeString(Data(thumbnail.bytes.readableBytesView).base64EncodedString())
            json.writeString(#""}"#)
        }
        json.writeString("]}")
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: json))
    }
}
