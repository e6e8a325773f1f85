import AssetsKit
import Foundation
import MediaProbing

/// A depth-first walk of a folder tree, one folder per step, in name order.
package struct FolderWalk: Sendable {
    private let root: URL
    private let links: SymbolicLinkPolicy
    private var visited: Set<DirectoryIdentity>
    /// Folders still to list, with their `stat` when it was taken as their parent was listed.
    private var pending: [(path: String, status: stat?)]
    private let reuse: ListingReuse?
    private let detail: @Sendable (String) -> FileDetail

    init(root: URL, rootStatus: stat, links: SymbolicLinkPolicy, reuse: ListingReuse?, detail: @escaping @Sendable (String) -> FileDetail) {
        self.root = root
        self.links = links
        self.visited = [DirectoryIdentity(device: UInt64(rootStatus.st_dev), inode: UInt64(rootStatus.st_ino))]
        self.reuse = reuse
        self.detail = detail
        self.pending = [("", rootStatus)]
    }

    /// The next folder's listing; `nil` when the walk is over. A folder already visited (a
    /// symbolic-link loop) is passed over and reported in the listing of the folder holding it.
    package mutating func next() -> DirectoryListing? {
        guard let (directory, known) = pending.popLast() else { return nil }
        let directoryPath = directory.isEmpty ? root.path : root.path + "/" + directory
        var status = stat()
        // A folder's stamp is the `stat` its parent's listing took (or one taken now): one call per folder.
        let stamp = known.map(DirectoryStamp.init) ?? (stat(directoryPath, &status) == 0 ? DirectoryStamp(status) : nil)
        var statuses: [String: stat] = [:]
        var listing: DirectoryListing
        if let stamp, let reused = reuse?(directory, stamp) {
            listing = reused
        } else {
            (listing, statuses) = list(directory, at: directoryPath, stamp: stamp, detail: detail(directory))
        }
        var accepted: [(path: String, status: stat?)] = []
        for subdirectory in listing.subdirectories {
            if visited.insert(DirectoryIdentity(device: subdirectory.device, inode: subdirectory.inode)).inserted {
                accepted.append((subdirectory.path, statuses[subdirectory.path]))
            } else {
                listing.skipped.append(SkippedFile(path: subdirectory.path, reason: "folder already visited (a symbolic-link loop)"))
            }
        }
        pending.append(contentsOf: accepted.indices.sorted { accepted[$0].path > accepted[$1].path }.map { accepted[$0] })
        return listing
    }

    /// The folder's entries as they are now, and the `stat` of each folder in it.
    private func list(_ directory: String, at directoryPath: String, stamp: DirectoryStamp?,
                      detail: FileDetail) -> (DirectoryListing, [String: stat]) {
        var listing = DirectoryListing(path: directory)
        listing.stamp = stamp
        var statuses: [String: stat] = [:]
        guard let handle = opendir(directoryPath) else {
            listing.skipped.append(SkippedFile(path: directory, reason: "cannot open folder: \(Self.lastErrorText())"))
            listing.isComplete = false
            listing.stamp = nil
            return (listing, statuses)
        }
        defer { closedir(handle) }
        let descriptor = dirfd(handle)
        var types = MediaTypesByExtension()
        while let entry = readdir(handle) {
            guard let name = Self.name(of: entry) else {
                listing.skipped.append(SkippedFile(path: Self.join(directory, Self.lossyName(of: entry)),
                                                   reason: "the file name is not valid UTF-8; rename it to include it"))
                continue
            }
            if name.hasPrefix(".") { continue }
            if detail == .nameOnly, Int(entry.pointee.d_type) == Int(DT_REG) {
                if let type = types.mediaType(ofFileNamed: name) { listing.names.append(NamedFile(name: name, mediaType: type)) }
                continue
            }
            // Made only past the loop's fast path: a name-only listing of a large folder joins no path.
            let relativePath = Self.join(directory, name)
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                listing.skipped.append(SkippedFile(path: relativePath, reason: "cannot read: \(Self.lastErrorText())"))
                continue
            }
            if (status.st_mode & S_IFMT) == S_IFLNK {
                let path = root.path + "/" + relativePath
                if let refusal = links.refusal(ofLinkAt: path) {
                    listing.skipped.append(SkippedFile(path: relativePath, reason: refusal))
                    continue
                }
                guard stat(path, &status) == 0 else {
                    listing.skipped.append(SkippedFile(path: relativePath, reason: "cannot read: \(Self.lastErrorText())"))
                    continue
                }
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                listing.subdirectories.append(DirectoryListing.Subdirectory(path: relativePath, device: UInt64(status.st_dev),
                                                                            inode: UInt64(status.st_ino)))
                statuses[relativePath] = status
            case S_IFREG:
                switch detail {
                case .status:
                    if let file = FileEntry(relativePath: relativePath, root: root, status: status) { listing.files.append(file) }
                case .nameOnly:
                    if let type = types.mediaType(ofFileNamed: name) { listing.names.append(NamedFile(name: name, mediaType: type)) }
                }
            default:
                listing.skipped.append(SkippedFile(path: relativePath, reason: "not a regular file"))
            }
        }
        return (listing, statuses)
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory + "/" + name
    }

    private static func nameBytes(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
    }

    /// The entry's name, read in place (a walk of a large tree names many entries).
    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String? {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let length = bytes.firstIndex(of: 0) ?? bytes.count
            return String(validating: UnsafeBufferPointer(rebasing: bytes[..<length]), as: UTF8.self)
        }
    }

    private static func lossyName(of entry: UnsafeMutablePointer<dirent>) -> String {
        String(decoding: nameBytes(of: entry), as: UTF8.self)
    }

    private static func lastErrorText() -> String {
        String(cString: strerror(errno))
    }
}
