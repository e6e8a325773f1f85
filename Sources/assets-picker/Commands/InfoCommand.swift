import ArgumentParser
import AssetsKit
import Foundation

/// `info`: everything known about one asset.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Show everything known about an asset.",
        discussion: "In sentences with rounded numbers; --json gives every value exactly, as the library holds it.")

    @OptionGroup var options: LibraryOptions

    @Option(name: .long, help: "The asset id (UUID/L0/001 or assets-library://...).")
    var asset: AssetIdentifier

    struct Output: Encodable {
        let asset: Asset
        let localIdentifier: String
        let originalPath: String
        let contentType: String

        enum Keys: String, CodingKey { case localIdentifier, originalPath, contentType }

        func encode(to encoder: Encoder) throws {
            try asset.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(localIdentifier, forKey: .localIdentifier)
            try container.encode(originalPath, forKey: .originalPath)
            try container.encode(contentType, forKey: .contentType)
        }
    }

    func run() async throws {
        let library = try await options.open()
        let found = try await library.asset(asset)
        let original = try await library.originalFile(for: found)
        let output = Output(asset: found, localIdentifier: found.id.localIdentifier.description,
                            originalPath: original.file.resolvedPath, contentType: original.contentType)
        if options.json {
            try JSONOutput.print(output)
            return
        }
        let description = AssetDescription(asset: found, localIdentifier: output.localIdentifier,
                                           originalPath: output.originalPath, contentType: output.contentType)
        for line in description.lines { say(line) }
    }
}
