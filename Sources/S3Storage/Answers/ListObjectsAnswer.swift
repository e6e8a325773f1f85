import Foundation

/// A `ListObjectsV2` answer (`ListBucketResult`) read into a page.
///
/// The listing is asked for with `encoding-type=url`, so keys arrive percent-encoded (AWS writes
/// a space as `+`, moto as `%20`; both decode) and a key with characters XML cannot carry still
/// lists. An entry that cannot be read (a key that is not percent-encoded UTF-8, a size that is
/// not a number from 0 to ``S3Object/maximumByteSize``, a missing key, size or time) is passed
/// over into ``S3ListPage/unreadable`` with its reason; only a page that is no listing at all
/// is refused.
enum ListObjectsAnswer {
    static func page(from data: Data, bucket: String) throws -> S3ListPage {
        guard let root = XMLTree.parse(data), root.name == "ListBucketResult" else {
            throw S3Error.malformed("s3://\(bucket): the listing is not a ListBucketResult")
        }
        let isURLEncoded = root.text("EncodingType") == "url"
        func decoded(_ value: String) -> String? {
            isURLEncoded ? URIEncoding.decode(value, plusIsSpace: true) : value
        }
        var objects: [S3Object] = []
        var unreadable: [S3ListPage.UnreadableEntry] = []
        for entry in root.children("Contents") {
            guard let listedKey = entry.text("Key"), !listedKey.isEmpty else {
                unreadable.append(.init(listedKey: nil, reason: "a listed object has no key"))
                continue
            }
            guard let key = decoded(listedKey) else {
                unreadable.append(.init(listedKey: listedKey, reason: "the listed key is not percent-encoded UTF-8"))
                continue
            }
            guard let sizeText = entry.text("Size") else {
                unreadable.append(.init(listedKey: listedKey, key: key, reason: "the listing gives no size"))
                continue
            }
            guard let size = Int64(sizeText), size >= 0, size <= S3Object.maximumByteSize else {
                let shown = sizeText.count > 40 ? String(sizeText.prefix(40)) + "…" : sizeText
                unreadable.append(.init(listedKey: listedKey, key: key,
                                        reason: "the listed size `\(shown)` is not a number of bytes from 0 to \(S3Object.maximumByteSize)"))
                continue
            }
            guard let modified = entry.text("LastModified").flatMap(HTTPDate.iso8601) else {
                unreadable.append(.init(listedKey: listedKey, key: key, reason: "the listing gives no readable time of change"))
                continue
            }
            objects.append(S3Object(key: key, byteSize: size, eTag: entry.text("ETag") ?? "", lastModified: modified))
        }
        var prefixes: [String] = []
        for entry in root.children("CommonPrefixes") {
            guard let listed = entry.text("Prefix") else { continue }
            guard let prefix = decoded(listed) else {
                unreadable.append(.init(listedKey: listed, reason: "the listed folder is not percent-encoded UTF-8"))
                continue
            }
            prefixes.append(prefix)
        }
        let isTruncated = root.text("IsTruncated") == "true"
        let token = root.text("NextContinuationToken").flatMap { $0.isEmpty ? nil : $0 }
        if isTruncated, token == nil {
            throw S3Error.malformed("s3://\(bucket): a truncated listing without a continuation token")
        }
        return S3ListPage(objects: objects, commonPrefixes: prefixes, nextContinuationToken: isTruncated ? token : nil,
                          unreadable: unreadable)
    }
}
