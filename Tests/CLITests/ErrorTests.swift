import Foundation
import Testing
import TestSupport

/// One way to call the CLI wrongly, and what its error message must name.
struct BadCall: Sendable, CustomTestStringConvertible {
    let name: String
    /// The arguments after the subcommand; `{sample}` is a valid asset id, `{out}` an output file.
    let arguments: [String]
    /// Words the first stderr line must contain (case-insensitive).
    let mentions: [String]

    var testDescription: String { name }

    static let unusedUUID = "0A1B2C3D-0000-4000-8000-00000000CAFE"
    static let unknownAsset = "assets-library://asset/asset.JPG?id=\(unusedUUID)&ext=JPG"
    static let unknownAlbum = "assets-library://group/?id=\(unusedUUID)"
    static let missingLibrary = "/nonexistent/assets-picker-tests/library"

    static let all: [BadCall] = [
        BadCall(name: "info: unknown asset id", arguments: ["info", "--library", "{corpus}", "--asset", unknownAsset],
                mentions: ["no asset", unusedUUID]),
        BadCall(name: "image: unknown asset id",
                arguments: ["image", "--library", "{corpus}", "--asset", unknownAsset, "--size", "10x10", "--out", "{out}"],
                mentions: ["no asset", unusedUUID]),
        BadCall(name: "image: --out into a folder that does not exist",
                arguments: ["image", "--library", "{corpus}", "--asset", "{sample}", "--size", "10x10", "--out", missingLibrary + "/thumb.jpg"],
                mentions: ["the folder \(missingLibrary) does not exist", "make it first"]),
        BadCall(name: "info: malformed asset id", arguments: ["info", "--library", "{corpus}", "--asset", "../../etc/passwd"],
                mentions: ["../../etc/passwd", "--asset"]),
        BadCall(name: "image: --size 0x10",
                arguments: ["image", "--library", "{corpus}", "--asset", "{sample}", "--size", "0x10", "--out", "{out}"],
                mentions: ["--size", "0x10"]),
        BadCall(name: "image: --quality 500",
                arguments: ["image", "--library", "{corpus}", "--asset", "{sample}", "--size", "10x10", "--quality", "500", "--out", "{out}"],
                mentions: ["--quality", "1 and 100"]),
        BadCall(name: "albums: --library that does not exist", arguments: ["albums", "--library", missingLibrary],
                mentions: [missingLibrary, "cannot read"]),
        BadCall(name: "assets: --library that does not exist", arguments: ["assets", "--library", missingLibrary],
                mentions: [missingLibrary, "cannot read"]),
        BadCall(name: "assets: --album id that does not exist", arguments: ["assets", "--library", "{corpus}", "--album", unknownAlbum],
                mentions: ["no album", unknownAlbum]),
        BadCall(name: "index: no library folder", arguments: ["index"], mentions: ["--library"]),
        BadCall(name: "index: two different library folders", arguments: ["index", "{corpus}", "--library", missingLibrary],
                mentions: ["once", missingLibrary]),
        BadCall(name: "serve: the client key on the command line, where ps shows it",
                arguments: ["serve", "--library", "{corpus}", "--client-key", "cli-key-0123456789abcdef"],
                mentions: ["ps", "--client-key-file", "ASSETS_PICKER_CLIENT_KEY"]),
        BadCall(name: "serve: --client-key-file that cannot be read",
                arguments: ["serve", "--library", "{corpus}", "--client-key-file", missingLibrary + "/key"],
                mentions: ["--client-key-file", "cannot be read"]),
        BadCall(name: "serve: no render a session may wait for",
                arguments: ["serve", "--library", "{corpus}", "--renders-per-session", "0"],
                mentions: ["--renders-per-session", "more than 0"]),
    ]
}

@Suite("assets-picker errors")
struct ErrorTests {
    @Test("a bad call exits non-zero, names the problem on the first stderr line, writes nothing to stdout or --out",
          arguments: BadCall.all)
    func badCall(_ call: BadCall) async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.jpg")
        var arguments: [String] = []
        for argument in call.arguments {
            switch argument {
            case "{corpus}": arguments.append(Corpus.root.path)
            case "{out}": arguments.append(out.path)
            case "{sample}": arguments.append(try await CorpusLibrary.assetID(of: "A_camera_exif/goexif__sample1.jpg"))
            default: arguments.append(argument)
            }
        }
        let result = try await CLI.run(arguments + ["--json"])

        #expect(result.status != 0, "\(result)")
        #expect(!result.timedOut)
        #expect(result.stdout.isEmpty, "nothing on stdout: \(result.stdoutText)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "no output file")

        let lines = result.stderrLines
        let first = try #require(lines.first, "an error message on stderr")
        #expect(first.hasPrefix("Error: "), "\(first)")
        for word in call.mentions {
            #expect(first.localizedCaseInsensitiveContains(word), "\"\(first)\" should mention \(word)")
        }
        // The message is one line; ArgumentParser may add its usage hints below it, nothing else.
        for line in lines.dropFirst() {
            #expect(["Help:", "Usage:", " "].contains { line.hasPrefix($0) }, "unexpected stderr line: \(line)")
        }
    }
}
