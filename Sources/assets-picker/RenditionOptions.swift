import ArgumentParser
import AssetsKit

/// How a command renders: the cut, the encoding and its quality.
struct RenditionOptions: ParsableArguments {
    @Option(name: .long, help: "fit or fill.")
    var mode: ContentMode = .fit

    @Option(name: .long, help: "jpeg or webp.")
    var format: ImageFormat = .jpeg

    @Option(name: .long, help: "Encoder quality, 1 to 100.")
    var quality: Int = 85

    @Option(name: .long, help: "exact, or fast (coarser decoding where it is quicker).")
    var resizeMode: ResizeMode = .exact

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") }
    }
}
