import AssetsKit
import Foundation
import ImagePipeline
import Testing
import TestSupport

@Suite("PngSuite: valid files decode, corrupt ones are refused")
struct PngSuiteTests {
    let renderer = ImageRenderer()

    static let valid = Corpus.files(in: "C_pngsuite") { !$0.lastPathComponent.hasPrefix("x") }
    static let corrupt = Corpus.files(in: "C_pngsuite") { $0.lastPathComponent.hasPrefix("x") }

    @Test("the corpus is all there")
    func corpusPresent() {
        #expect(Self.valid.count >= 90)
        #expect(Self.corrupt.count == 8)
    }

    @Test("every valid PngSuite file decodes at its own size", arguments: valid)
    func validDecodes(_ file: URL) async throws {
        try await offCooperativePool {
            let result = try renderer.render(file, size: PixelSize(width: 64, height: 64), mode: .fit, format: .jpeg, quality: 90)
            let noted = try #require(Corpus.notedStoredSize(of: file))
            #expect(result.pixelSize == PixelSize(width: noted.width, height: noted.height))
        }
    }

    @Test("every corrupt x*.png is refused with an error naming the file", arguments: corrupt)
    func corruptRefused(_ file: URL) {
        do {
            _ = try renderer.render(file, size: PixelSize(width: 64, height: 64), mode: .fit, format: .jpeg, quality: 90)
            Issue.record("\(file.lastPathComponent) decoded")
        } catch let error as ImagePipelineError {
            #expect(error.description.contains(file.lastPathComponent))
            switch error {
            case .undecodable, .unsupportedFormat: break
            default: Issue.record("unexpected \(error)")
            }
        } catch {
            Issue.record("untyped error \(error)")
        }
    }
}
