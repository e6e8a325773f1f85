import Foundation
import LibraryOpening
import TestSupport

/// A writable copy of the shared corpus' media folders in a temporary folder.
struct CorpusCopy {
    static let groups = ["A_camera_exif", "B_orientation", "C_pngsuite", "D_hostile", "E_formats"]
    let root: URL

    init() throws {
        root = try makeScratchFolder().appendingPathComponent("library", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for group in Self.groups {
            try FileManager.default.copyItem(at: Corpus.root.appendingPathComponent(group), to: root.appendingPathComponent(group))
        }
    }

    var path: String { root.path }
    /// Where the CLI keeps the copy's index when `--index` is not given: in the test run's data folder.
    var defaultIndex: URL { IndexLocation.defaultURL(forRoot: root, dataFolder: CLI.dataHome.appendingPathComponent("assets-picker")) }

    /// Runs `assets-picker command --json --library <copy> extra...`.
    func run(_ command: String, _ extra: [String] = [], launcher: [String] = []) async throws -> CLIResult {
        try await CLI.run([command, "--json", "--library", path] + extra, launcher: launcher)
    }

    /// The album id of a folder of the copy, as a backend lists it.
    func albumID(_ title: String, backend: String) async throws -> String {
        let result = try await run("albums", ["--backend", backend])
        guard result.status == 0 else { throw FixtureError.commandFailed(result) }
        guard let album = try result.json().objects("albums").first(where: { try $0.string("kind") == "directory" && $0.string("title") == title }) else {
            throw FixtureError.missing("album \(title) from the \(backend) backend")
        }
        return try album.string("id")
    }

    func remove() {
        try? FileManager.default.removeItem(at: defaultIndex.deletingLastPathComponent())
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
    }
}

/// The UUID an asset id carries, in either form (`UUID/L0/001` or `assets-library://...?id=UUID&ext=...`).
func assetUUID(_ id: String) -> String {
    if let components = URLComponents(string: id), let uuid = components.queryItems?.first(where: { $0.name == "id" })?.value {
        return uuid
    }
    return String(id.prefix { $0 != "/" })
}
