import Foundation
import AssetsKit

/// A client's preselected identifiers (a draft of earlier picks), resolved against the library.
public struct Preselection: Sendable {
    /// The assets found, in the order given, at most the session's maximum.
    public var assets: [PickedAsset]
    /// The identifiers dropped: malformed, unknown, deleted since, hidden, of media the session
    /// does not take, or over the maximum. Shown to the person only, never to the client: it
    /// would tell which guessed identifiers exist.
    public var dropped: [String]

    /// Nothing preselected.
    public static let none = Preselection(assets: [], dropped: [])

    /// A preselection of `assets`; `dropped` names what could not be taken.
    public init(assets: [PickedAsset], dropped: [String]) {
        self.assets = assets
        self.dropped = dropped
    }

    /// Resolves `identifiers` (local identifiers, UUIDs or legacy `assets-library://` URLs,
    /// which are migrated) in `library` for a session with `settings`; repeats count once.
    public static func resolve(_ identifiers: [String], in library: any PhotoLibrary,
                               settings: PickerSessionSettings) async throws -> Preselection {
        let parsed = identifiers.map { text in
            (text, AssetIdentifier(string: text) ?? UUID(uuidString: text).map { .local(LocalIdentifier(uuid: $0)) })
        }
        let lookup = try await library.assets(withIdentifiers: parsed.compactMap(\.1))
        let found = Dictionary(lookup.found.map { ($0.id.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        var selection = PickSelection(maximum: settings.maxItems, filter: settings.mediaFilter)
        var dropped: [String] = []
        for (text, identifier) in parsed {
            guard let asset = identifier.flatMap({ found[$0.uuid] }), !asset.isHidden else {
                dropped.append(text)
                continue
            }
            if selection.contains(asset.id.uuid) { continue }
            do { try selection.add(PickedAsset(asset)) } catch { dropped.append(text) }
        }
        return Preselection(assets: selection.assets, dropped: dropped)
    }
}
