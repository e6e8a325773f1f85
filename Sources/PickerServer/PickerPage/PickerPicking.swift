import AssetsKit
import Foundation
import Hummingbird
import PickerSessions

/// The picker page's picking: pick, unpick, replace the picks (range selection), Done, Cancel.
struct PickerPicking: Sendable {
    let state: ServerState

    func add(to api: RouterGroup<BasicRequestContext>, grant: @escaping GrantResolver) {
        api.post("selection/:asset") { _, context in
            let grant = try await grant(context)
            let asset = try await asset(context, session: grant.session)
            return try await selection { try await state.sessions.pick(PickedAsset(asset), session: grant.session.id, token: grant.token) }
        }
        api.delete("selection/:asset") { _, context in
            let grant = try await grant(context)
            guard let uuid = UUID(canonical: try context.parameters.require("asset")) else { throw APIError.notFound }
            return try await selection { try await state.sessions.unpick(uuid, session: grant.session.id, token: grant.token) }
        }
        api.put("selection") { request, context in
            let grant = try await grant(context)
            let body = try await JSONResponse.decode(SelectionRequest.self, from: request)
            let parsed = body.ids.compactMap { UUID(canonical: $0) }
            guard parsed.count == body.ids.count, body.ids.count <= PickerSessionSettings.maximumItemsRange.upperBound * 2 else {
                throw APIError.badParameter("'ids' must be item identifiers (UUIDs) the picker listed.")
            }
            // A repeated id counts once, where it first appears.
            var seen = Set<UUID>()
            let uuids = parsed.filter { seen.insert($0).inserted }
            let assets = try await state.pickableAssets(uuids, session: grant.session)
            guard assets.count == uuids.count else { throw APIError.notFound }
            return try await selection {
                try await state.sessions.replacePicks(assets.map(PickedAsset.init), session: grant.session.id, token: grant.token)
            }
        }
        api.post("done") { _, context in try await finish(context, grant: grant, as: .complete) }
        api.post("cancel") { _, context in try await finish(context, grant: grant, as: .cancelled) }
    }

    private func asset(_ context: BasicRequestContext, session: PickerSession) async throws -> Asset {
        guard let uuid = UUID(canonical: try context.parameters.require("asset")),
              let asset = try await state.pickableAssets([uuid], session: session).first else {
            throw APIError.notFound
        }
        return asset
    }

    /// The selection after `change`, or the refusal as 409 (maximum) / 422 (media not allowed).
    private func selection(_ change: () async throws -> PickerSession) async throws -> Response {
        do {
            return try JSONResponse.make(["selection": SelectionResource(try await change().selection)])
        } catch let error as SelectionError {
            switch error {
            case .maximumReached: throw APIError(.conflict, code: "maximumReached", error.description)
            case .notAllowed: throw APIError(.unprocessableContent, code: "notAllowed", error.description)
            }
        } catch is PickerSessionError {
            throw APIError.gone
        }
    }

    private func finish(_ context: BasicRequestContext, grant: GrantResolver, as final: PickerSessionState) async throws -> Response {
        let grant = try await grant(context)
        do {
            let session = try await state.sessions.finish(grant.session.id, token: grant.token, state: final)
            state.grants.forget(session.id)
            state.logger.info("picker session finished", metadata: [
                "session": "\(session.id)", "state": "\(final.rawValue)", "picked": "\(session.pickedItems.count)",
            ])
            return try JSONResponse.make(["state": session.state])
        } catch is PickerSessionError {
            state.grants.forget(grant.session.id)
            throw APIError.gone
        }
    }
}
