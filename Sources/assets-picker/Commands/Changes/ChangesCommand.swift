import ArgumentParser
import AssetsKit

/// `changes --since TOKEN`: what changed in an indexed library after a change token.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes", abstract: "List what changed after a change token (tokens survive restarts).")
    @OptionGroup var options: LibraryOptions
    @Option(name: .long, help: "The token a previous command printed; 0 for everything.",
            transform: { text in
                guard let token = ChangeToken(string: text) else { throw ValidationError("--since must be a change token: a number, 0 or more") }
                return token
            })
    var since: ChangeToken

    struct Output: Encodable {
        struct Collection: Encodable {
            let id: String
            let inserted: [String]
            let removed: [String]
            let changed: [String]
            let collectionChanged: Bool
        }

        let token: String
        let insertedAssets: [String]
        let removedAssets: [String]
        let changedAssets: [String]
        let collections: [Collection]

        init(_ change: LibraryChange) {
            func sorted(_ ids: Set<AssetIdentifier>) -> [String] { ids.map(\.description).sorted() }
            token = change.token.description
            insertedAssets = sorted(change.insertedAssets)
            removedAssets = sorted(change.removedAssets)
            changedAssets = sorted(change.changedAssets)
            collections = change.collections.sorted { $0.key.rawValue < $1.key.rawValue }.map { id, change in
                Collection(id: id.rawValue, inserted: sorted(change.inserted), removed: sorted(change.removed),
                           changed: sorted(change.changed), collectionChanged: change.collectionChanged)
            }
        }
    }

    func run() async throws {
        guard let history = try await options.open().changeHistory else {
            throw LibraryError.unsupported("change history of a library opened without an index (open it with --backend indexed)")
        }
        let output = Output(try await history.changes(since: since))
        if options.json { return try JSONOutput.print(output) }
        let assets = Self.counts(inserted: output.insertedAssets.count, removed: output.removedAssets.count, changed: output.changedAssets.count,
                                 naming: "asset")
        let summary = assets.isEmpty ? "no asset changed" : assets.joined(separator: ", ")
        say("Since change token \(since): \(summary); the library is now at token \(output.token).")
        for collection in output.collections {
            var parts = Self.counts(inserted: collection.inserted.count, removed: collection.removed.count, changed: collection.changed.count)
            if collection.collectionChanged { parts.append("the album itself changed") }
            say("  In \(collection.id): \(parts.joined(separator: ", ")).")
        }
    }

    /// `31 added, 1 changed` (`31 assets added, 1 changed` naming `asset`): the counts that are not zero.
    private static func counts(inserted: Int, removed: Int, changed: Int, naming noun: String? = nil) -> [String] {
        var parts = [(inserted, "added"), (removed, "removed"), (changed, "changed")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if let noun, let first = parts.first, let count = Int(first.prefix { $0 != " " }) {
            parts[0] = "\(count) \(noun)\(count == 1 ? "" : "s")" + first.drop { $0 != " " }
        }
        return parts
    }
}
