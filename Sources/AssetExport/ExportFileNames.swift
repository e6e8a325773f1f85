import AssetsKit
import Foundation

/// Gives each exported asset its own file name in the export folder: the original's name
/// (with the rendition's extension), and " (2)", " (3)", ... when two assets share a name or
/// the folder already holds one. Claimed by the one task that hands out the exports.
struct ExportFileNames {
    let directory: URL
    private var claimed: Set<String> = []

    init(directory: URL) {
        self.directory = directory
    }

    mutating func claim(for asset: Asset, options: ExportOptions) -> URL {
        let base = (asset.filename as NSString).deletingPathExtension
        let ext = options.original || asset.mediaType == .video
            ? (asset.filename as NSString).pathExtension
            : options.format.fileExtension
        var attempt = 1
        while true {
            let suffix = attempt == 1 ? "" : " (\(attempt))"
            let name = ext.isEmpty ? base + suffix : "\(base)\(suffix).\(ext)"
            let url = directory.appendingPathComponent(name)
            if !claimed.contains(name) && !FileManager.default.fileExists(atPath: url.path) {
                claimed.insert(name)
                return url
            }
            attempt += 1
        }
    }
}
