import Foundation

/// The file a transfer of an original under way is writing, open for reading: the original's
/// bytes from its first, as far as they have come. Read it by its descriptor (`pread`); what has
/// not come yet is past its end. Closed when released.
public final class ArrivingFile: Sendable {
    /// The open descriptor (read-only).
    public let descriptor: Int32

    /// Takes over `descriptor`, open for reading; it is closed when this is released.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Opens the file at `path` for reading; `nil` when it is not there (the transfer ended).
    public convenience init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.init(descriptor: descriptor)
    }

    deinit {
        close(descriptor)
    }
}
