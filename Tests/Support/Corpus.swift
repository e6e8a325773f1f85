import Foundation

/// The shared test corpus (`../shared/testdata` beside the package, or `$ASSETS_PICKER_TESTDATA`)
/// and what its MANIFEST says of each file.
public enum Corpus {
    /// The corpus folder: `$ASSETS_PICKER_TESTDATA`, else the first `shared/testdata` found
    /// beside the package or beside one of its parent folders (a CI clone may sit deeper).
    /// When there is none, the place it is expected (`../shared/testdata` beside the package):
    /// ``problem`` then says where it was looked for, and the tests that read it fail.
    public static let root: URL = {
        switch location {
        case .found(let folder): return folder
        case .missing(let expected, _): return expected
        }
    }()

    /// Why the corpus cannot be used (where it was looked for, how to point at it), or `nil`
    /// when it was found. Each test target that reads the corpus fails a test with it.
    public static var problem: String? {
        if case .missing(_, let message) = location { return message }
        return nil
    }

    private enum Location {
        case found(URL)
        case missing(expected: URL, message: String)
    }

    private static let location: Location = {
        let manifest = "MANIFEST.tsv"
        if let path = ProcessInfo.processInfo.environment["ASSETS_PICKER_TESTDATA"], !path.isEmpty {
            let folder = URL(fileURLWithPath: path, isDirectory: true)
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(manifest).path) { return .found(folder) }
            return missing(expected: folder, "ASSETS_PICKER_TESTDATA is \(path), which holds no \(manifest)")
        }
        var looked: [String] = []
        var folder = packageRoot.deletingLastPathComponent()
        while true {
            let candidate = folder.appendingPathComponent("shared/testdata", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(manifest).path) { return .found(candidate) }
            looked.append(candidate.path)
            if folder.path == "/" { break }
            folder.deleteLastPathComponent()
        }
        let expected = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/testdata", isDirectory: true)
        return missing(expected: expected, "no \(manifest) in \(looked.joined(separator: ", "))")
    }()

    private static func missing(expected: URL, _ reason: String) -> Location {
        let message = "test corpus not found: \(reason); put the corpus at ../shared/testdata beside the package "
            + "or set ASSETS_PICKER_TESTDATA to its folder"
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return .missing(expected: expected, message: message)
    }

    /// The folder holding Package.swift.
    public static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The files of one corpus group folder (e.g. `B_orientation`), sorted by name.
    public static func files(in group: String, where include: (URL) -> Bool = { _ in true }) -> [URL] {
        let folder = root.appendingPathComponent(group, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }.filter(include)
    }

    /// One corpus file by its path inside the corpus, e.g. `A_camera_exif/jhead__sony.jpg`.
    public static func file(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}
