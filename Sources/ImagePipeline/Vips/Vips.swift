import AssetsKit
import CVipsShim
import Foundation

/// libvips, started once per process, and its error buffer read safely.
package enum Vips {
    private static let started: Bool = cvips_init() == 0
    private static let errorLock = NSLock()

    /// Starts libvips on first use; throws when it cannot start.
    package static func start() throws {
        guard started else {
            throw ImagePipelineError.libraryUnavailable(reason: "libvips failed to start: \(takeError())")
        }
    }

    /// The message of the call that just failed, taken out of libvips' one process-wide
    /// buffer (under a lock, so a concurrent failure cannot empty it half-way).
    package static func takeError() -> String {
        VipsErrorScope.noteErrorRead()
        errorLock.lock()
        defer { errorLock.unlock() }
        var buffer = [CChar](repeating: 0, count: 2048)
        cvips_take_error(&buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.isEmpty ? "libvips gave no reason" : lines.joined(separator: "; ")
    }
}

/// Owns one libvips image and releases it when dropped.
package final class VipsImageHandle {
    package let pointer: OpaquePointer

    package init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        cvips_unref(pointer)
    }

    var pixelSize: PixelSize {
        PixelSize(width: Int(cvips_image_width(pointer)), height: Int(cvips_image_height(pointer)))
    }
}
