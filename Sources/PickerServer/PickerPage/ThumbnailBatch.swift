import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST api/thumbnails`: a grid's first screen in one answer: the final thumbnails the server
/// holds already (``RenditionMemo``), and for the others the quickest image at hand (a preview
/// made ahead, an embedded thumbnail: ``PhotoLibrary/quickImage(for:request:)``), marked so.
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
        let id: String
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

    /// The rendition `request` asks of each id, checked as the image route checks its query.
    /// - Throws: ``APIError`` 400 with the reason, before any lookup.
    static func query(of request: Request) throws(APIError) -> ImageQuery {
        guard request.ids.count <= maximumIDs else {
            throw .badParameter("A thumbnail batch takes at most \(maximumIDs) ids; got \(request.ids.count).")
        }
        guard (1...maximumSide).contains(request.w), (1...maximumSide).contains(request.h) else {
            throw .badParameter("A thumbnail batch takes 'w' and 'h' from 1 to \(maximumSide); larger images are asked for one at a time.")
        }
        let values = ["w": String(request.w), "h": String(request.h), "mode": request.mode == .fit ? "fit" : "fill", "quality": String(PickerThumbnails.quality)]
        return try ImageQuery { values[$0] }
    }

    /// The thumbnails of `assets` (each named by the text `asked` gives its UUID), in order: the
    /// final one `held` gives, else the quick one `quick` makes (``maximumQuickImages`` at
    /// most, as many at a time as there are cores, started within ``quickImageTime``), else none.
    static func thumbnails(of assets: [Asset], asked: [UUID: String], held: (Asset) -> PreparedAnswer?,
                           quick: @escaping @Sendable (Asset) async -> ImageResult?) async -> [Thumbnail] {
        var found: [Thumbnail?] = Array(repeating: nil, count: assets.count)
        var wanting: [(index: Int, asset: Asset)] = []
        for (index, asset) in assets.enumerated() {
            guard let id = asked[asset.id.uuid] else { continue }
            if let answer = held(asset), let body = answer.body {
                found[index] = Thumbnail(id: id, type: answer.head.headerFields[.contentType] ?? "image/jpeg", bytes: body, isFinal: true)
            } else if wanting.count < maximumQuickImages {
                wanting.append((index, asset))
            }
        }
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let deadline = ContinuousClock.now + quickImageTime
        await withTaskGroup(of: (Int, ImageResult?).self) { group in
            var next = 0
            func startNext() {
                guard next < wanting.count, next < width || ContinuousClock.now < deadline else { return }
                let (index, asset) = wanting[next]
                next += 1
                group.addTask { (index, await quick(asset)) }
            }
            for _ in 0..<width { startNext() }
            while let (index, image) = await group.next() {
                if let image, let id = asked[assets[index].id.uuid] {
                    found[index] = Thumbnail(id: id, type: image.format.mimeType, bytes: ByteBuffer(bytes: image.data), isFinal: false)
                }
                startNext()
            }
        }
        return found.compactMap { $0 }
    }

    /// The answer holding `thumbnails`, in order, up to ``maximumBytes`` of images. An id is a
    /// canonical UUID and a type one of the pipeline's image types: nothing in them to escape.
    static func response(_ thumbnails: [Thumbnail]) -> Response {
        var kept: [Thumbnail] = [], bytes = 0
        for thumbnail in thumbnails where bytes + thumbnail.bytes.readableBytes <= maximumBytes {
            bytes += thumbnail.bytes.readableBytes
            kept.append(thumbnail)
        }
        var json = ByteBuffer()
        json.reserveCapacity(32 + kept.count * 96 + bytes * 4 / 3 + 4)
        json.writeString(#"{"thumbnails":["#)
        for (number, thumbnail) in kept.enumerated() {
            if number > 0 { json.writeString(",") }
            json.writeString(#"{"id":""# + thumbnail.id + #"","type":""# + thumbnail.type + #"","final":"#
                             + (thumbnail.isFinal ? "true" : "false") + #","data":""#)
            json.writeString(Data(thumbnail.bytes.readableBytesView).base64EncodedString())
            json.writeString(#""}"#)
        }
        json.writeString("]}")
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: json))
    }
}
