import AssetsKit
import Foundation
import ImageMetadata
import ImagePipeline
import MediaProbing
import Testing
import TestSupport

/// The native JPEG header reader gives libvips' answers: the same metadata for every file of
/// the corpus, and no answer at all for a file libvips refuses or sees differently.
@Suite("Native JPEG headers: libvips' answers, faster")
struct NativeJPEGHeaderTests {
    static let groups = ["A_camera_exif", "B_orientation", "C_pngsuite", "D_hostile", "E_formats"]
    static let photos = groups.flatMap { Corpus.files(in: $0) { MediaFileType.mediaType(ofFileNamed: $0.lastPathComponent) == .photo } }
    static let cameraJPEGs = (Corpus.files(in: "A_camera_exif") + Corpus.files(in: "B_orientation")).filter { $0.pathExtension == "jpg" }

    static let now: @Sendable () -> Date = { ISO8601.date(from: "2026-11-22T00:00:00Z")! }
    let native = MediaMetadataReader(now: now)
    let reference = MediaMetadataReader(now: now, readsJPEGNatively: false)

    @Test("every corpus photo: the same metadata (upright size, date, offset, GPS, make/model, thumbnail) or the same error as libvips alone", arguments: photos)
    func sameMetadata(_ file: URL) async {
        let fast = await Result { try await native.read(file, as: .photo) }
        let slow = await Result { try await reference.read(file, as: .photo) }
        switch (fast, slow) {
        case let (.success(fast), .success(slow)):
            #expect(fast == slow)
        case let (.failure(fast), .failure(slow)):
            // The same kind of error; the reasons come from libvips' one error buffer, which
            // concurrent tests share, so their wording is not compared.
            #expect(Self.kind(of: fast) == Self.kind(of: slow), "\(file.lastPathComponent): native \(fast), libvips \(slow)")
        default:
            Issue.record("\(file.lastPathComponent): native \(fast), libvips \(slow)")
        }
    }

    @Test("every corpus file the native reader vouches for: libvips reads it with the same stored size and EXIF block", arguments: photos)
    func vouchedHeadersAgree(_ file: URL) async throws {
        try await offCooperativePool {
            try expectAgreement(file)
        }
    }

    @Test("the camera JPEGs are all read natively, with their EXIF")
    func cameraPhotosAreVouchedFor() async throws {
        try await offCooperativePool {
            #expect(Self.cameraJPEGs.count == 25)
            for file in Self.cameraJPEGs {
                let header = try #require(try JPEGHeader.read(contentsOf: file), "\(file.lastPathComponent)")
                #expect(header.exif != nil, "\(file.lastPathComponent)")
            }
        }
    }

    @Test("seeded damage (truncations, flipped header bytes): never a crash, and never an answer libvips would not give")
    func damagedHeaders() async throws {
        try await offCooperativePool {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-damage-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            var random = SeededGenerator(seed: 4_2024)
            var vouched = 0
            for round in 0..<240 {
                let source = try Data(contentsOf: Self.cameraJPEGs[round % Self.cameraJPEGs.count])
                var bytes = [UInt8](source)
                let headerEnd = min(bytes.count, Self.firstScan(in: bytes) ?? 4_096)
                if round % 3 == 0 {
                    bytes.removeLast(bytes.count - Int(random.next() % UInt64(headerEnd + 16)))
                } else {
                    for _ in 0..<(1 + random.next() % 3) {
                        bytes[Int(random.next() % UInt64(headerEnd))] = UInt8(truncatingIfNeeded: random.next())
                    }
                }
                // Each damaged file has its own name: libvips caches what it read by file name.
                let file = folder.appendingPathComponent("damaged-\(round).jpg")
                try Data(bytes).write(to: file)
                if try expectAgreement(file) { vouched += 1 }
            }
            #expect(vouched > 0, "no damaged file left a header the native reader reads, so nothing was compared")
        }
    }

    @Test("a file that cannot be opened: an error naming it")
    func unreadable() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).jpg")
        #expect { try JPEGHeader.read(contentsOf: missing) } throws: { error in
            "\(error)".contains(missing.path) && "\(error)".contains("No such file")
        }
    }

    /// When the native reader answers for `file`, libvips reads it too, with the same stored
    /// size and the same EXIF bytes. Returns whether the native reader answered.
    @discardableResult
    private func expectAgreement(_ file: URL) throws -> Bool {
        guard let header = try JPEGHeader.read(contentsOf: file) else { return false }
        let libvips: ImageHeader
        do {
            libvips = try reference.renderer.header(of: file)
        } catch {
            Issue.record("\(file.lastPathComponent): read natively as \(header.width)x\(header.height), but libvips refuses it: \(error)")
            return true
        }
        #expect(libvips.format == "jpeg", "\(file.lastPathComponent)")
        #expect(libvips.storedSize == PixelSize(width: header.width, height: header.height), "\(file.lastPathComponent)")
        #expect(libvips.exif == header.exif, "\(file.lastPathComponent)")
        return true
    }

    /// An error's type and enum case, e.g. `ImagePipelineError.undecodable`.
    private static func kind(of error: any Error) -> String {
        "\(type(of: error)).\(Mirror(reflecting: error).children.first?.label ?? "\(error)")"
    }

    /// The offset of the first SOS marker of a well-formed JPEG.
    private static func firstScan(in bytes: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            if bytes[offset + 1] == 0xDA { return offset }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return nil
    }
}

private extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
