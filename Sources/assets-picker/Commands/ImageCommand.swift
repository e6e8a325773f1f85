import ArgumentParser
import AssetsKit
import Foundation

/// `image`: renders one asset for a target size and writes the final image.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Write an image of an asset for a target size.",
        discussion: "Prints the degraded answers received before the final one, which is written to --out.")

    @OptionGroup var options: LibraryOptions

    @Option(name: .long, help: "The asset id (UUID/L0/001 or assets-library://...).")
    var asset: AssetIdentifier

    @Option(name: .long, help: "Target size WxH, e.g. 256x256, or 'full' for full resolution.",
            transform: { text in
                if text == "full" { return PixelSize.maximum }
                guard let size = PixelSize(parsing: text) else { throw ValidationError("--size must be WxH with positive numbers, e.g. 256x256, or 'full'") }
                return size
            })
    var size: PixelSize

    @OptionGroup var rendition: RenditionOptions

    @Option(name: .long, help: "opportunistic, highQualityFormat or fastFormat.")
    var delivery: DeliveryMode = .opportunistic

    @Option(name: .long, help: "Where to write the final image: a new file or a regular file to replace.", transform: { URL(fileURLWithPath: $0) })
    var out: URL

    struct Answer: Encodable {
        let pixelWidth: Int
        let pixelHeight: Int
        let byteSize: Int
        let source: ImageSource

        init(_ result: ImageResult) {
            pixelWidth = result.pixelSize.width
            pixelHeight = result.pixelSize.height
            byteSize = result.data.count
            source = result.source
        }
    }

    struct Output: Encodable {
        let asset: String
        let out: String
        let format: ImageFormat
        let pixelWidth: Int
        let pixelHeight: Int
        let byteSize: Int
        let source: ImageSource
        let degradedAnswers: [Answer]
    }

    func run() async throws {
        let output = OutputFile(url: out)
        try output.checkReplaceable()
        let library = try await options.open()
        let target = try await library.asset(asset)
        let request = ImageRequest(targetSize: size, contentMode: rendition.mode, deliveryMode: delivery,
                                   resizeMode: rendition.resizeMode, format: rendition.format, quality: rendition.quality,
                                   isNetworkAccessAllowed: size == .maximum)
        var degraded: [Answer] = []
        var final: ImageResult?
        for try await result in library.image(for: target, request: request) {
            if result.isDegraded {
                degraded.append(Answer(result))
                if !options.json { say("First a quick \(Self.size(result.pixelSize)) image (\(result.source.rawValue)), \(ReadableNumber.byteCount(Int64(result.data.count))).") }
            } else {
                final = result
            }
        }
        guard let final else { throw LibraryError.unsupported("an image of \(target.filename)") }
        try output.write(final.data)
        if options.json {
            let answer = Answer(final)
            try JSONOutput.print(Output(asset: target.id.description, out: out.path, format: rendition.format,
                                        pixelWidth: answer.pixelWidth, pixelHeight: answer.pixelHeight,
                                        byteSize: answer.byteSize, source: answer.source, degradedAnswers: degraded))
        } else {
            say("Wrote the \(Self.size(final.pixelSize)) image (\(final.source.rawValue)), \(ReadableNumber.byteCount(Int64(final.data.count))), to \(out.path).")
        }
    }

    private static func size(_ size: PixelSize) -> String { "\(size.width) × \(size.height)" }
}
