import AssetsKit
import Foundation
import PickerSessions

/// The picker page's view of its session (`GET api/session`).
struct PickerSessionResource: Encodable {
    struct Library: Encodable {
        let name: String
        let backend: String
        let canImport: Bool
        let canCreateAlbum: Bool
    }

    let id: String
    let state: PickerSessionState
    let maxItems: Int
    let order: PickOrder
    let mediaFilter: MediaFilter
    let expireTime: Date
    let selection: SelectionResource
    let library: Library
    let droppedPreselected: [String]
    /// Whether this is one of the person's own sessions (made in the store's own places: the server's, or one the
    /// demo client page created), whose picks the person sees after Done as its client receives
    /// them, on the demo client page (``DemoClientRoutes``).
    let clientView: Bool
    /// What the page asks within: its thumbnails' quality, the batch's and prefetch's bounds.
    let limits = PickerPageLimits()

    init(_ session: PickerSession, library: any PhotoLibrary, clientView: Bool = false) {
        self.clientView = clientView
        id = session.id
        state = session.state
        maxItems = session.settings.maxItems
        order = session.settings.order
        mediaFilter = session.settings.mediaFilter
        expireTime = session.expireTime
        selection = SelectionResource(session.selection)
        let changing = library.changing
        self.library = Library(name: Self.name(of: library.rootURL), backend: library.backendName,
                               canImport: changing?.acceptsImports == true, canCreateAlbum: changing != nil)
        droppedPreselected = session.droppedPreselected
    }

    /// The library's name in the page's header: its folder's name, or a bucket's prefix (its
    /// last part), or the bucket itself when it has none (`s3://photos/` is "photos").
    static func name(of root: URL) -> String {
        let last = root.lastPathComponent
        guard !root.isFileURL, last.isEmpty || last == "/" else { return last }
        return root.host ?? root.absoluteString
    }
}

/// A selection as the picker page shows it: the picks in pick order, their count and bytes.
struct SelectionResource: Encodable {
    let ids: [String]
    let count: Int
    let byteSize: Int64
    let maxItems: Int

    init(_ selection: PickSelection) {
        ids = selection.assets.map(\.uuid.uuidString)
        count = selection.count
        byteSize = selection.byteSize
        maxItems = selection.maximum
    }
}

/// A collection in the album list: poster, title, what it is, count under the session's filter.
struct AlbumResource: Encodable {
    let id: String
    let title: String
    let kind: CollectionKind
    /// Which smart album it is (the page titles those in its own language); `nil` for the others.
    let smartKind: SmartAlbumKind?
    let count: Int
    let posterId: UUID?
    /// The folder that holds it (an album in a folder, a folder of the file tree in the one above), if any.
    var parentId: String? = nil
}

/// A window of a collection's assets.
struct AssetWindow: Encodable {
    let total: Int
    let offset: Int
    let items: [ItemResource]
}

/// The body of `POST api/prefetch`.
struct PrefetchRequest: Decodable {
    let ids: [String]
    let w: Int
    let h: Int
    let mode: ContentMode?
}

/// The body of `PUT api/selection`.
struct SelectionRequest: Decodable {
    let ids: [String]
}

/// The body of `POST api/albums`.
struct AlbumRequest: Decodable {
    let title: String
}
