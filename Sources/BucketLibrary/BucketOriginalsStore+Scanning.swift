import AssetsKit
import Foundation
import IndexedLibrary
import LibraryTree
import MediaProbing
import S3Storage

/// What a scan walks and reads in a bucket: its listing, folder by folder, and the heads of the
/// objects new to the index or changed.
extension BucketOriginalsStore {
    package func walk() throws -> any ListingWalk {
        BucketListingWalk(client: client, location: location)
    }

    /// The object's size and entity tag: alike for a copy of the same bytes (a copied-then-deleted
    /// object is a move), read from the listing without a request.
    package func fingerprint(of file: FileEntry) async throws -> String {
        guard let tag = file.contentTag, !tag.isEmpty else {
            throw ObjectReadFailure(description: "\(place(of: file.relativePath)): the listing gave no entity tag")
        }
        return "\(file.byteSize):\(tag)"
    }

    /// The entity tag in a fingerprint ``fingerprint(of:)`` made; `nil` for another kind.
    static func entityTag(fromFingerprint fingerprint: String) -> String? {
        guard let colon = fingerprint.firstIndex(of: ":"), Int64(fingerprint[..<colon]) != nil else { return nil }
        let tag = fingerprint[fingerprint.index(after: colon)...]
        return tag.isEmpty ? nil : String(tag)
    }

    package func metadata(of file: FileEntry, reader: any MediaMetadataReading) async throws -> MediaMetadata {
        let (metadata, cost) = try await headReader.metadata(of: file, key: key(of: file.relativePath), place: place(of: file.relativePath),
                                                             reader: reader)
        count(cost)
        return metadata
    }

    /// Whether an object is at `path` now (a `HEAD`), so that an object copied elsewhere is not
    /// taken for a move while its first key still holds it. When the bucket cannot say, it is
    /// taken to be there (no move is claimed).
    package func holdsFile(at path: String) async -> Bool {
        guard MediaFileType.mediaType(ofFileNamed: (path as NSString).lastPathComponent) != nil else { return false }
        do {
            _ = try await client.head(bucket: location.bucket, key: key(of: path))
            return true
        } catch S3Error.noSuchKey {
            return false
        } catch {
            return true
        }
    }

    /// The walk is the bucket's word: a row the listing did not show is gone (asked only of those).
    package func holdsFileNow(at path: String) -> Bool {
        false
    }

    /// Removes what fetches and head reads cut short left in the cache's `.partial/`.
    package func removeLeftovers() {
        cache.removeLeftovers()
    }
}
