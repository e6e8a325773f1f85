import Foundation

/// What a folder holds, to compare before and after a command.
enum TreeSnapshot {
    /// Every entry under `root` (hidden ones too) by relative path: kind, bytes of files,
    /// modification time. Equal before and after means nothing was added, removed or rewritten.
    static func of(_ root: URL) throws -> [String: String] {
        var entries: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let relative = walker?.nextObject() as? String {
            let url = root.appendingPathComponent(relative)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let kind = attributes[.type] as? FileAttributeType
            let bytes = kind == .typeRegular ? try Data(contentsOf: url).base64EncodedString() : ""
            let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            entries[relative] = "\(kind?.rawValue ?? "?") \(time) \(bytes)"
        }
        return entries
    }
}
