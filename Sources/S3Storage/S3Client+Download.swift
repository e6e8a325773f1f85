import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

extension S3Client {
    /// Streams an object into a file, resuming where it broke off when the connection drops.
    ///
    /// The file is created (or truncated) and written as the bytes arrive; `progress` hears of
    /// each part. When the connection drops, the download asks again from the first missing
    /// byte (`Range: bytes=N-`) with `If-Match` on the entity tag first seen, so the file cannot
    /// mix two versions of the object; it tries ``Limits/downloadAttempts`` times without
    /// progress, pausing a little longer each time. At the end the file's size is checked
    /// against the object's.
    ///
    /// With `byteSize` (the size a listing or an index gave), an answer whose `Content-Length`
    /// (or `Content-Range` total) says another size is refused before a byte is written, and
    /// never more than `byteSize` bytes are written: a server cannot fill the disk by claiming a
    /// bigger object than the one listed.
    ///
    /// Cancelling the calling task stops the transfer at once: the connection is closed, no
    /// more bytes are read, and the task gets `CancellationError`. On any failure the partial
    /// file is removed.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object's key.
    ///   - eTag: The entity tag the object must have (from a listing), or `nil` for the version
    ///     there now.
    ///   - byteSize: The size the object must have (from a listing or an index), or `nil` for
    ///     whatever size the first answer gives.
    ///   - file: Where the bytes go; created or truncated, readable by its owner only (0600).
    ///   - progress: Called after each part arrives (and once, with 0 received, when the size is
    ///     known), on the calling task; `nil` for none.
    /// - Returns: The object's facts, as its first answer gave them.
    /// - Throws: ``S3Error/changed(bucket:key:)`` (also when the size is not `byteSize`), ``S3Error/noSuchKey(bucket:key:)``,
    ///   ``S3Error/unreachable(endpoint:reason:)`` once the attempts are spent,
    ///   ``S3Error/truncated(bucket:key:expected:received:)``, another ``S3Error``, or
    ///   `CancellationError`.
    @discardableResult
    public func download(bucket: String, key: String, eTag: String?, byteSize: Int64? = nil, to file: URL,
                         progress: (@Sendable (S3Progress) -> Void)?) async throws -> S3Object {
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let output = try? FileHandle(forWritingTo: file) else {
            throw S3Error.malformed("\(file.path): the download's file cannot be created")
        }
        do {
            let object = try await transfer(bucket: bucket, key: key, eTag: eTag, byteSize: byteSize, into: output, progress: progress)
            try output.close()
            let written = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value
            guard written == object.byteSize else {
                throw S3Error.truncated(bucket: bucket, key: key, expected: object.byteSize, received: written ?? 0)
            }
            return object
        } catch {
            try? output.close()
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }

    /// The download's loop: one request per connection, resumed by `Range` after a drop.
    private func transfer(bucket: String, key: String, eTag: String?, byteSize: Int64?, into output: FileHandle,
                          progress: (@Sendable (S3Progress) -> Void)?) async throws -> S3Object {
        var received: Int64 = 0
        var object: S3Object?
        var requiredETag = eTag
        var failuresWithoutProgress = 0
        while true {
            let receivedBefore = received
            do {
                var headers: [(String, String)] = []
                if received > 0 { headers.append(("range", "bytes=\(received)-")) }
                if let requiredETag { headers.append(("if-match", requiredETag)) }
                let request = Request(method: .GET, bucket: bucket, key: key, headers: headers)
                // No deadline for the whole body (it may be gigabytes); the HTTP client's read
                // timeout catches a connection that stops answering.
                let response = try await send(request, deadline: .now() + .hours(24 * 7))
                let total: Int64
                switch response.status.code {
                case 200:
                    if received > 0 {
                        // The server sent the whole object instead of the rest: start over.
                        try output.truncate(atOffset: 0)
                        received = 0
                    }
                    let facts = try self.object(key: key, bucket: bucket, headers: response.headers)
                    // A server that ignores If-Match must not hand over another version either.
                    if let requiredETag, !facts.eTag.isEmpty, facts.eTag != requiredETag {
                        throw S3Error.changed(bucket: bucket, key: key)
                    }
                    total = facts.byteSize
                    if object == nil { object = facts }
                case 206:
                    guard let range = ContentRange(response.headers.first(name: "content-range") ?? ""),
                          range.start == received else {
                        throw S3Error.malformed("s3://\(bucket)/\(key): a resumed answer's Content-Range is not the bytes asked for")
                    }
                    total = range.total
                default:
                    throw await failure(response, bucket: bucket, key: key)
                }
                // Before a byte is written: the size the caller knows is the only size taken.
                if let byteSize, total != byteSize {
                    throw S3Error.changed(bucket: bucket, key: key)
                }
                if let object {
                    let tag = response.headers.first(name: "etag")
                    guard total == object.byteSize, tag == nil || tag == object.eTag else {
                        throw S3Error.changed(bucket: bucket, key: key)
                    }
                    if requiredETag == nil, !object.eTag.isEmpty { requiredETag = object.eTag }
                }
                progress?(S3Progress(received: received, total: total))
                for try await buffer in response.body {
                    received += Int64(buffer.readableBytes)
                    guard received <= total else {
                        throw S3Error.truncated(bucket: bucket, key: key, expected: total, received: received)
                    }
                    try output.write(contentsOf: buffer.readableBytesView)
                    progress?(S3Progress(received: received, total: total))
                }
                guard received == total else {
                    throw DroppedConnection()
                }
                return object!
            } catch {
                if Task.isCancelled || error is CancellationError { throw CancellationError() }
                guard Self.isDrop(error) else { throw error }
                failuresWithoutProgress = received > receivedBefore ? 1 : failuresWithoutProgress + 1
                guard failuresWithoutProgress < limits.downloadAttempts else {
                    let expected = object.map { " of \($0.byteSize)" } ?? ""
                    throw S3Error.unreachable(endpoint: configuration.endpointForMessages,
                                              reason: "s3://\(bucket)/\(key): the connection dropped \(failuresWithoutProgress) times in a row "
                                                  + "with \(received)\(expected) bytes received (\(Self.describe(error)))")
                }
                let exponent = min(failuresWithoutProgress - 1, 5)
                try await Task.sleep(for: min(limits.firstRetryDelay * (1 << exponent), .seconds(2)))
            }
        }
    }

    /// Whether a download's error is a dropped or refused connection, worth trying again.
    private static func isDrop(_ error: any Error) -> Bool {
        switch error {
        case is DroppedConnection: true
        case S3Error.unreachable: true
        case is S3Error: false
        default: true   // the HTTP client's and NIO's errors while the body streams
        }
    }

    /// The body ended before the object did.
    private struct DroppedConnection: Error, CustomStringConvertible {
        var description: String { "the body ended early" }
    }
}

/// `Content-Range: bytes START-END/TOTAL`.
struct ContentRange: Equatable {
    var start: Int64
    var end: Int64
    var total: Int64

    init?(_ header: String) {
        guard header.hasPrefix("bytes ") else { return nil }
        let parts = header.dropFirst(6).split(whereSeparator: { $0 == "-" || $0 == "/" })
        guard parts.count == 3, let start = Int64(parts[0]), let end = Int64(parts[1]), let total = Int64(parts[2]),
              start <= end, end < total else { return nil }
        self.start = start
        self.end = end
        self.total = total
    }
}
