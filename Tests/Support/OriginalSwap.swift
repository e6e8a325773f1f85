import Foundation

/// How a library file is swapped between a listing and a read, as an attacker who can write in
/// the library would (docs/SECURITY.md, issue 26): each swap is made by a rename over the
/// file, as `ln -sfn` and editors do, except the directory, which takes the file's place.
public enum OriginalSwap: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The file is replaced by a symbolic link to a file outside the library.
    case fileByLinkOut
    /// The same, the outside file first given the library file's size and modification time
    /// (to the nanosecond): only the check of where the file is can refuse it.
    case fileByLinkOutOfSameVersion
    /// A symbolic link that led inside the library is pointed at a file outside it.
    case linkByLinkOut
    /// The file is replaced by a directory.
    case fileByDirectory
    /// The file is replaced by another file, of another size and modification time.
    case fileByOtherFile

    public var description: String { rawValue }

    /// Whether the swapped library file is a symbolic link (leading inside) before the swap.
    public var swapsALink: Bool { self == .linkByLinkOut }

    /// Makes the swap of the library file `file`: `outside` is a file outside the library, and
    /// `other` the bytes of the other file (``fileByOtherFile``).
    public func apply(to file: URL, outside: URL, other: Data) throws {
        let staged = file.deletingLastPathComponent().appendingPathComponent(".swap-\(UUID().uuidString)")
        switch self {
        case .fileByLinkOut, .linkByLinkOut:
            try FileManager.default.createSymbolicLink(atPath: staged.path, withDestinationPath: outside.path)
        case .fileByLinkOutOfSameVersion:
            var status = stat()
            guard stat(file.path, &status) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
            var bytes = try Data(contentsOf: outside).prefix(Int(status.st_size))
            bytes.append(Data(count: Int(status.st_size) - bytes.count))
            try bytes.write(to: outside)
            var times = [status.st_atim, status.st_mtim]
            guard utimensat(AT_FDCWD, outside.path, &times, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
            try FileManager.default.createSymbolicLink(atPath: staged.path, withDestinationPath: outside.path)
        case .fileByDirectory:
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            return
        case .fileByOtherFile:
            try other.write(to: staged)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: staged.path)
        }
        guard rename(staged.path, file.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
