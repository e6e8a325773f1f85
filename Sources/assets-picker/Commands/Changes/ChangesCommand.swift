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
        say("token \(output.token): \(output.insertedAssets.count) inserted, \(output.removedAssets.count) removed, \(output.changedAssets.count) changed")
        for collection in output.collections {
            say("  \(collection.id): +\(collection.inserted.count) -\(collection.removed.count) ~\(collection.changed.count)\(collection.collectionChanged ? " (collection changed)" : "")")
        }
    }
}
