import AssetsKit
import Foundation
import IndexedLibrary
import LibraryTree
import MediaProbing
import S3Storage

/// A walk over a bucket's "folders" under a prefix: each listed with `ListObjectsV2` and the
/// delimiter `/`, page by page, one folder at a time, so a walk never holds more than one
/// folder's listing and the names of the folders still to list, however large the bucket.
///
/// Keys become paths relative to the prefix; key prefixes are folders, so albums. Names are
/// judged as ``ObjectName`` says: hidden ones and non-media ignored as the local walk ignores
/// them, unsafe ones passed over with a reason (``DirectoryListing/skipped``), as is an object
/// whose name is also a folder's (both cannot be on this machine). Each file's entity tag
/// travels with it (`FileEntry.contentTag`).
struct BucketListingWalk: ListingWalk {
    let client: S3Client
    let location: S3Location
    /// Folders still to list, relative to the prefix, the next one last.
    private var pending: [String] = [""]

    init(client: S3Client, location: S3Location) {
        self.client = client
        self.location = location
    }

    mutating func next() async throws -> DirectoryListing? {
        try Task.checkCancellation()
        guard let folder = pending.popLast() else { return nil }
        let keyPrefix = location.prefix + (folder.isEmpty ? "" : folder + "/")
        var listing = DirectoryListing(path: folder)
        var objects: [S3Object] = []
        var folders: Set<String> = []
        do {
            for try await page in client.objects(bucket: location.bucket, prefix: keyPrefix, delimiter: "/") {
                objects += page.objects
                for prefix in page.commonPrefixes {
                    let name = String(prefix.dropFirst(keyPrefix.count).dropLast())
                    switch ObjectName.judge(name, isFolder: true) {
                    case .accepted: folders.insert(name)
                    case .ignored: break
                    case .refused(let reason): listing.skipped.append(SkippedFile(path: Self.join(folder, name) + "/", reason: reason))
                    }
                }
                try Task.checkCancellation()
            }
        } catch let error as S3Error {
            throw BucketUnavailable.classify(error)
        }
        let rootPath = location.description.hasSuffix("/") ? String(location.description.dropLast()) : location.description
        for object in objects {
            let name = String(object.key.dropFirst(keyPrefix.count))
            let path = Self.join(folder, name)
            switch ObjectName.judge(name, isFolder: false) {
            case .ignored:
                continue
            case .refused(let reason):
                listing.skipped.append(SkippedFile(path: path, reason: reason))
                continue
            case .accepted:
                break
            }
            guard let type = MediaFileType.mediaType(ofFileNamed: name) else { continue }
            guard !folders.contains(name) else {
                listing.skipped.append(SkippedFile(path: path, reason: "a folder has the same name (keys under \(name)/): one of them only can be kept on this machine"))
                continue
            }
            listing.files.append(FileEntry(relativePath: path, directory: folder, rootPath: rootPath, mediaType: type,
                                           byteSize: object.byteSize, modificationTime: Self.nanoseconds(object.lastModified),
                                           contentTag: object.eTag))
        }
        pending.append(contentsOf: folders.map { Self.join(folder, $0) }.sorted(by: >))
        return listing
    }

    /// An object's time of change in nanoseconds since 1970, to the millisecond S3 lists it in.
    static func nanoseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded()) * 1_000_000
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }
}
