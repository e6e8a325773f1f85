import ArgumentParser
import AssetsKit
import Foundation
import LibraryTree

/// `assets`: the assets of an album (default: the camera roll), filtered, sorted, paged.
struct AssetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "assets", abstract: "List the assets of an album.")

    @OptionGroup var options: LibraryOptions

    @Option(name: .long, help: "The album id (from `albums`); default: the camera roll.")
    var album: String?

    @Option(name: .long, help: "photo, video or all.")
    var media: MediaFilter = .all

    @Option(name: .long, help: "newest or oldest first, by creation date.")
    var sort: DateOrder = .newestFirst

    @Option(name: .long, help: "At most this many assets.")
    var limit: Int?

    @Option(name: .long, help: "Skip this many assets first.")
    var offset: Int = 0

    struct Output: Encodable {
        let album: String
        let count: Int
        let assets: [Asset]
        let skipped: [SkippedFile]
    }

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more") }
    }

    func run() async throws {
        let library = try await options.open()
        let collection: CollectionIdentifier
        if let album {
            collection = CollectionIdentifier(album)
        } else {
            collection = try await library.cameraRoll().id
        }
        let fetch = try await library.assets(in: collection, options: FetchOptions(
            mediaFilter: media, sortOrder: sort, limit: limit, offset: offset))
        var assets: [Asset] = []
        for try await asset in fetch { assets.append(asset) }
        let skipped = try await library.skippedFileReport?.skippedFiles(in: collection, filter: media) ?? []
        if options.json {
            try JSONOutput.print(Output(album: collection.rawValue, count: fetch.count, assets: assets, skipped: skipped))
            return
        }
        for asset in assets {
            let duration = asset.duration.map { " \(ReadableNumber.decimal($0, places: 1)) s" } ?? ""
            say("\(ISO8601.string(from: asset.creationDate, offset: asset.timeZoneOffset))  \(asset.mediaType.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0))  \(String(describing: asset.pixelSize).padding(toLength: 10, withPad: " ", startingAt: 0))  \(ReadableNumber.byteCount(asset.byteSize).leftPadded(8))\(duration)  \(asset.filename)  \(asset.id)")
        }
        for file in skipped {
            FileHandle.standardError.write(Data("skipped \(file.path): \(file.reason)\n".utf8))
        }
    }
}
