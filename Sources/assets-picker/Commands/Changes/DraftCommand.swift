import ArgumentParser
import AssetsKit

/// `draft save|load`: picks saved under a name, reloaded with legacy URLs migrated.
struct DraftCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draft", abstract: "Save picks under a name, or load them back.", subcommands: [Save.self, Load.self])

    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Save a list of picked assets (either id form), in pick order.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The draft's name.") var name: String
        @Option(name: .customLong("asset"), parsing: .upToNextOption, help: "Asset ids, in pick order.") var assets: [AssetIdentifier]

        func run() async throws {
            try await options.drafts().saveDraft(named: name, identifiers: assets)
            if options.json { try JSONOutput.print(["name": name, "count": String(assets.count)]) } else { say("Saved \(assets.count) \(assets.count == 1 ? "pick" : "picks") as the draft \(name).") }
        }
    }

    struct Load: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load a draft: legacy URLs migrated to local identifiers, assets deleted since dropped and reported.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The draft's name.") var name: String

        struct Output: Encodable {
            let name: String
            let assets: [Asset]
            let migrated: [[String: String]]
            let dropped: [String]
        }

        func run() async throws {
            let draft = try await options.drafts().loadDraft(named: name)
            let output = Output(name: draft.name, assets: draft.assets,
                                migrated: draft.migrated.map { ["legacy": $0.legacy.description, "local": $0.local.description] },
                                dropped: draft.dropped.map(\.description))
            if options.json { return try JSONOutput.print(output) }
            say("The draft \(draft.name) holds \(draft.assets.count) \(draft.assets.count == 1 ? "pick" : "picks"), in pick order:")
            for asset in draft.assets { say("  \(asset.id.localIdentifier)  \(asset.filename)") }
            for migration in draft.migrated { say("\(migration.legacy) is now \(migration.local).") }
            for identifier in draft.dropped { say("\(identifier) was left out: it was deleted since.") }
        }
    }
}

extension LibraryOptions {
    /// The drafts of the library, which must keep them (an indexed library keeps them in its index).
    func drafts() async throws -> any LibraryDrafts {
        guard let drafts = try await open(mayCreateIndex: true).drafts else {
            throw LibraryError.unsupported("drafts of a library opened without an index (open it with --backend indexed)")
        }
        return drafts
    }
}
