import Foundation

/// A `ListObjectsV2` answer (`ListBucketResult`) read into a page.
///
/// The listing is asked for with `encoding-type=url`, so keys arrive percent-encoded (AWS writes
/// a space as `+`, moto as `%20`; both decode) and a key with characters XML cannot carry still
/// lists.
enum ListObjectsAnswer {
    static func page(from data: Data, bucket: String) throws -> S3ListPage {
        guard let root = XMLTree.parse(data), root.name == "ListBucketResult" else {
            throw S3Error.malformed("s3://\(bucket): the listing is not a ListBucketResult")
        }
        let isURLEncoded = root.text("EncodingType") == "url"
        func decoded(_ value: String) throws -> String {
            guard isURLEncoded else { return value }
            guard let plain = URIEncoding.decode(value, plusIsSpace: true) else {
                throw S3Error.malformed("s3://\(bucket): a listed key is not percent-encoded UTF-8")
            }
            return plain
        }
        let objects = try root.children("Contents").map { entry in
            guard let key = entry.text("Key"), let size = entry.text("Size").flatMap({ Int64($0) }),
                  let modified = entry.text("LastModified").flatMap(HTTPDate.iso8601) else {
                throw S3Error.malformed("s3://\(bucket): a listed object lacks its key, size or time")
            }
            return S3Object(key: try decoded(key), byteSize: size, eTag: entry.text("ETag") ?? "", lastModified: modified)
        }
        let prefixes = try root.children("CommonPrefixes").compactMap { try $0.text("Prefix").map(decoded) }
        let isTruncated = root.text("IsTruncated") == "true"
        let token = root.text("NextContinuationToken").flatMap { $0.isEmpty ? nil : $0 }
        if isTruncated, token == nil {
            throw S3Error.malformed("s3://\(bucket): a truncated listing without a continuation token")
        }
        return S3ListPage(objects: objects, commonPrefixes: prefixes, nextContinuationToken: isTruncated ? token : nil)
    }
}
