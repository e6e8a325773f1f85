import Foundation
import TestSupport

/// The shared real-file corpus (`../shared/testdata` beside the package, or
/// `$ASSETS_PICKER_TESTDATA`) and its MANIFEST.tsv.
enum TestCorpus {
    struct Entry: Sendable, CustomStringConvertible {
        /// Path relative to the corpus root, e.g. `A_camera_exif/jhead__sony.jpg`.
        let file: String
        let group: String
        /// The `EXIF:` part of the notes column, as key/value pairs.
        let exif: [String: String]

        var url: URL { TestCorpus.root.appendingPathComponent(file) }
        var description: String { file }
    }

    static let root = Corpus.root

    /// All manifest rows; empty if the manifest is missing (the corpus test then fails).
    static let entries: [Entry] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 6 else { return nil }
            return Entry(file: columns[0], group: columns[1], exif: exifFields(inNotes: columns[5]))
        }
    }()

    static func entries(inFolder folder: String, withExtension pathExtension: String? = nil) -> [Entry] {
        entries.filter { entry in
            entry.file.hasPrefix(folder + "/") && (pathExtension.map { entry.file.hasSuffix("." + $0) } ?? true)
        }
    }

    /// Parses `… | EXIF: Make=X; Model=Y; … | …` into `["Make": "X", "Model": "Y", …]`.
    private static func exifFields(inNotes notes: String) -> [String: String] {
        guard let part = notes.components(separatedBy: " | ").first(where: { $0.hasPrefix("EXIF: ") }) else { return [:] }
        var fields: [String: String] = [:]
        for field in part.dropFirst("EXIF: ".count).components(separatedBy: "; ") {
            guard let equals = field.firstIndex(of: "=") else { continue }
            fields[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        return fields
    }
}
