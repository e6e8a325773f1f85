import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import ImagePipeline
import PickerSessions

/// The picker page's browsing: the album list, windows of a collection's assets, thumbnails (one
/// by one, or a first screen's together: ``ThumbnailBatch``) and large images, originals (and the
/// transfer of one kept elsewhere, with its progress), and prefetch of the rows about to come
/// into view.
struct PickerBrowsing: Sendable {
    let state: ServerState

    /// Assets per window, at most.
    static let maximumWindow = 500

    func add(to api: RouterGroup<BasicRequestContext>, grant: @escaping GrantResolver) {
        api.get("session") { _, context in
            let session = try await grant(context).session
            return try JSONResponse.make(PickerSessionResource(session, library: state.library, clientView: try await state.sessions.isOwn(session.id)))
        }
        api.get("albums") { _, context in
            JSONResponse.make(json: AlbumListJSON.body(try await albums(filter: try await grant(context).session.settings.mediaFilter)))
        }
        api.get("albums/:album/assets") { request, context in
            let session = try await grant(context).session
            return try JSONResponse.make(try await window(request, context, session: session))
        }
        api.get("assets/:asset/image") { request, context in
            let session = try await grant(context).session
            let asset = try await visibleAsset(context, session: session)
            // The page says which requests sharpen a cell that shows an image already.
            let tier: RenderPriority = request.headers[Self.imageUpgrade] == nil ? .visibleFirst : .visibleSharp
            return try await state.media.image(of: asset, request: ImageRequest(query: request, allowsDelivery: true, priority: tier),
                                               ifNoneMatch: request.headers[.ifNoneMatch], session: session.id)
        }
        api.post("thumbnails") { request, context in
            let session = try await grant(context).session
            let body = try await JSONResponse.decode(ThumbnailBatch.Request.self, from: request, limit: 64 << 10)
            let rendition = try ThumbnailBatch.imageRequest(of: body)
            let asked = body.ids.compactMap { id in UUID(canonical: id).map { (id: id, uuid: $0) } }
            let assets = try await state.visibleAssets(asked.map(\.uuid), session: session)
            let thumbnails = try await state.media.thumbnails(of: assets, request: rendition, session: session.id)
            return ThumbnailBatch.response(asked: asked, thumbnails: thumbnails)
        }
        api.get("assets/:asset/original") { request, context in
            let asset = try await visibleAsset(context, session: try await grant(context).session)
            return try await state.media.original(of: asset, request: request, context: context)
        }
        // The large view's original, brought here with its progress (MediaResponder.transfer).
        api.post("assets/:asset/fetch") { _, context in
            let session = try await grant(context).session
            return state.media.transfer(of: try await visibleAsset(context, session: session), session: session.id)
        }
        api.post("prefetch") { request, context in
            let session = try await grant(context).session
            let body = try await JSONResponse.decode(PrefetchRequest.self, from: request, limit: 64 << 10)
            if let refusal = PrefetchLimits.refusal(of: body) { throw APIError.badParameter(refusal) }
            let assets = try await state.visibleAssets(body.ids.compactMap { UUID(canonical: $0) }, session: session)
            state.media.prefetch(assets, request: ImageRequest(served: body.w, body.h, mode: body.mode ?? .fill, priority: .prefetch),
                                 session: session.id)
            return Response(status: .noContent)
        }
    }

    /// The collections a person can pick from, camera roll first, counted under `filter`.
    private func albums(filter: MediaFilter) async throws -> [AlbumResource] {
        var albums: [AlbumResource] = []
        var posters: [Asset] = []
        for album in try await state.pickable.albums(of: state.library, filter: filter) {
            // Smart albums with nothing in them are left out; the camera roll and the person's own albums stay.
            if album.count == 0, album.collection.kind == .smartAlbum { continue }
            if let poster = album.keyAsset { posters.append(poster) }
            albums.append(AlbumResource(id: album.collection.id.rawValue, title: album.collection.title, kind: album.collection.kind,
                                        smartKind: album.collection.smartKind, count: album.count, posterId: album.keyAsset?.id.uuid,
                                        parentId: album.collection.parentID?.rawValue))
        }
        state.assets.remember(posters)
        return albums
    }

    /// Sent by the picker page with the sharp upgrade of a thumbnail it shows already.
    static let imageUpgrade = HTTPField.Name("X-Image-Upgrade")!

    private func window(_ request: Request, _ context: BasicRequestContext, session: PickerSession) async throws -> AssetWindow {
        let parameters = request.uri.queryParameters
        let album = CollectionIdentifier(try Self.decodedPathComponent(context.parameters.require("album")))
        // What is not offered in the album list cannot be listed either: it answers as an unknown album.
        guard try await state.pickable.mayOpen(album, in: state.library) else { throw APIError.notFound }
        func number(_ name: String, default value: Int, in range: ClosedRange<Int>) throws(APIError) -> Int {
            guard let text = parameters.get(name) else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw .badParameter("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound); got '\(text.echoed)'.")
            }
            return number
        }
        let offset = try number("offset", default: 0, in: 0...Int(Int32.max))
        let limit = try number("limit", default: 120, in: 1...Self.maximumWindow)
        let sort: DateOrder
        switch parameters.get("sort") {
        case nil, "newest": sort = .newestFirst
        case "oldest": sort = .oldestFirst
        case let other?: throw APIError.badParameter("'sort' must be newest or oldest; got '\(other.echoed)'.")
        }
        let asked: MediaFilter
        switch parameters.get("media") {
        case nil, "all": asked = .all
        case "photo": asked = .photo
        case "video": asked = .video
        case let other?: throw APIError.badParameter("'media' must be all, photo or video; got '\(other.echoed)'.")
        }
        guard let filter = Self.intersection(session.settings.mediaFilter, asked) else {
            return AssetWindow(total: 0, offset: offset, items: [])
        }
        let result = try await state.fetches.result(in: album, filter: filter, sort: sort)
        let end = min(result.count, offset + limit)
        let assets = offset < end ? try await result.assets(in: offset..<end) : []
        state.assets.remember(assets)
        return AssetWindow(total: result.count, offset: offset, items: try await ItemResource.items(assets, library: state.library))
    }

    /// The asset a picker path names, when the session may show it; 404 otherwise.
    private func visibleAsset(_ context: BasicRequestContext, session: PickerSession) async throws -> Asset {
        guard let uuid = UUID(canonical: try context.parameters.require("asset")),
              let asset = try await state.visibleAssets([uuid], session: session).first else {
            throw APIError.notFound
        }
        return asset
    }

    /// The filter that passes what both pass; `nil` when nothing does.
    private static func intersection(_ a: MediaFilter, _ b: MediaFilter) -> MediaFilter? {
        switch (a, b) {
        case (.all, _): b
        case (_, .all): a
        case _ where a == b: a
        default: nil
        }
    }

    /// A path component with its percent-encoding undone (album identifiers may hold `/` and `?`).
    static func decodedPathComponent(_ text: String) throws(APIError) -> String {
        guard let decoded = text.removingPercentEncoding else { throw .notFound }
        return decoded
    }
}
