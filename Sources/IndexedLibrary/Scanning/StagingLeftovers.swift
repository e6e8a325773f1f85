import Foundation

/// Import copies left under their hidden staging name (`Imports/.import-*`) by a process that
/// ended mid-import. A scan never indexes them (hidden files are no part of the library); it
/// removes those untouched for an hour, since an import in progress writes its copy, flushes
/// it and gives it its name within moments.
enum StagingLeftovers {
    /// How long a staging file must have been left alone before a scan removes it.
    static let age: TimeInterval = 3_600

    /// Removes the staging files in `<root>/Imports` last modified more than ``age`` before
    /// `now`; returns how many. A file that cannot be removed is left for the next scan.
    @discardableResult
    static func remove(under root: URL, now: Date = Date()) -> Int {
        let folder = root.appendingPathComponent(LocalOriginalsStore.stagingFolder, isDirectory: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(LocalOriginalsStore.stagingPrefix) {
            let path = folder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  Double(status.st_mtim.tv_sec) < now.timeIntervalSince1970 - age else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }
}
