import Foundation
import Testing
@testable import S3Storage

@Suite("listing answers")
struct ListObjectsAnswerTests {
    @Test("URL-encoded keys decode whether a space came as + (AWS) or %20 (moto); + itself is %2B")
    func decodesKeys() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><EncodingType>url</EncodingType>\
            <IsTruncated>true</IsTruncated><NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>\
            <Contents><Key>a+b%20c%2Bd%C3%BC</Key><LastModified>2013-05-24T00:00:00.500Z</LastModified>\
            <ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>434234</Size></Contents>\
            <CommonPrefixes><Prefix>photos%2F2024/</Prefix></CommonPrefixes></ListBucketResult>
            """
        let page = try ListObjectsAnswer.page(from: Data(xml.utf8), bucket: "b")
        #expect(page.objects == [S3Object(key: "a b c+dü", byteSize: 434234, eTag: "\"9b2cf535f27731c974343645a3985328\"",
                                          lastModified: Date(timeIntervalSince1970: 1_369_353_600.5))])
        #expect(page.commonPrefixes == ["photos/2024/"])
        #expect(page.nextContinuationToken == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")
    }

    @Test("what is not a listing is malformed, not an empty page")
    func refusesOthers() {
        for text in ["", "<html>proxy error</html>", "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>"] {
            #expect(throws: S3Error.self) { try ListObjectsAnswer.page(from: Data(text.utf8), bucket: "b") }
        }
    }

    @Test("an entry that cannot be read is passed over with its reason; the page's other entries are read")
    func unreadableEntries() throws {
        let time = "<LastModified>2024-05-01T10:00:00.000Z</LastModified>"
        let entries = [
            "<Contents><Key>k</Key></Contents>",
            "<Contents><Key>neg.jpg</Key>\(time)<Size>-1</Size></Contents>",
            "<Contents><Key>big.jpg</Key>\(time)<Size>99999999999999999999</Size></Contents>",
            "<Contents><Key>bad%FF.jpg</Key>\(time)<Size>1</Size></Contents>",
            "<Contents>\(time)<Size>1</Size></Contents>",
            "<Contents><Key>ok.jpg</Key>\(time)<Size>5</Size></Contents>",
        ]
        let text = "<ListBucketResult><EncodingType>url</EncodingType>\(entries.joined())<IsTruncated>false</IsTruncated></ListBucketResult>"
        let page = try ListObjectsAnswer.page(from: Data(text.utf8), bucket: "b")
        #expect(page.objects.map(\.key) == ["ok.jpg"])
        #expect(page.unreadable.map(\.listedKey) == ["k", "neg.jpg", "big.jpg", "bad%FF.jpg", nil])
        #expect(page.unreadable[1].reason.contains("`-1` is not a number of bytes"))
        #expect(page.unreadable[3].reason.contains("not percent-encoded UTF-8"))
    }

    @Test("S3's error codes become errors a person can act on, each naming the bucket or object")
    func errors() {
        let answer = ErrorAnswer(Data("<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>".utf8))
        #expect(answer == ErrorAnswer(code: "NoSuchKey", message: "The specified key does not exist."))
        #expect(S3Error.from(status: 404, code: "NoSuchKey", message: "", bucket: "b", key: "k").description == "s3://b/k: no such object")
        #expect(S3Error.from(status: 404, code: "NoSuchBucket", message: "", bucket: "b", key: nil).description == "s3://b: no such bucket")
        #expect(S3Error.from(status: 403, code: "SignatureDoesNotMatch", message: "", bucket: "b", key: "k").description
            == "s3://b: the credentials were refused (SignatureDoesNotMatch)")
        #expect(S3Error.from(status: 412, code: "", message: "", bucket: "b", key: "k") == .changed(bucket: "b", key: "k"))
        #expect(S3Error.from(status: 503, code: "SlowDown", message: "Reduce your request rate.", bucket: "b", key: "k").description
            == "s3://b/k: HTTP 503 SlowDown: Reduce your request rate.")
    }

    @Test("dates in both of S3's forms")
    func dates() {
        #expect(HTTPDate.rfc1123("Fri, 24 May 2013 00:00:00 GMT") == Date(timeIntervalSince1970: 1_369_353_600))
        #expect(HTTPDate.iso8601("2013-05-24T00:00:00Z") == Date(timeIntervalSince1970: 1_369_353_600))
        #expect(HTTPDate.rfc1123("yesterday") == nil)
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 1_369_353_600.9)) == "20130524T000000Z")
    }

    @Test("URI encoding keeps only the unreserved characters, and / in keys", arguments: [
        ("a b+c=d%e", false, "a%20b%2Bc%3Dd%25e"),
        ("photos/2024/ü.jpg", true, "photos/2024/%C3%BC.jpg"),
        ("a/b", false, "a%2Fb"),
        ("!'()*~-._", false, "%21%27%28%29%2A~-._"),
    ])
    func encoding(_ value: String, _ keepingSlashes: Bool, _ encoded: String) {
        #expect(URIEncoding.encode(value, keepingSlashes: keepingSlashes) == encoded)
        #expect(URIEncoding.decode(encoded) == value)
    }
}
