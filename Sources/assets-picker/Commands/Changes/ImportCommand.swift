import ArgumentParser
import AssetsKit
import Foundation

/// `import FILE...`: copies files into the library's Imports folder and prints their new ids.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import photos and videos; prints each new asset's local identifier.",
        discussion: "Files are copied into <library>/Imports/YYYY/MM/ (the originals are only read), all in one transaction: if one cannot be imported, none is.")

    @OptionGroup var options: LibraryOptions

    @Argument(help: "The files to import.", completion: .file(), transform: { URL(fileURLWithPath: $0) })
    var files: [URL]

    @Option(name: .long, help: "Also add the imported assets to this album.")
    var album: String?

    func run() async throws {
        let album = album.map { CollectionIdentifier($0) }
        try ChangeOutput(try await options.perform(files.map { .importFile($0, intoAlbum: album) })).print(json: options.json)
    }
}
