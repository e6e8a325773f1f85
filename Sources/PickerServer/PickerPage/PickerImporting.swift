import AssetsKit
import Foundation
import Hummingbird
import PickerSessions

/// The picker page's "take a photo" path and album creation, for libraries that take changes
/// (``PhotoLibrary/changing``; uploads need imports too): the upload is imported and comes back picked.
struct PickerImporting: Sendable {
    let state: ServerState

    func add(to api: RouterGroup<BasicRequestContext>, grant: @escaping GrantResolver) {
        api.post("upload") { request, context in
            let grant = try await grant(context)
            let changing = try requireChanges(imports: true)
            let filename = try Self.uploadFilename(request.uri.queryParameters.get("filename"))
            let result = try await state.uploads.receive(request, filename: filename, limits: state.configuration.limits) { file in
                do {
                    return try await changing.performChanges([.importFile(file)])
                } catch let error as LibraryError {
                    // The reason, without the temporary file's path.
                    let reason = String(describing: error).replacingOccurrences(of: file.path, with: filename)
                    throw APIError(.unprocessableContent, code: "importFailed", "\(filename) could not be imported: \(reason)")
                }
            }
            guard let id = result.insertedAssets.first, let asset = try await state.library.assets(withIdentifiers: [id]).found.first else {
                throw APIError(.unprocessableContent, code: "importFailed", "\(filename) could not be imported.")
            }
            state.logger.info("photo uploaded from the picker", metadata: ["session": "\(grant.session.id)", "file": "\(filename)"])
            let session: PickerSession, selected: Bool
            do {
                session = try await state.sessions.pick(PickedAsset(asset), session: grant.session.id, token: grant.token)
                selected = true
            } catch is SelectionError {
                guard let current = try await state.sessions.pickerSession(grant.session.id, token: grant.token) else { throw APIError.gone }
                (session, selected) = (current, false)
            }
            let item = try await ItemResource.items([asset], library: state.library)[0]
            return try JSONResponse.make(UploadResult(item: item, selected: selected,
                                                      selection: SelectionResource(session.selection)), status: .created)
        }
        api.post("albums") { request, context in
            _ = try await grant(context)
            let changing = try requireChanges(imports: false)
            let body = try await JSONResponse.decode(AlbumRequest.self, from: request)
            let title = body.title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...200).contains(title.count) else { throw APIError.badParameter("An album's title takes 1 to 200 characters.") }
            let result = try await changing.performChanges([.createAlbum(title: title)])
            guard let id = result.insertedCollections.first else {
                throw APIError(.unprocessableContent, code: "albumNotCreated", "The album could not be created.")
            }
            return try JSONResponse.make(["album": AlbumResource(id: id.rawValue, title: title, kind: .album, smartKind: nil, count: 0, posterId: nil)],
                                         status: .created)
        }
    }

    /// The library's changes, when it takes them (and imports, when `imports`).
    private func requireChanges(imports: Bool) throws(APIError) -> any LibraryChanging {
        guard let changing = state.library.changing, !imports || changing.acceptsImports else {
            throw APIError(.forbidden, code: "readOnlyLibrary", "This library is read-only: it takes no uploads or new albums.")
        }
        return changing
    }

    /// The name an upload is stored under: its last path component, without control characters.
    static func uploadFilename(_ text: String?) throws(APIError) -> String {
        let name = (text ?? "").split(separator: "/").last.map(String.init)?
            .filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } } ?? ""
        guard !name.isEmpty, name != ".", name != "..", !name.hasPrefix("."), name.utf8.count <= 255 else {
            throw .badParameter("Give the upload's file name as 'filename', e.g. ?filename=IMG_0001.jpg.")
        }
        return name
    }
}

/// What an upload made: the new item, whether it was picked (not when the maximum is reached), the picks.
struct UploadResult: Encodable {
    let item: ItemResource
    let selected: Bool
    let selection: SelectionResource
}
