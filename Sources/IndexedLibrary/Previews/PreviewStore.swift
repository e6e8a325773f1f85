import Foundation
import ImagePipeline

/// The previews of an indexed library's photos: small upright JPEGs (longest side
/// ``PreviewStore/longestSide``) made after the library is indexed, as PhotoKit makes thumbnails
/// after import, so that a cell's first image is a file read rather than a decode of a 12-MP
/// original (see ``IndexedLibrary/makePreviews(progress:)``; the index records which exist).
///
/// They are kept beside the index, in a folder named after it (`library.sqlite` has
/// `library-previews/`), never in the library and never in the rendition cache. One file per
/// asset version, `<2 hex>/<UUID>-<byte size>-<modification ns>.jpg`: a changed original no
/// longer finds the old preview (its new one replaces it) and a lookup is one open, with no
/// database on the image path. Files are written whole (into `.partial/`, then renamed into
/// place), so a reader never sees half of one; what a process killed mid-write left there is
/// removed by a later run (``removeLeftovers(now:)``).
public struct PreviewStore: Sendable {
    /// The folder holding the previews (made on the first write).
    public let folder: URL

    /// The longest side of a preview in pixels: a desktop grid cell (112–256 px) or a phone cell
    /// at 3x (372 px) gets a first image at once, and the sharp one after.
    public static let longestSide = 320
    /// JPEG quality of previews.
    public static let quality = 80

    public init(folder: URL) {
        self.folder = folder
    }

    /// The store of the index at `indexURL`: the folder `<index name>-previews` beside it.
    public init(besideIndexAt indexURL: URL) {
        let name = indexURL.deletingPathExtension().lastPathComponent
        self.init(folder: indexURL.deletingLastPathComponent().appendingPathComponent("\(name)-previews", isDirectory: true))
    }

    /// What names this folder among the machines that share one index (on PostgreSQL, where
    /// each records its own previews): the machine (its host name and `/etc/machine-id`) and
    /// the folder's path. Servers on one machine with one folder share it; two machines never
    /// do, even with the same path.
    public var placeKey: String {
        "\(Self.machineName) \(folder.standardizedFileURL.path)"
    }

    /// This machine's host name and, where it has one, its `/etc/machine-id`.
    private static let machineName: String = {
        let id = (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let host = ProcessInfo.processInfo.hostName
        return id.isEmpty ? host : "\(host)/\(id)"
    }()

    /// How long a partly written preview must have been left alone before it counts as a
    /// leftover: a write takes moments.
    public static let leftoverAge: TimeInterval = 3_600

    /// The folder previews are written into before they are renamed into place.
    var partialFolder: URL { folder.appendingPathComponent(".partial", isDirectory: true) }

    /// Where the preview of this version of an asset's file is (it may not exist).
    public func url(for version: SourceVersion) -> URL {
        folder.appendingPathComponent(String(version.assetKey.prefix(2)), isDirectory: true)
            .appendingPathComponent("\(version.assetKey)-\(version.byteSize)-\(version.modificationTime).jpg")
    }

    /// Whether the folder holding the previews is there (it is made on the first write; one
    /// removed by hand takes every preview with it).
    public var exists: Bool {
        access(folder.path, F_OK) == 0
    }

    /// Whether the preview of this version exists.
    public func contains(_ version: SourceVersion) -> Bool {
        access(url(for: version).path, F_OK) == 0
    }

    /// Stores `jpeg` as the preview of `version`, and removes the preview of the `previous`
    /// version of the asset's file, if it had one.
    public func store(_ jpeg: Data, for version: SourceVersion, replacing previous: SourceVersion? = nil) throws {
        let target = url(for: version)
        // The owner's alone, like the index beside it.
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(at: partialFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let partial = partialFolder.appendingPathComponent("\(UUID().uuidString).jpg")
        guard FileManager.default.createFile(atPath: partial.path, contents: jpeg, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot write a preview"])
        }
        guard rename(partial.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: partial)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot store a preview: \(reason)"])
        }
        if let previous, previous != version { remove(previous) }
    }

    /// Removes what writes that never finished left in `.partial/` (a process killed between a
    /// write and its rename), untouched for `leftoverAge` (an hour) before `now`; returns how many. One
    /// folder is read, however many previews there are.
    @discardableResult
    public func removeLeftovers(now: Date = Date()) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: partialFolder.path) else { return 0 }
        var removed = 0
        for name in names {
            let path = partialFolder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  Double(status.st_mtim.tv_sec) < now.timeIntervalSince1970 - Self.leftoverAge else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Removes the preview of `version`, if there is one.
    public func remove(_ version: SourceVersion) {
        unlink(url(for: version).path)
    }
}
