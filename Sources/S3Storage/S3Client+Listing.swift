import Crypto
import Foundation

extension S3Client {
    /// One page of the objects under `prefix` (`ListObjectsV2`).
    ///
    /// With `delimiter: "/"` the page holds one "folder" level: the objects directly under
    /// `prefix`, and in ``S3ListPage/commonPrefixes`` the prefixes of those further down.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys beginning with it; `""` for all.
    ///   - delimiter: The character that ends a "folder", or `nil` for every key under `prefix`.
    ///   - continuationToken: The previous page's ``S3ListPage/nextContinuationToken``; `nil` for the first.
    ///   - maxKeys: At most this many keys and prefixes, 1 to 1,000.
    /// - Throws: ``S3Error`` (``S3Error/noSuchBucket(bucket:)``, ``S3Error/accessDenied(bucket:reason:)``, ...).
    public func listObjects(bucket: String, prefix: String, delimiter: String?, continuationToken: String?,
                            maxKeys: Int = 1000) async throws -> S3ListPage {
        var query = [("list-type", "2"), ("encoding-type", "url"), ("max-keys", String(min(max(maxKeys, 1), 1000)))]
        if !prefix.isEmpty { query.append(("prefix", prefix)) }
        if let delimiter { query.append(("delimiter", delimiter)) }
        if let continuationToken { query.append(("continuation-token", continuationToken)) }
        let (_, data) = try await perform(Request(method: .GET, bucket: bucket, query: query), limit: limits.maximumListingBytes)
        return try ListObjectsAnswer.page(from: data, bucket: bucket)
    }

    /// Every page under `prefix`, each asked for when the previous one has been taken, so no
    /// more than a page is held however large the bucket.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys beginning with it; `""` for all.
    ///   - delimiter: The character that ends a "folder", or `nil` for every key under `prefix`.
    /// - Returns: The pages, in key order; iterating throws what ``listObjects(bucket:prefix:delimiter:continuationToken:maxKeys:)`` throws.
    public func objects(bucket: String, prefix: String, delimiter: String?) -> S3ListPages {
        S3ListPages(client: self, bucket: bucket, prefix: prefix, delimiter: delimiter)
    }
}

/// The pages of a listing, fetched one at a time as they are iterated
/// (``S3Client/objects(bucket:prefix:delimiter:)``).
public struct S3ListPages: AsyncSequence, Sendable {
    /// A page of objects.
    public typealias Element = S3ListPage

    let client: S3Client
    let bucket: String
    let prefix: String
    let delimiter: String?

    /// Fetches the next page when asked. A continuation token the listing gave before ends the
    /// listing with an error (a server that would loop forever); the tokens are kept as digests,
    /// so however long they are, each page costs 32 bytes.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let pages: S3ListPages
        var token: String?
        var isFinished = false
        var seenTokens: Set<Data> = []

        /// The next page, or `nil` after the last.
        public mutating func next() async throws -> S3ListPage? {
            guard !isFinished else { return nil }
            let page: S3ListPage
            do {
                page = try await pages.client.listObjects(bucket: pages.bucket, prefix: pages.prefix, delimiter: pages.delimiter,
                                                          continuationToken: token)
            } catch {
                isFinished = true
                throw error
            }
            token = page.nextContinuationToken
            isFinished = token == nil
            if let token, !seenTokens.insert(Data(SHA256.hash(data: Data(token.utf8)))).inserted {
                isFinished = true
                let place = "s3://\(pages.bucket)/\(pages.prefix)"
                throw S3Error.malformed("\(place): the listing gave a continuation token it gave before, so it would never end")
            }
            return page
        }
    }

    /// An iterator from the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: self)
    }
}
