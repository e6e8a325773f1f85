import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Linux inotify instance: a non-blocking, close-on-exec descriptor that reports changes in
/// the folders added to it with ``addWatch(_:)``.
///
/// Not thread-safe: one thread adds watches and reads events. ``close()`` must be called once.
final class InotifyDescriptor {
    let fileDescriptor: Int32

    /// What a library watcher asks to hear about a folder: entries created, written and closed,
    /// moved in or out, deleted, and the folder itself deleted or moved. Reads (`IN_ACCESS`,
    /// `IN_CLOSE_NOWRITE`) are left out: the scanner and the renderer read files all the time.
    static let watchedEvents: InotifyEvent.Mask = [
        .created, .closedAfterWriting, .movedFrom, .movedTo, .deleted, .deletedSelf, .movedSelf, .onlyDirectory,
    ]

    /// Opens an inotify instance.
    /// - Throws: ``InotifyError/unavailable(_:)`` when the system has none or refuses one
    ///   (e.g. the per-user limit of instances is reached).
    init() throws {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw InotifyError.unavailable(String(cString: strerror(errno))) }
        fileDescriptor = descriptor
        #else
        throw InotifyError.unavailable("inotify is Linux-only")
        #endif
    }

    /// Starts watching one folder (not its subfolders).
    /// - Returns: The watch descriptor its events carry; the same one again for a folder already watched.
    /// - Throws: ``InotifyError/watchLimitReached`` on `ENOSPC`; ``InotifyError/cannotWatch(path:reason:)``
    ///   otherwise (e.g. the folder is gone or unreadable).
    func addWatch(_ path: String) throws -> Int32 {
        #if os(Linux)
        let watch = inotify_add_watch(fileDescriptor, path, Self.watchedEvents.rawValue)
        guard watch >= 0 else {
            if errno == ENOSPC { throw InotifyError.watchLimitReached }
            throw InotifyError.cannotWatch(path: path, reason: String(cString: strerror(errno)))
        }
        return watch
        #else
        throw InotifyError.unavailable("inotify is Linux-only")
        #endif
    }

    /// Stops watching a folder; the kernel then sends `IN_IGNORED` for it.
    func removeWatch(_ watch: Int32) {
        #if os(Linux)
        _ = inotify_rm_watch(fileDescriptor, watch)
        #endif
    }

    /// The events waiting, read until the descriptor would block.
    func readEvents() -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        // Room for at least one event with the longest name (NAME_MAX is 255).
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                events += buffer.withUnsafeBytes { InotifyEvent.parse(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return events
            }
        }
    }

    func close() {
        #if canImport(Glibc)
        _ = Glibc.close(fileDescriptor)
        #else
        _ = Darwin.close(fileDescriptor)
        #endif
    }
}

/// Why a folder cannot be watched with inotify.
enum InotifyError: Error, CustomStringConvertible {
    case unavailable(String)
    /// The per-user limit of watches (`fs.inotify.max_user_watches`) is reached.
    case watchLimitReached
    case cannotWatch(path: String, reason: String)

    var description: String {
        switch self {
        case .unavailable(let reason): "inotify is unavailable (\(reason))"
        case .watchLimitReached:
            "the inotify watch limit is reached; raise fs.inotify.max_user_watches (sysctl) to watch every folder"
        case let .cannotWatch(path, reason): "cannot watch \(path): \(reason)"
        }
    }
}
