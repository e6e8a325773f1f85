import ArgumentParser
import AssetsKit

/// `album create|rename|delete|add|remove`: user albums of an indexed library.
struct AlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album", abstract: "Create, rename and delete albums; add and remove their assets.",
        subcommands: [Create.self, Rename.self, Delete.self, Add.self, Remove.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an album (or, with --folder, a folder of albums).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The title.") var title: String
        @Option(name: .customLong("in"), help: "The folder to put it in.") var parent: String?
        @Flag(help: "Create a folder that holds albums instead of an album.") var folder = false

        func run() async throws {
            let parentID = parent.map { CollectionIdentifier($0) }
            let request: ChangeRequest = folder ? .createFolder(title: title, inFolder: parentID) : .createAlbum(title: title, inFolder: parentID)
            try ChangeOutput(try await options.perform([request])).print(json: options.json)
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename an album or folder.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album or folder id.") var album: String
        @Argument(help: "The new title.") var title: String

        func run() async throws {
            try ChangeOutput(try await options.perform([.renameCollection(CollectionIdentifier(album), title: title)])).print(json: options.json)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an album (its assets stay) or an empty folder.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album or folder id.") var album: String

        func run() async throws {
            try ChangeOutput(try await options.perform([.deleteCollection(CollectionIdentifier(album))])).print(json: options.json)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add assets to the end of an album, in the order given.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album id.") var album: String
        @Option(name: .customLong("asset"), parsing: .upToNextOption, help: "Asset ids.") var assets: [AssetIdentifier]

        func run() async throws {
            try ChangeOutput(try await options.perform([.addAssets(assets, toAlbum: CollectionIdentifier(album))])).print(json: options.json)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove assets from an album (they stay in the library).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album id.") var album: String
        @Option(name: .customLong("asset"), parsing: .upToNextOption, help: "Asset ids.") var assets: [AssetIdentifier]

        func run() async throws {
            try ChangeOutput(try await options.perform([.removeAssets(assets, fromAlbum: CollectionIdentifier(album))])).print(json: options.json)
        }
    }
}
