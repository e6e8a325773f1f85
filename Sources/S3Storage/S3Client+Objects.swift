import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension S3Client {
    /// The facts of one object (`HEAD`): size, entity tag, time of change.
    ///
    /// - Throws: ``S3Error/noSuchKey(bucket:key:)`` when there is no such object (a `HEAD`
    ///   answer has no body, so a missing bucket is reported the same way), or another ``S3Error``.
    public func head(bucket: String, key: String) async throws -> S3Object {
        let (response, _) = try await perform(Request(method: .HEAD, bucket: bucket, key: key), limit: 0)
        return try object(key: key, bucket: bucket, headers: response.headers)
    }

    /// Bytes of an object read into memory, for what is small or a small part: the head of a
    /// photo for its EXIF, a video's header.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object's key.
    ///   - range: The bytes wanted (`0..<65536`), or `nil` for the whole object. A range past
    ///     the object's end gives the bytes there are (none when it starts past the end).
    ///   - eTag: The entity tag the object must still have (`If-Match`), so a changed object is
    ///     an error rather than bytes of another version; `nil` for whichever version is there.
    /// - Returns: The bytes.
    /// - Throws: ``S3Error/tooLarge(bucket:key:size:limit:)`` when more than
    ///   ``Limits/maximumBytes`` would come (checked before reading), ``S3Error/changed(bucket:key:)``,
    ///   ``S3Error/noSuchKey(bucket:key:)`` or another ``S3Error``.
    public func bytes(bucket: String, key: String, range: Range<Int64>?, ifMatch eTag: String?) async throws -> Data {
        let limit = limits.maximumBytes
        var headers: [(String, String)] = []
        if let range {
            guard !range.isEmpty else { return Data() }
            guard range.lowerBound >= 0 else {
                throw S3Error.malformed("s3://\(bucket)/\(key): a byte range cannot start before 0")
            }
            if Int64(range.count) > limit {
                throw S3Error.tooLarge(bucket: bucket, key: key, size: Int64(range.count), limit: limit)
            }
            headers.append(("range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)"))
        }
        if let eTag { headers.append(("if-match", eTag)) }
        let request = Request(method: .GET, bucket: bucket, key: key, headers: headers)
        let response = try await send(request, deadline: Self.deadline(after: limits.requestTimeout))
        switch response.status.code {
        case 416:
            _ = try? await response.body.collect(upTo: limits.maximumErrorBytes)
            return Data()
        case 200..<300:
            // A part is no longer than the part asked for; only a server ignoring the range
            // (200) may send the whole object, and that within the limit.
            let partial = response.status.code == 206
            let bodyLimit = if let range, partial { Int(range.count) } else { Int(limit) }
            let data = try await body(of: response, limit: bodyLimit, bucket: bucket, key: key)
            if let range, response.status.code == 200 {
                // The server ignored the range and sent the whole (small) object.
                let start = Int(min(range.lowerBound, Int64(data.count)))
                let end = Int(min(range.upperBound, Int64(data.count)))
                return data.subdata(in: start..<end)
            }
            return data
        default:
            throw await failure(response, bucket: bucket, key: key)
        }
    }

    /// Writes an object from bytes in memory; the body is signed with its SHA-256.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object's key.
    ///   - data: The bytes (S3 takes up to 5 GiB in one `PUT`).
    ///   - contentType: The `Content-Type` to store, or `nil` for S3's default.
    /// - Returns: The new object's entity tag, with its quotes.
    @discardableResult
    public func put(bucket: String, key: String, data: Data, contentType: String?) async throws -> String {
        var request = Request(method: .PUT, bucket: bucket, key: key, payload: .bytes(data))
        if let contentType { request.headers.append(("content-type", contentType)) }
        let timeout = limits.requestTimeout + .seconds(data.count >> 20)
        let (response, _) = try await perform(request, limit: limits.maximumErrorBytes, timeout: timeout)
        return response.headers.first(name: "etag") ?? ""
    }

    /// Writes an object from a file, streamed as it is read (the body is not signed:
    /// `UNSIGNED-PAYLOAD`).
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object's key.
    ///   - file: The file (S3 takes up to 5 GiB in one `PUT`).
    ///   - contentType: The `Content-Type` to store, or `nil` for S3's default.
    /// - Returns: The new object's entity tag, with its quotes.
    @discardableResult
    public func put(bucket: String, key: String, file: URL, contentType: String?) async throws -> String {
        let size: Int64
        do {
            size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw S3Error.malformed("\(file.path): the file to upload cannot be read")
        }
        var request = Request(method: .PUT, bucket: bucket, key: key, payload: .file(file, byteSize: size))
        if let contentType { request.headers.append(("content-type", contentType)) }
        let timeout = limits.requestTimeout + .seconds(size >> 20)
        let (response, _) = try await perform(request, limit: limits.maximumErrorBytes, timeout: timeout)
        return response.headers.first(name: "etag") ?? ""
    }

    /// Deletes an object; deleting one that is not there is no error (S3's way).
    public func delete(bucket: String, key: String) async throws {
        _ = try await perform(Request(method: .DELETE, bucket: bucket, key: key), limit: limits.maximumErrorBytes)
    }

    /// Creates a bucket in the configuration's region; a bucket that already exists and is
    /// ours is no error.
    public func createBucket(_ bucket: String) async throws {
        var request = Request(method: .PUT, bucket: bucket)
        if configuration.region != "us-east-1" {
            let body = """
            <CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">\
            <LocationConstraint>\(configuration.region)</LocationConstraint></CreateBucketConfiguration>
            """
            request.payload = .bytes(Data(body.utf8))
        }
        do {
            _ = try await perform(request, limit: limits.maximumErrorBytes)
        } catch let S3Error.http(_, _, 409, code, _) where code == "BucketAlreadyOwnedByYou" {
            return
        }
    }

    /// The facts of `key` from an answer's headers.
    func object(key: String, bucket: String, headers: HTTPHeaders, size: Int64? = nil) throws -> S3Object {
        guard let byteSize = size ?? headers.first(name: "content-length").flatMap(Int64.init) else {
            throw S3Error.malformed("s3://\(bucket)/\(key): the answer has no Content-Length")
        }
        let modified = headers.first(name: "last-modified").flatMap(HTTPDate.rfc1123) ?? Date(timeIntervalSince1970: 0)
        return S3Object(key: key, byteSize: byteSize, eTag: headers.first(name: "etag") ?? "", lastModified: modified)
    }
}
