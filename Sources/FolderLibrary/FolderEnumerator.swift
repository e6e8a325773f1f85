import AssetsKit
import Foundation
import ImagePipeline

/// A media file found in the tree, with what `stat` says of it.
struct FileEntry: Sendable, Hashable {
    /// Path from the library root, components joined with `/`.
    let relativePath: String
    /// The directory holding the file, relative to the root (empty for the root itself).
    let directory: String
    let url: URL
    let mediaType: MediaType
    let byteSize: Int64
    let modificationDate: Date

    var filename: String { url.lastPathComponent }

    /// The entry for a regular media file; `nil` for anything else.
    init?(relativePath: String, root: URL, status: stat) {
        guard (status.st_mode & S_IFMT) == S_IFREG,
              let type = MediaFileType.mediaType(ofFileNamed: (relativePath as NSString).lastPathComponent) else { return nil }
        self.relativePath = relativePath
        self.directory = (relativePath as NSString).deletingLastPathComponent
        self.url = URL(fileURLWithPath: root.path + "/" + relativePath, isDirectory: false)
        self.mediaType = type
        self.byteSize = Int64(status.st_size)
        self.modificationDate = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }
}

/// A file or folder the enumeration passed over, and why.
public struct SkippedFile: Sendable, Hashable, Codable {
    /// The path relative to the library root.
    public var path: String
    public var reason: String
}

/// Walks a folder tree live with POSIX calls, so that nothing in the tree stops the walk: an
/// unreadable folder, a file deleted mid-walk, a symbolic-link loop, a name that is not UTF-8,
/// a FIFO named like a photo. Each of those is reported and passed over. Hidden files and
/// folders (a leading dot, e.g. an index folder) are not part of the library.
struct FolderEnumerator {
    let root: URL

    /// Every media file under the root, in directory order, and what was passed over.
    func enumerate() throws -> (files: [FileEntry], skipped: [SkippedFile]) {
        var rootStatus = stat()
        guard stat(root.path, &rootStatus) == 0, (rootStatus.st_mode & S_IFMT) == S_IFDIR else {
            throw LibraryError.accessDenied(path: root.path, reason: "not a readable folder")
        }
        var files: [FileEntry] = []
        var skipped: [SkippedFile] = []
        var visited: Set<DirectoryKey> = [DirectoryKey(rootStatus)]
        var pending: [String] = [""]
        while let directory = pending.popLast() {
            let directoryPath = directory.isEmpty ? root.path : root.path + "/" + directory
            guard let handle = opendir(directoryPath) else {
                if directory.isEmpty { throw LibraryError.accessDenied(path: root.path, reason: Self.lastErrorText()) }
                skipped.append(SkippedFile(path: directory, reason: "cannot open folder: \(Self.lastErrorText())"))
                continue
            }
            defer { closedir(handle) }
            var subdirectories: [String] = []
            while let entry = readdir(handle) {
                guard let name = Self.name(of: entry) else {
                    skipped.append(SkippedFile(path: Self.join(directory, Self.lossyName(of: entry)),
                                               reason: "the file name is not valid UTF-8; rename it to include it"))
                    continue
                }
                if name.hasPrefix(".") { continue }
                let relativePath = Self.join(directory, name)
                let fullPath = root.path + "/" + relativePath
                var status = stat()
                guard stat(fullPath, &status) == 0 else {
                    skipped.append(SkippedFile(path: relativePath, reason: "cannot read: \(Self.lastErrorText())"))
                    continue
                }
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    if visited.insert(DirectoryKey(status)).inserted {
                        subdirectories.append(relativePath)
                    } else {
                        skipped.append(SkippedFile(path: relativePath, reason: "folder already visited (a symbolic-link loop)"))
                    }
                case S_IFREG:
                    if let file = FileEntry(relativePath: relativePath, root: root, status: status) { files.append(file) }
                default:
                    if MediaFileType.mediaType(ofFileNamed: name) != nil {
                        skipped.append(SkippedFile(path: relativePath, reason: "not a regular file"))
                    }
                }
            }
            pending.append(contentsOf: subdirectories.sorted().reversed())
        }
        return (files, skipped)
    }

    private struct DirectoryKey: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory + "/" + name
    }

    private static func nameBytes(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String? {
        String(validating: nameBytes(of: entry), as: UTF8.self)
    }

    private static func lossyName(of entry: UnsafeMutablePointer<dirent>) -> String {
        String(decoding: nameBytes(of: entry), as: UTF8.self)
    }

    private static func lastErrorText() -> String {
        String(cString: strerror(errno))
    }
}
