import ArgumentParser
import AssetsKit
import Foundation
import ImagePipeline

/// `assets-picker-bench render-once FILE`: one render of FILE as the server makes it (a
/// thumbnail, a rendition, or the full-size JPEG `=d` falls back to), written to `--output`.
/// The memory benchmark measures its peak RSS.
struct RenderOnceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-once", abstract: "Render one file once, as the server does.", shouldDisplay: false)

    @Argument(help: "The original.", transform: { URL(fileURLWithPath: $0) })
    var file: URL

    // Not `--size`: the benchmark's own `--size` (the corpus' photo size) would take it.
    @Option(help: "The box, WIDTHxHEIGHT; omit for the full-size JPEG.", transform: { text in
        guard let size = PixelSize(parsing: text) else { throw ValidationError("expected WIDTHxHEIGHT") }
        return size
    })
    var box: PixelSize?

    @Flag(help: "Fill the box (centre crop) rather than fit in it.")
    var fill = false

    @Option(help: "Where the JPEG goes.", transform: { URL(fileURLWithPath: $0) })
    var output: URL

    func run() throws {
        ImageRenderer.limitMallocArenas(to: 2)
        let renderer = ImageRenderer()
        let result = if let box {
            try renderer.render(file, size: box, mode: fill ? .fill : .fit, format: .jpeg, quality: 80)
        } else {
            try renderer.fullResolution(file, format: .jpeg, quality: 80)
        }
        try result.data.write(to: output)
    }
}
