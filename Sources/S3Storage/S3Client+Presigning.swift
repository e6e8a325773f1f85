import Foundation

extension S3Client {
    /// A URL that reads one object without credentials until it expires: SigV4 in the query
    /// string, so a program that only speaks HTTP (ffprobe reading a remote video) can fetch it,
    /// ranges included.
    ///
    /// The URL carries the access key id and a signature, never the secret; whoever holds it
    /// can read that object until it expires, so it is not to be logged either.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object's key.
    ///   - expires: How long the URL opens the object: 1 second to 7 days (S3's bounds; longer is cut to 7 days).
    ///   - now: The signing time.
    /// - Returns: The URL, for a `GET` of the whole object or of a `Range` of it.
    public func presignedURL(bucket: String, key: String, expires: Duration, now: Date = Date()) -> URL {
        let seconds = min(max(Int(expires.components.seconds), 1), 7 * 24 * 3600)
        let address = address(bucket: bucket, key: key)
        let query = signer.presignedQuery(method: "GET", host: address.host, encodedPath: address.encodedPath, query: [],
                                          expires: seconds, now: now)
        return URL(string: address.origin + address.encodedPath + "?" + SigV4Signer.canonicalQuery(query))!
    }
}
