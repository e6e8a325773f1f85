import AssetsKit
import Foundation
import LibraryTree
import MediaProbing
import S3Storage

/// Reads an object's metadata without downloading it: a ranged read of its head, then the few
/// other ranges its format's layout says a metadata read looks at (``ObjectLayout``), written
/// into a sparse temporary file of the object's size and read with the same
/// `MediaMetadataReading` as a file on this machine. When the layout cannot vouch for the head
/// (a format read anywhere, a damaged file) or the read of it fails, the object is streamed
/// whole into the temporary file once and read again, so the answer — a refusal too — is the
/// one the same file gets on this machine. Every temporary file is removed after its read.
struct ObjectHeadReader: Sendable {
    let client: S3Client
    let bucket: String
    /// Where temporary files are made (a folder per read in its `.partial/`, holding the object's name).
    let cache: OriginalsCache
    /// The bytes of the first read: the most a photo's EXIF, embedded thumbnail and frame size
    /// take in the measured corpus (see `BucketOriginalsStore.headBytes`).
    let headBytes: Int64
    /// Reads after the first, at most, before the object is read whole instead.
    var maximumRanges = 8
    /// The least a later ranged read asks for, so a walk of small boxes or chunks takes few.
    var minimumRangeBytes: Int64 = 64 << 10
    /// The most one later ranged read may ask for; a layout that needs more is read whole.
    var maximumRangeBytes: Int64 = 16 << 20

    /// What a read cost, for the measurements.
    struct Cost: Sendable {
        /// Ranged reads made (the head included); 0 when the object was read whole only.
        var ranges = 0
        /// Bytes transferred in all.
        var bytes: Int64 = 0
        /// Whether the object was streamed whole.
        var wasWhole = false
    }

    /// The metadata of `file`, the object at `key` of the version its `contentTag` names, read
    /// with `reader`, and what reading it cost; errors name the object as `place`
    /// (`s3://bucket/key`), not a temporary file.
    func metadata(of file: FileEntry, key: String, place: String,
                  reader: any MediaMetadataReading) async throws -> (MediaMetadata, Cost) {
        // A listing is checked where it enters; this checks again what an index holds, so that no
        // size traps the arithmetic below and no name leads out of the temporary folder.
        guard file.byteSize >= 0, file.byteSize <= S3Object.maximumByteSize else {
            throw ObjectReadFailure(description: "\(place): the listed size \(file.byteSize) is not a number of bytes from 0 to \(S3Object.maximumByteSize)")
        }
        guard ObjectName.judge(file.filename, isFolder: false) == .accepted else {
            throw ObjectReadFailure(description: "\(place): the name cannot be a file name here")
        }
        let folder = try cache.newPartialFile()
        defer {
            try? FileManager.default.removeItem(at: folder)
            cache.finished(folder)
        }
        let local = folder.appendingPathComponent(file.filename)
        var cost = Cost()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if let bytes = try await head(of: file, key: key, cost: &cost) {
                try bytes.writeSparseFile(at: local)
                if let metadata = try await read(local, as: file.mediaType, with: reader, isFinal: bytes.isWhole) {
                    return (metadata, cost)
                }
                // Read again from all of it: the answer is then the file's own.
                unlink(local.path)
            }
            try await client.download(bucket: bucket, key: key, eTag: file.contentTag, byteSize: file.byteSize, to: local, progress: nil)
            cost.bytes += file.byteSize
            cost.wasWhole = true
            return (try await reader.read(local, as: file.mediaType), cost)
        } catch let error as S3Error {
            throw BucketUnavailable.classify(error, readingObjectAt: place)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ObjectReadFailure(description: "\(error)".replacingOccurrences(of: local.path, with: place))
        }
    }

    /// What `reader` reads of `file`; `nil` when that fails and the file is not `isFinal` (the
    /// whole object is read then).
    private func read(_ file: URL, as mediaType: MediaType, with reader: any MediaMetadataReading, isFinal: Bool) async throws -> MediaMetadata? {
        do {
            return try await reader.read(file, as: mediaType)
        } catch let error where isFinal || error is CancellationError {
            throw error
        } catch {
            return nil
        }
    }

    /// The bytes the layout asks for, read range by range; `nil` when the object must be read whole.
    private func head(of file: FileEntry, key: String, cost: inout Cost) async throws -> ObjectBytes? {
        var bytes = ObjectBytes(size: file.byteSize)
        var next: Range<Int64>? = 0..<min(file.byteSize, headBytes)
        while let range = next {
            guard cost.ranges <= maximumRanges, range.count <= maximumRangeBytes else { return nil }
            let data = try await client.bytes(bucket: bucket, key: key, range: range, ifMatch: file.contentTag)
            // Fewer bytes than the listed size holds: the listed size is wrong (or the object
            // was replaced by a shorter one under the same entity tag, which S3 never does).
            guard data.count == range.count else {
                throw ObjectReadFailure(description: "s3://\(bucket)/\(key): the listing gives it \(file.byteSize) bytes, but the bytes \(range.lowerBound) "
                    + "to \(range.upperBound - 1) gave \(data.count): the listed size is not the object's")
            }
            bytes.add(data, at: range.lowerBound)
            cost.ranges += 1
            cost.bytes += Int64(data.count)
            switch ObjectLayout.verdict(bytes) {
            case .complete:
                next = nil
            case .whole:
                return nil
            case .needs(let needed):
                // Read a little more than the least, within what is unknown: the next chunk or
                // box header is often just after.
                let wider = needed.lowerBound..<min(file.byteSize, max(needed.upperBound, needed.lowerBound + minimumRangeBytes))
                next = bytes.missing(in: wider) ?? needed
            }
        }
        return bytes
    }
}

/// An object whose metadata could not be read: the reader's own reason, naming the object.
struct ObjectReadFailure: Error, CustomStringConvertible {
    let description: String
}
