import AssetsKit
import Foundation
import LibraryTree
import MediaProbing

/// The folder library's cache on disk: one versioned binary file in the library's data folder
/// (never inside the library), holding each folder's stamp and listing and the metadata read
/// from its files.
///
/// Written whole to a temporary file beside it and renamed over it, so a reader sees the old
/// file or the new one, never half of one; two processes writing at once leave one of their
/// two files. A file that is truncated, corrupt (checksum), of another version or of another
/// library is ignored, and rebuilt by the next write.
enum FolderCacheFile {
    /// "APFOLDER", then the format version.
    private static let magic: UInt64 = 0x5245_444C_4F46_5041
    private static let version: UInt32 = 4
    /// Magic, version, checksum, payload length.
    private static let headerSize = 8 + 4 + 8 + 8

    /// The folders recorded in the file at `url` for the library at `rootPath`; `nil` when
    /// there is no usable file. Outcomes of files changed less than a second before their
    /// folder was listed are dropped (they may have changed again in the same clock tick).
    /// A file this process read or wrote and that is unchanged since is not decoded again.
    static func read(from url: URL, rootPath: String) -> [String: CachedFolder]? {
        if let known = SharedCacheFiles.folders(of: url, rootPath: rootPath) { return known }
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe), data.count >= headerSize else { return nil }
        let identity = SharedCacheFiles.identity(of: url)
        let stored = CacheBuffer(data: data, payloadOffset: headerSize)
        let folders = data.withUnsafeBytes { buffer -> [String: CachedFolder]? in
            var header = ByteReader(UnsafeRawBufferPointer(rebasing: buffer[0..<headerSize]))
            guard (try? header.integer(UInt64.self)) == magic, (try? header.integer(UInt32.self)) == version,
                  let checksum = try? header.integer(UInt64.self), let length = try? header.integer(UInt64.self),
                  length == UInt64(buffer.count - headerSize) else { return nil }
            let payload = UnsafeRawBufferPointer(rebasing: buffer[headerSize...])
            guard ByteReader.checksum(payload) == checksum else { return nil }
            var reader = ByteReader(payload)
            return try? decode(&reader, rootPath: rootPath, stored: stored)
        }
        if let folders, let identity { SharedCacheFiles.remember(folders, of: url, identity: identity, rootPath: rootPath) }
        return folders
    }

    /// Writes `folders` to `url` atomically, making its folder when needed. A cache that cannot
    /// be written is only a slower next start: failures are ignored.
    static func write(_ folders: [String: CachedFolder], rootPath: String, to url: URL) {
        var payload = ByteWriter()
        encode(folders, rootPath: rootPath, into: &payload)
        var header = ByteWriter()
        header.integer(magic)
        header.integer(version)
        payload.bytes.withUnsafeBytes { header.integer(ByteReader.checksum($0)) }
        header.integer(UInt64(payload.bytes.count))
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
                  let handle = FileHandle(forWritingAtPath: temporary.path) else { throw CocoaError(.fileWriteUnknown) }
            defer { try? handle.close() }
            // Header and payload written as they are, never copied into one buffer.
            try header.bytes.withUnsafeBytes { try handle.write(contentsOf: $0) }
            try payload.bytes.withUnsafeBytes { try handle.write(contentsOf: $0) }
            guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            if let identity = SharedCacheFiles.identity(of: url) {
                SharedCacheFiles.remember(folders, of: url, identity: identity, rootPath: rootPath)
            }
        } catch {
            unlink(temporary.path)
        }
    }

    // MARK: Encoding

    private static func encode(_ folders: [String: CachedFolder], rootPath: String, into writer: inout ByteWriter) {
        writer.string(rootPath)
        let stored = folders.values.filter { $0.listing.stamp != nil }
        writer.integer(UInt32(stored.count))
        for folder in stored {
            let listing = folder.listing
            guard let stamp = listing.stamp else { continue }
            writer.string(listing.path)
            writer.integer(stamp.device)
            writer.integer(stamp.inode)
            writer.integer(stamp.modificationTime)
            writer.integer(stamp.statusChangeTime)
            writer.integer(folder.listedAt)
            writer.integer(UInt32(listing.subdirectories.count))
            for subdirectory in listing.subdirectories {
                writer.string(subdirectory.path)
                writer.integer(subdirectory.device)
                writer.integer(subdirectory.inode)
            }
            writer.integer(UInt32(listing.skipped.count))
            for skipped in listing.skipped {
                writer.string(skipped.path)
                writer.string(skipped.reason)
            }
            writer.integer(UInt32(folder.files.count))
            for file in folder.files {
                writer.string(file.name)
                writer.integer(file.mediaType == .photo ? UInt8(0) : UInt8(1))
                writer.flag(file.version != nil)
                if let version = file.version {
                    writer.integer(version.byteSize)
                    writer.integer(version.modificationTime)
                }
                encode(file.outcome, into: &writer)
            }
        }
    }

    /// A file's outcome: a tag (0 unread, 1 readable, 2 unreadable), then for a readable file its
    /// creation date (what a pass over every file needs) and its metadata's length before it, so
    /// that a reader can pass over the metadata and decode it only when an asset is made of it.
    private static func encode(_ outcome: FolderCache.Outcome?, into writer: inout ByteWriter) {
        switch outcome {
        case nil:
            writer.integer(UInt8(0))
        case .success(let metadata)?:
            writer.integer(UInt8(1))
            writer.flag(metadata.creationDate != nil)
            if let date = metadata.creationDate { writer.double(date.timeIntervalSinceReferenceDate) }
            var block = ByteWriter()
            encode(metadata, into: &block)
            writer.integer(UInt32(block.bytes.count))
            writer.append(block.bytes)
        case .failure(let failure)?:
            writer.integer(UInt8(2))
            writer.string(failure.reason)
        }
    }

    private static func encode(_ metadata: MediaMetadata, into writer: inout ByteWriter) {
        writer.integer(metadata.mediaType == .photo ? UInt8(0) : UInt8(1))
        writer.integer(Int64(metadata.pixelSize.width))
        writer.integer(Int64(metadata.pixelSize.height))
        writer.flag(metadata.creationDate != nil)
        if let date = metadata.creationDate { writer.double(date.timeIntervalSinceReferenceDate) }
        writer.flag(metadata.timeZoneOffset != nil)
        if let offset = metadata.timeZoneOffset { writer.integer(Int64(offset)) }
        writer.flag(metadata.duration != nil)
        if let duration = metadata.duration { writer.double(duration) }
        writer.flag(metadata.framesPerSecond != nil)
        if let rate = metadata.framesPerSecond { writer.double(rate) }
        writer.integer(Int64(metadata.orientation))
        writer.flag(metadata.location != nil)
        if let location = metadata.location {
            writer.double(location.latitude)
            writer.double(location.longitude)
            writer.flag(location.altitude != nil)
            if let altitude = location.altitude { writer.double(altitude) }
        }
        writer.flag(metadata.camera != nil)
        if let camera = metadata.camera {
            writer.flag(camera.make != nil)
            if let make = camera.make { writer.string(make) }
            writer.flag(camera.model != nil)
            if let model = camera.model { writer.string(model) }
        }
        writer.string(metadata.format)
        writer.flag(metadata.hasEmbeddedThumbnail)
    }

    // MARK: Decoding

    private struct Foreign: Error {}

    private static func decode(_ reader: inout ByteReader, rootPath: String, stored: CacheBuffer) throws -> [String: CachedFolder] {
        guard try reader.string() == rootPath else { throw Foreign() }
        let count = Int(try reader.integer(UInt32.self))
        var folders: [String: CachedFolder] = [:]
        folders.reserveCapacity(count)
        for _ in 0..<count {
            let path = try reader.string()
            var listing = DirectoryListing(path: path)
            listing.stamp = DirectoryStamp(device: try reader.integer(), inode: try reader.integer(),
                                           modificationTime: try reader.integer(), statusChangeTime: try reader.integer())
            let listedAt: Int64 = try reader.integer()
            for _ in 0..<Int(try reader.integer(UInt32.self)) {
                listing.subdirectories.append(DirectoryListing.Subdirectory(path: try reader.string(), device: try reader.integer(),
                                                                            inode: try reader.integer()))
            }
            for _ in 0..<Int(try reader.integer(UInt32.self)) {
                listing.skipped.append(SkippedFile(path: try reader.string(), reason: try reader.string()))
            }
            let fileCount = Int(try reader.integer(UInt32.self))
            var files: [CachedFile] = []
            files.reserveCapacity(fileCount)
            for _ in 0..<fileCount {
                let name = try reader.string()
                let type: MediaType = try reader.integer(UInt8.self) == 0 ? .photo : .video
                let version = try reader.flag() ? FileVersion(byteSize: try reader.integer(), modificationTime: try reader.integer()) : nil
                let offset = reader.offset
                let state: CachedFile.ReadState
                var creationDate: Date?
                switch try reader.integer(UInt8.self) {
                case 0:
                    state = .unread
                case 1:
                    state = .readable
                    if try reader.flag() { creationDate = Date(timeIntervalSinceReferenceDate: try reader.double()) }
                    try reader.skip(Int(try reader.integer(UInt32.self)))
                case 2:
                    state = .unreadable
                    try reader.skip(Int(try reader.integer(UInt32.self)))
                default: throw Foreign()
                }
                if let version, version.modificationTime < listedAt - 1_000_000_000, state != .unread {
                    files.append(CachedFile(name: name, mediaType: type, version: version, state: state, creationDate: creationDate,
                                            stored: .stored(stored, offset)))
                } else {
                    files.append(CachedFile(name: name, mediaType: type, version: version))
                }
            }
            folders[path] = CachedFolder(listing: listing, listedAt: listedAt, files: files)
        }
        guard reader.isAtEnd else { throw Foreign() }
        return folders
    }

    /// The outcome encoded at `reader`'s offset (see ``encode(_:into:)``).
    static func decodeOutcome(_ reader: inout ByteReader) throws -> FolderCache.Outcome? {
        switch try reader.integer(UInt8.self) {
        case 0:
            return nil
        case 1:
            if try reader.flag() { _ = try reader.double() }
            _ = try reader.integer(UInt32.self)
            return .success(try decodeMetadata(&reader))
        case 2:
            return .failure(FolderCache.ReadFailure(reason: try reader.string()))
        default:
            throw Foreign()
        }
    }

    private static func decodeMetadata(_ reader: inout ByteReader) throws -> MediaMetadata {
        let type: MediaType = try reader.integer(UInt8.self) == 0 ? .photo : .video
        let size = PixelSize(width: Int(try reader.integer(Int64.self)), height: Int(try reader.integer(Int64.self)))
        var metadata = MediaMetadata(mediaType: type, pixelSize: size, format: "")
        if try reader.flag() { metadata.creationDate = Date(timeIntervalSinceReferenceDate: try reader.double()) }
        if try reader.flag() { metadata.timeZoneOffset = Int(try reader.integer(Int64.self)) }
        if try reader.flag() { metadata.duration = try reader.double() }
        if try reader.flag() { metadata.framesPerSecond = try reader.double() }
        metadata.orientation = Int(try reader.integer(Int64.self))
        if try reader.flag() {
            var location = GeoLocation(latitude: try reader.double(), longitude: try reader.double())
            if try reader.flag() { location.altitude = try reader.double() }
            metadata.location = location
        }
        if try reader.flag() {
            let make = try reader.flag() ? try reader.string() : nil
            let model = try reader.flag() ? try reader.string() : nil
            metadata.camera = Camera(make: make, model: model)
        }
        metadata.format = try reader.string()
        metadata.hasEmbeddedThumbnail = try reader.flag()
        return metadata
    }
}
