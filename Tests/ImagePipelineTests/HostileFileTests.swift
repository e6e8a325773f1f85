import AssetsKit
import Foundation
import ImageMetadata
import ImagePipeline
import MediaProbing
import Testing
import TestSupport

@Suite("Hostile files: a clear error or a safe fallback, never a crash, hang or runaway")
struct HostileFileTests {
    static let files = Corpus.files(in: "D_hostile")
    let reader = MediaMetadataReader(now: { ISO8601.date(from: "2026-11-22T00:00:00Z")! })

    @Test("the corpus is all there")
    func corpusPresent() {
        #expect(Corpus.problem == nil, "\(Corpus.problem ?? "")")
        #expect(Self.files.count == 31)
    }

    /// A hang is work that does not end. The decoding attempts run one after another on a
    /// thread of their own (off the cooperative pool) with no suspension between them, so that
    /// thread's CPU time, which the tests running beside it do not inflate, measures them:
    /// under 2 s per file. The metadata read is bounded by the suite's time limit, a hang guard.
    @Test("every hostile file is read, rendered and decoded with a typed error or a result", .timeLimit(.minutes(10)),
          arguments: files)
    func hostile(_ file: URL) async throws {
        let cpuSeconds = await offCooperativePool {
            ThreadCPUTime.measure {
                for attempt in Attempt.allCases {
                    expectTypedError(from: file, attempt) { try attempt.run(on: file, renderer: reader.renderer) }
                }
            }.seconds
        }
        #expect(cpuSeconds < 2, "\(file.lastPathComponent) took \(cpuSeconds) s of CPU")
        do {
            _ = try await reader.read(file, as: .photo)
        } catch let error as ImagePipelineError {
            #expect(error.description.contains(file.lastPathComponent), "metadata: \(error)")
        } catch {
            Issue.record("metadata of \(file.lastPathComponent) threw an untyped error: \(error)")
        }
        #expect(PeakMemory.residentMegabytes() < 1_500, "memory ran away")
    }

    func expectTypedError(from file: URL, _ attempt: Attempt, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as ImagePipelineError {
            #expect(error.description.contains(file.lastPathComponent), "\(attempt): \(error)")
        } catch {
            Issue.record("\(attempt) on \(file.lastPathComponent) threw an untyped error: \(error)")
        }
    }

    @Test("decompression bombs are refused from the header, before decoding", arguments: [
        "D_hostile/pillow__decompression_bomb.gif", "D_hostile/libheif__github_46_2.heic",
    ])
    func bombsRefused(_ name: String) async throws {
        let file = Corpus.file(name)
        do {
            _ = try reader.renderer.render(file, size: PixelSize(width: 256, height: 256), mode: .fit, format: .jpeg, quality: 80)
            Issue.record("a bomb rendered")
        } catch let error as ImagePipelineError {
            switch error {
            case .tooManyPixels(_, let pixels, let limit): #expect(pixels > limit)
            case .undecodable(_, let reason): #expect(!reason.isEmpty) // libheif refuses it in the header already
            default: Issue.record("unexpected \(error)")
            }
        }
    }

    @Test("a lower pixel limit refuses an ordinary photo with a message naming the limit")
    func configurableLimit() throws {
        let renderer = ImageRenderer(configuration: PipelineConfiguration(maxPixels: 10_000))
        let file = Corpus.file("A_camera_exif/goexif__sample1.jpg")
        #expect(throws: ImagePipelineError.tooManyPixels(file: file.path, pixels: 500 * 375, limit: 10_000)) {
            try renderer.render(file, size: PixelSize(width: 64, height: 64), mode: .fit, format: .jpeg, quality: 80)
        }
    }

    @Test("impossible EXIF dates fall back: no creation date is taken from them", arguments: [
        "D_hostile/jhead__badyear.jpg", "D_hostile/jhead__verizon.jpg",
    ])
    func impossibleDates(_ name: String) async throws {
        let metadata = try await reader.read(Corpus.file(name), as: .photo)
        #expect(metadata.creationDate == nil)
    }

    /// The synchronous things done with a file.
    enum Attempt: CaseIterable {
        case header, embeddedThumbnail, thumbnail, fullResolution

        func run(on file: URL, renderer: ImageRenderer) throws {
            switch self {
            case .header: _ = try renderer.header(of: file)
            case .embeddedThumbnail: _ = try EmbeddedThumbnail.extract(fromJPEGAt: file)
            case .thumbnail: _ = try renderer.render(file, size: PixelSize(width: 256, height: 256), mode: .fill, format: .jpeg, quality: 80)
            case .fullResolution: _ = try renderer.fullResolution(file, format: .webp, quality: 80)
            }
        }
    }
}

/// The process's peak resident memory, from /proc.
enum PeakMemory {
    static func residentMegabytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return kilobytes / 1024
    }
}
