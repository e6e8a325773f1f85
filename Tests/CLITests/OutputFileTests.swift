import Foundation
import Testing
import TestSupport

/// `image --out` writes a new file or replaces a regular one; nothing else at that path is touched.
@Suite("image --out refuses what is not a regular or new file")
struct OutputFileTests {
    private static let asset = "A_camera_exif/goexif__sample1.jpg"

    private func image(to out: String) async throws -> CLIResult {
        let id = try await CorpusLibrary.assetID(of: Self.asset)
        return try await CorpusLibrary.run("image", ["--asset", id, "--size", "64x64", "--out", out])
    }

    private func expectRefused(_ result: CLIResult, saying kind: String) {
        #expect(result.status != 0, "\(result)")
        #expect(result.stderrLines.count == 1, "one line: \(result.stderrText)")
        #expect(result.stderrText.contains(kind), "\(result.stderrText)")
    }

    @Test("--out /dev/full is refused and /dev/full stays a character device")
    func device() async throws {
        expectRefused(try await image(to: "/dev/full"), saying: "a device")
        var status = stat()
        #expect(lstat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("--out naming a FIFO is refused and the FIFO stays")
    func fifo() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pipe.jpg").path
        try #require(mkfifo(path, 0o600) == 0)
        expectRefused(try await image(to: path), saying: "a FIFO")
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("--out naming a directory is refused")
    func directory() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        expectRefused(try await image(to: folder.path), saying: "a directory")
    }

    @Test("--out naming a symbolic link is refused; neither the link nor its target change")
    func symbolicLink() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("elsewhere.txt"), link = folder.appendingPathComponent("link.jpg")
        try Data("keep me".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        expectRefused(try await image(to: link.path), saying: "a symbolic link")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["elsewhere.txt", "link.jpg"],
                "no temporary file is left")
    }

    @Test("--out naming a regular file replaces it whole with the image")
    func regularFile() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("old.jpg")
        try Data(repeating: 7, count: 100_000).write(to: out)
        let result = try await image(to: out.path)
        #expect(result.status == 0, "\(result)")
        let data = try Data(contentsOf: out)
        #expect(data.prefix(2) == Data([0xFF, 0xD8]) && ImageFileProbe.jpegSize(data) != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["old.jpg"])
    }
}
