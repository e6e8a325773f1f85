import Foundation

/// A row of the corpus's MANIFEST.tsv (columns: file, group, source, license, bytes, notes).
public struct ManifestEntry: Sendable, CustomStringConvertible {
    /// Path relative to the corpus root, e.g. `A_camera_exif/jhead__sony.jpg`.
    public let file: String
    /// The corpus group letter (`A`, `B`, ...).
    public let group: String
    /// The notes column: parts separated by `|`, e.g. `… | EXIF: Make=X; Model=Y | Pillow…: JPEG 150x91 RGB`.
    public let notes: String
    /// The `EXIF:` part of the notes, as key/value pairs (`["Make": "X", "Model": "Y"]`).
    public let exif: [String: String]

    /// The file in the corpus.
    public var url: URL { Corpus.root.appendingPathComponent(file) }
    public var description: String { file }

    init?(line: Substring) {
        let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard columns.count >= 6 else { return nil }
        file = columns[0]
        group = columns[1]
        notes = columns[5]
        exif = Self.exifFields(inNotes: columns[5])
    }

    /// The pixel size the Pillow note gives (`JPEG 150x91 RGB`), the stored (not upright) size.
    public var notedStoredSize: (width: Int, height: Int)? {
        guard let pillow = notes.split(separator: "|").last(where: { $0.contains("Pillow") }) else { return nil }
        for word in pillow.split(separator: " ") {
            let parts = word.split(separator: "x")
            if parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) { return (width, height) }
        }
        return nil
    }

    private static func exifFields(inNotes notes: String) -> [String: String] {
        guard let part = notes.split(separator: "|").first(where: { $0.contains("EXIF:") }) else { return [:] }
        var fields: [String: String] = [:]
        for field in part.replacingOccurrences(of: "EXIF:", with: "").split(separator: ";") {
            let parts = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}

extension Corpus {
    /// Every row of MANIFEST.tsv; empty when the corpus is missing (see ``problem``).
    public static let manifest: [ManifestEntry] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap(ManifestEntry.init(line:))
    }()

    /// The manifest's rows for the files in `folder` (a group folder such as `A_camera_exif`),
    /// optionally only those with `pathExtension`.
    public static func manifest(inFolder folder: String, withExtension pathExtension: String? = nil) -> [ManifestEntry] {
        manifest.filter { entry in
            entry.file.hasPrefix(folder + "/") && (pathExtension.map { entry.file.hasSuffix("." + $0) } ?? true)
        }
    }

    /// The manifest's row for a corpus file, named by its group folder and name.
    public static func manifestEntry(for file: URL) -> ManifestEntry? {
        let key = file.deletingLastPathComponent().lastPathComponent + "/" + file.lastPathComponent
        return manifestByFile[key]
    }

    private static let manifestByFile: [String: ManifestEntry] = Dictionary(manifest.map { ($0.file, $0) }) { _, last in last }

    /// A field of the manifest's `EXIF:` notes for a file (e.g. `Model`, `GPS`), if noted.
    public static func exifField(_ name: String, of file: URL) -> String? {
        manifestEntry(for: file)?.exif[name]
    }

    /// The pixel size a manifest's Pillow note gives for a file (`JPEG 150x91 RGB`), stored size.
    public static func notedStoredSize(of file: URL) -> (width: Int, height: Int)? {
        manifestEntry(for: file)?.notedStoredSize
    }
}
