import Foundation
import TestSupport

/// The shared test corpus opened with `--library`, and lookups other tests build on. The
/// album list is asked for once per test run and shared; each test still runs its own command.
enum CorpusLibrary {
    static var path: String { Corpus.root.path }

    /// Runs `assets-picker command --json --library <corpus> extra...`.
    static func run(_ command: String, _ extra: [String] = []) async throws -> CLIResult {
        try await CLI.run([command, "--json", "--library", path] + extra)
    }

    /// Album id by title, from `albums --json`.
    private static let albumIDs = Task<[String: String], any Error> {
        let result = try await run("albums")
        guard result.status == 0 else { throw FixtureError.commandFailed(result) }
        var ids: [String: String] = [:]
        for album in try result.json().objects("albums") {
            ids[try album.string("title")] = try album.string("id")
        }
        return ids
    }

    static func albumID(_ title: String) async throws -> String {
        guard let id = try await albumIDs.value[title] else { throw FixtureError.missing("album \(title)") }
        return id
    }

    /// The assets `assets --json --album <title> extra...` lists.
    static func assets(inAlbum title: String, _ extra: [String] = []) async throws -> [JSONObject] {
        let result = try await run("assets", ["--album", try await albumID(title)] + extra)
        guard result.status == 0 else { throw FixtureError.commandFailed(result) }
        return try result.json().objects("assets")
    }

    /// The id the CLI gives a corpus file, e.g. `A_camera_exif/goexif__sample1.jpg`.
    static func assetID(of relativePath: String) async throws -> String {
        let parts = relativePath.split(separator: "/").map(String.init)
        guard parts.count == 2 else { throw FixtureError.missing(relativePath) }
        guard let asset = try await assets(inAlbum: parts[0]).first(where: { (try? $0.string("filename")) == parts[1] }) else {
            throw FixtureError.missing("asset \(relativePath)")
        }
        return try asset.string("id")
    }
}

enum FixtureError: Error, CustomStringConvertible {
    case commandFailed(CLIResult)
    case missing(String)

    var description: String {
        switch self {
        case .commandFailed(let result): "command failed: \(result)"
        case .missing(let what): "not found: \(what)"
        }
    }
}

/// A fresh temporary folder for one test's output files.
func makeScratchFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-test-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
