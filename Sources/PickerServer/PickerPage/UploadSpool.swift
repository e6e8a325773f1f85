import Foundation
import Hummingbird
import Synchronization

/// Receives uploads into temporary files, a few at a time: each body is written to disk as it
/// arrives (memory stays flat whatever the size), held to a byte cap, and removed when the
/// import is done or refused.
final class UploadSpool: Sendable {
    private let receiving = Mutex(0)

    /// Writes `request`'s body to a new temporary file named `filename`, runs `body` with it,
    /// then removes it, within `limits`' ``PickerServerLimits/maximumUploadBytes`` and
    /// ``PickerServerLimits/concurrentUploads``.
    /// - Throws: ``APIError`` 503 when the server receives as many uploads as it takes at once,
    ///   413 over the cap (before reading when `Content-Length` says so), 400 for an empty body.
    func receive<T>(_ request: Request, filename: String, limits: PickerServerLimits,
                    _ body: (URL) async throws -> T) async throws -> T {
        let maximumBytes = limits.maximumUploadBytes, maximumConcurrent = limits.concurrentUploads
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBytes { throw Self.tooLarge(maximumBytes) }
        let admitted = receiving.withLock { count in
            guard count < maximumConcurrent else { return false }
            count += 1
            return true
        }
        guard admitted else {
            var busy = APIError(.serviceUnavailable, code: "tooManyUploads",
                                "The server is receiving \(maximumConcurrent) uploads already; send this one when they are done.")
            busy.headers[.retryAfter] = "5"
            throw busy
        }
        defer { receiving.withLock { $0 -= 1 } }
        let folder = (limits.uploadFolder ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("assets-picker-upload-\(UUID().uuidString)")
        guard mkdir(folder.path, 0o700) == 0 else { throw Self.unwritable }
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(filename)
        try await write(request.body, to: file, maximumBytes: maximumBytes)
        return try await body(file)
    }

    private func write(_ source: RequestBody, to file: URL, maximumBytes: Int) async throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.unwritable }
        defer { close(descriptor) }
        var total = 0
        for try await buffer in source {
            total += buffer.readableBytes
            guard total <= maximumBytes else { throw Self.tooLarge(maximumBytes) }
            let written = buffer.withUnsafeReadableBytes { bytes -> Bool in
                var offset = 0
                while offset < bytes.count {
                    let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if count < 0 { if errno == EINTR { continue }; return false }
                    offset += count
                }
                return true
            }
            guard written else { throw Self.unwritable }
        }
        guard total > 0 else { throw APIError.badParameter("The upload is empty.") }
    }

    private static func tooLarge(_ maximumBytes: Int) -> APIError {
        APIError(.contentTooLarge, code: "bodyTooLarge", "Uploads are limited to \(maximumBytes) bytes.")
    }

    private static let unwritable = APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), code: "uploadNotStored", "The server could not store the upload.")
}
