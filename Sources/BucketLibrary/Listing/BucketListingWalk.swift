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

    /// The most entries (objects, folders and unreadable entries) one folder's listing may hold
    /// in memory: a listing past it is refused with an error naming the folder, as a server
    /// that never ends its listing would otherwise fill the memory.
    var maximumEntriesPerFolder = 500_000
    /// The most pages one folder's listing may take (empty pages count too).
    var maximumPagesPerFolder = 5_000

    mutating func next() async throws -> DirectoryListing? {
        try Task.checkCancellation()
        guard let folder = pending.popLast() else { return nil }
        let keyPrefix = location.prefix + (folder.isEmpty ? "" : folder + "/")
        let rootPath = location.description.hasSuffix("/") ? String(location.description.dropLast()) : location.description
        var listing = DirectoryListing(path: folder)
        var folders: Set<String> = []
        var pages = 0
        var entries = 0
        do {
            for try await page in client.objects(bucket: location.bucket, prefix: keyPrefix, delimiter: "/") {
                pages += 1
                entries += page.objects.count + page.commonPrefixes.count + page.unreadable.count
                guard pages <= maximumPagesPerFolder, entries <= maximumEntriesPerFolder else {
                    throw S3Error.malformed("s3://\(location.bucket)/\(keyPrefix): the listing of this folder goes on past "
                        + "\(min(entries, maximumEntriesPerFolder)) entries in \(min(pages, maximumPagesPerFolder)) pages, the most one folder may have here")
                }
                for entry in page.unreadable {
                    // By its name when it has a readable one in this folder, else by the key as listed.
                    let shown = if let key = entry.key, case .success(let name) = ListedKey.name(of: key, under: keyPrefix, isFolder: false) {
                        ListedKey.escaped(name)
                    } else {
                        entry.listedKey.map { ListedKey.escaped($0) } ?? "(no key)"
                    }
                    listing.skipped.append(SkippedFile(path: Self.join(folder, shown), reason: "unreadable listing entry: \(entry.reason)"))
                }
                for prefix in page.commonPrefixes {
                    switch ListedKey.name(of: prefix, under: keyPrefix, isFolder: true) {
                    case .failure(let refusal):
                        listing.skipped.append(SkippedFile(path: Self.join(folder, refusal.shownName) + "/", reason: refusal.reason))
                        continue
                    case .success(let name):
                        switch ObjectName.judge(name, isFolder: true) {
                        case .accepted: folders.insert(name)
                        case .ignored: break
                        case .refused(let reason): listing.skipped.append(SkippedFile(path: Self.join(folder, ListedKey.escaped(name)) + "/", reason: reason))
                        }
                    }
                }
                for object in page.objects {
                    let name: String
                    switch ListedKey.name(of: object.key, under: keyPrefix, isFolder: false) {
                    case .failure(let refusal):
                        listing.skipped.append(SkippedFile(path: Self.join(folder, refusal.shownName), reason: refusal.reason))
                        continue
                    case .success(let found):
                        name = found
                    }
                    let path = Self.join(folder, name)
                    switch ObjectName.judge(name, isFolder: false) {
                    case .ignored:
                        continue
                    case .refused(let reason):
                        listing.skipped.append(SkippedFile(path: Self.join(folder, ListedKey.escaped(name)), reason: reason))
                        continue
                    case .accepted:
                        break
                    }
                    guard let type = MediaFileType.mediaType(ofFileNamed: name) else { continue }
                    listing.files.append(FileEntry(relativePath: path, directory: folder, rootPath: rootPath, mediaType: type,
                                                   byteSize: object.byteSize, modificationTime: Self.nanoseconds(object.lastModified),
                                                   contentTag: object.eTag))
                }
                try Task.checkCancellation()
            }
        } catch let error as S3Error {
            throw BucketUnavailable.classify(error)
        }
        // An object whose name is also a folder's: one of them only can be on this machine.
        listing.files.removeAll { file in
            guard folders.contains(file.filename) else { return false }
            listing.skipped.append(SkippedFile(path: file.relativePath,
                                               reason: "a folder has the same name (keys under \(file.filename)/): one of them only can be kept on this machine"))
            return true
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
