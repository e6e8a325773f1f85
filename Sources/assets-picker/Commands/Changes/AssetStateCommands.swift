import ArgumentParser
import AssetsKit

/// `delete`: moves assets to Recently Deleted (`restore` brings them back).
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Move assets to Recently Deleted; with --purge, forget assets already there.",
        discussion: "Purging removes a file only when the library imported it; an adopted original is never removed.")
    @OptionGroup var options: LibraryOptions
    @Option(name: .customLong("asset"), parsing: .upToNextOption, help: "Asset ids.") var assets: [AssetIdentifier]
    @Flag(help: "Remove assets that are in Recently Deleted for good.") var purge = false

    func run() async throws {
        try ChangeOutput(try await options.perform([purge ? .purge(assets) : .delete(assets)])).print(json: options.json)
    }
}

/// `restore`: brings assets back from Recently Deleted.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Bring assets back from Recently Deleted.")
    @OptionGroup var options: LibraryOptions
    @Option(name: .customLong("asset"), parsing: .upToNextOption, help: "Asset ids.") var assets: [AssetIdentifier]

    func run() async throws {
        try ChangeOutput(try await options.perform([.restore(assets)])).print(json: options.json)
    }
}

/// `favorite`: marks assets as favourites (or, with --off, not).
struct FavoriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "favorite", abstract: "Mark assets as favourites, or unmark them with --off.")
    @OptionGroup var options: LibraryOptions
    @Option(name: .customLong("asset"), parsing: .upToNextOption, help: "Asset ids.") var assets: [AssetIdentifier]
    @Flag(help: "Remove the mark instead.") var off = false

    func run() async throws {
        try ChangeOutput(try await options.perform([.setFavorite(assets, !off)])).print(json: options.json)
    }
}
