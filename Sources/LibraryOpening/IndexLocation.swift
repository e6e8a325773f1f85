import AssetsKit
import Foundation
import ImagePipeline
import S3Storage

/// Where a library's index lives, and whether one exists or can be made there.
///
/// A library in a bucket has its index in the data folder too, keyed by its address and endpoint
/// (``defaultURL(forBucket:endpoint:dataFolder:)``), with its previews and the originals fetched
/// beside it.
///
/// **The rule:** an index is never kept inside the library folder (unless `--index` puts it
/// there). Each library folder has its own index in the person's data folder,
/// `$XDG_DATA_HOME/assets-picker/libraries/<name>-<key>/library.sqlite` (`~/.local/share` when
/// `XDG_DATA_HOME` is unset), where `<name>` is the folder's own name and `<key>` a hash of its
/// real path (symbolic links resolved), so two folders with one name never share an index and
/// a camera card or a network share is never written to by browsing it. The folder library
/// keeps its cache of listings and metadata in the same folder (``folderCacheURL(forRoot:dataFolder:)``).
///
/// Permission bits are honoured even for the superuser: a folder marked read-only (no write
/// bit for its owner, group or others as they apply to this process) is treated as read-only
/// media, although root could write into it anyway.
public enum IndexLocation {
    /// The data folder of AssetsPicker: `$XDG_DATA_HOME/assets-picker`, else
    /// `~/.local/share/assets-picker`.
    public static func dataFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserFolders.data(environment: environment)
    }

    /// The index of the library at `root` when none is named:
    /// `<dataFolder>/libraries/<name>-<key>/library.sqlite`.
    public static func defaultURL(forRoot root: URL, dataFolder: URL = dataFolder()) -> URL {
        let path = realPath(of: root)
        return url(name: URL(fileURLWithPath: path).lastPathComponent, key: path, dataFolder: dataFolder)
    }

    /// The index of the library in a bucket, `location` at `endpoint`:
    /// `<dataFolder>/libraries/<bucket>-<key>/library.sqlite`, where `<key>` is a hash of the
    /// address and the endpoint (one bucket name on two services gets two indexes). The
    /// originals fetched and the previews are kept beside it.
    public static func defaultURL(forBucket location: S3Location, endpoint: URL, dataFolder: URL = dataFolder()) -> URL {
        let last = location.prefix.split(separator: "/").last.map { "-" + $0 } ?? ""
        return url(name: location.bucket + last, key: "\(location) \(endpoint.absoluteString)", dataFolder: dataFolder)
    }

    /// `<dataFolder>/libraries/<name>-<key>/library.sqlite`, `name` kept to 40 safe characters,
    /// `key` a hash of `identity`.
    private static func url(name: String, key identity: String, dataFolder: URL) -> URL {
        let safe = String(name.unicodeScalars.prefix(40).map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
        }).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        let key = String(FNV1a.hash(Array(identity.utf8)), radix: 16)
        return dataFolder.appendingPathComponent("libraries", isDirectory: true)
            .appendingPathComponent("\(safe.isEmpty ? "library" : safe)-\(String(repeating: "0", count: 16 - key.count))\(key)", isDirectory: true)
            .appendingPathComponent("library.sqlite")
    }

    /// The folder library's cache of listings and metadata for the library at `root`, in the
    /// same per-library folder as its index: `<dataFolder>/libraries/<name>-<key>/folder-cache`.
    /// Reading commands may write it (it is outside the library); it is never required.
    public static func folderCacheURL(forRoot root: URL, dataFolder: URL = dataFolder()) -> URL {
        defaultURL(forRoot: root, dataFolder: dataFolder).deletingLastPathComponent().appendingPathComponent("folder-cache")
    }

    /// `path` with symbolic links resolved, or as given (standardised) when it cannot be resolved.
    private static func realPath(of url: URL) -> String {
        guard let resolved = realpath(url.path, nil) else { return url.standardizedFileURL.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether an index exists at `url` (a regular file).
    public static func exists(at url: URL) -> Bool {
        var info = stat()
        return stat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether an index could be created at `url`: its folder exists and is writable, or can
    /// be made in the nearest existing, writable folder above it.
    public static func canCreate(at url: URL) -> Bool {
        var folder = url.deletingLastPathComponent().standardizedFileURL
        while true {
            var info = stat()
            if stat(folder.path, &info) == 0 {
                return (info.st_mode & S_IFMT) == S_IFDIR && isWritable(folder.path, info)
            }
            guard errno == ENOENT, folder.path != "/" else { return false }
            folder = folder.deletingLastPathComponent()
        }
    }

    private static func isWritable(_ path: String, _ info: stat) -> Bool {
        guard access(path, W_OK) == 0 else { return false }
        let bit: mode_t
        if info.st_uid == geteuid() {
            bit = S_IWUSR
        } else if info.st_gid == getegid() {
            bit = S_IWGRP
        } else {
            bit = S_IWOTH
        }
        return info.st_mode & bit != 0
    }
}
