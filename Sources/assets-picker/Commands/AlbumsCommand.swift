import ArgumentParser
import AssetsKit

/// `albums`: every collection, the camera roll first, with counts and poster asset.
struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "albums", abstract: "List the albums, camera roll first.")

    @OptionGroup var options: LibraryOptions

    @Option(name: .long, help: "Count only photo, video or all assets.")
    var media: MediaFilter = .all

    struct Row: Encodable {
        let id: String
        let title: String
        let kind: CollectionKind
        let estimatedCount: Int?
        let count: Int
        let posterAssetId: String?
    }

    struct Output: Encodable {
        let library: String
        let backend: String
        let albums: [Row]
    }

    func run() async throws {
        let library = try await options.open()
        let rows = try await library.albumSummaries(filter: media).map { album in
            Row(id: album.collection.id.rawValue, title: album.collection.title, kind: album.collection.kind,
                estimatedCount: album.collection.estimatedAssetCount, count: album.count,
                posterAssetId: album.keyAsset?.id.description)
        }
        if options.json {
            try JSONOutput.print(Output(library: library.placeDescription, backend: library.backendName, albums: rows))
            return
        }
        say("The albums of \(library.placeDescription) (\(library.backendName) library): title, photos and videos, kind, id.")
        for row in rows {
            say("\(row.title.padding(toLength: 28, withPad: " ", startingAt: 0)) \(String(row.count).leftPadded(6))  \(Self.words(row.kind).padding(toLength: 11, withPad: " ", startingAt: 0))  \(row.id)")
        }
    }
}

extension AlbumsCommand {
    /// A collection's kind as words (`camera roll`, `smart album`), for the text; `--json` keeps the names.
    static func words(_ kind: CollectionKind) -> String {
        kind.rawValue.reduce(into: "") { text, character in
            if character.isUppercase { text += " " + character.lowercased() } else { text.append(character) }
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
