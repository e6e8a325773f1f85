import Foundation

/// The shared test corpus (`../shared/testdata` beside the package, or `$ASSETS_PICKER_TESTDATA`)
/// and what its MANIFEST says of each file.
public enum Corpus {
    /// The corpus folder: `$ASSETS_PICKER_TESTDATA`, else the first `shared/testdata` found
    /// beside the package or beside one of its parent folders (a CI clone may sit deeper).
    public static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["ASSETS_PICKER_TESTDATA"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        var folder = packageRoot.deletingLastPathComponent()
        while true {
            let candidate = folder.appendingPathComponent("shared/testdata", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("MANIFEST.tsv").path) { return candidate }
            if folder.path == "/" { break }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "/work/shared/testdata", isDirectory: true)
    }()

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

    /// The `notes` column of MANIFEST.tsv, by file path.
    public static let manifestNotes: [String: String] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else { return [:] }
        var notes: [String: String] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            if columns.count >= 6 { notes[String(columns[0])] = String(columns[5]) }
        }
        return notes
    }()

    /// A field of the manifest's `EXIF:` notes for a file (e.g. `Model`, `GPS`), if noted.
    public static func exifField(_ name: String, of file: URL) -> String? {
        let key = file.deletingLastPathComponent().lastPathComponent + "/" + file.lastPathComponent
        guard let notes = manifestNotes[key], let exif = notes.split(separator: "|").first(where: { $0.contains("EXIF:") }) else {
            return nil
        }
        let fields = exif.replacingOccurrences(of: "EXIF:", with: "").split(separator: ";")
        for field in fields {
            let parts = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == name { return parts[1] }
        }
        return nil
    }

    /// The pixel size a manifest's Pillow note gives for a file (`JPEG 150x91 RGB`), stored size.
    public static func notedStoredSize(of file: URL) -> (width: Int, height: Int)? {
        let key = file.deletingLastPathComponent().lastPathComponent + "/" + file.lastPathComponent
        guard let notes = manifestNotes[key], let pillow = notes.split(separator: "|").last(where: { $0.contains("Pillow") }) else {
            return nil
        }
        for word in pillow.split(separator: " ") {
            let parts = word.split(separator: "x")
            if parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) { return (width, height) }
        }
        return nil
    }
}
