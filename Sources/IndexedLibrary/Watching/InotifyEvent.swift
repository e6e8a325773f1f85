/// One event read from an inotify descriptor: which watch it came from, what happened and the
/// name of the entry it happened to (empty for an event about the watched folder itself).
struct InotifyEvent: Sendable, Hashable {
    /// The watch descriptor; -1 for a queue overflow.
    var watch: Int32
    var mask: Mask
    /// Pairs the two halves of a rename (`IN_MOVED_FROM`, `IN_MOVED_TO`).
    var cookie: UInt32
    var name: String

    /// The fixed part of `struct inotify_event`: wd, mask, cookie, len.
    static let headerSize = 16

    /// The events in a buffer filled by `read(2)` on an inotify descriptor: each is the fixed
    /// header followed by `len` bytes of NUL-padded name.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        var offset = 0
        while offset + headerSize <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let start = offset + headerSize
            guard start + length <= bytes.count else { break }
            let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)])
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            events.append(InotifyEvent(watch: watch, mask: Mask(rawValue: mask), cookie: cookie, name: name))
            offset = start + length
        }
        return events
    }

    /// The kinds of event, with the kernel's values (`<sys/inotify.h>`, a stable ABI).
    struct Mask: OptionSet, Sendable, Hashable {
        let rawValue: UInt32

        /// A file opened for writing was closed.
        static let closedAfterWriting = Mask(rawValue: 0x0000_0008)
        static let movedFrom = Mask(rawValue: 0x0000_0040)
        static let movedTo = Mask(rawValue: 0x0000_0080)
        static let created = Mask(rawValue: 0x0000_0100)
        static let deleted = Mask(rawValue: 0x0000_0200)
        /// The watched folder itself was deleted.
        static let deletedSelf = Mask(rawValue: 0x0000_0400)
        /// The watched folder itself was moved.
        static let movedSelf = Mask(rawValue: 0x0000_0800)
        /// The kernel's queue overflowed: events were lost.
        static let queueOverflowed = Mask(rawValue: 0x0000_4000)
        /// The watch ended (its folder is gone, or it was removed).
        static let ignored = Mask(rawValue: 0x0000_8000)
        /// Watch the path only if it is a folder (a flag of `inotify_add_watch`).
        static let onlyDirectory = Mask(rawValue: 0x0100_0000)
        /// The entry the event names is a folder.
        static let isDirectory = Mask(rawValue: 0x4000_0000)
    }
}
