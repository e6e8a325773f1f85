import Testing
import S3Storage

@Suite("s3:// locations")
struct S3LocationTests {
    @Test("a bucket and a folder prefix are read, the prefix ending with a slash", arguments: [
        ("s3://photos", "photos", ""),
        ("s3://photos/", "photos", ""),
        ("s3://photos/2024", "photos", "2024/"),
        ("s3://photos/2024/summer/", "photos", "2024/summer/"),
        ("s3://my.bucket-1/a b/ü/", "my.bucket-1", "a b/ü/"),
        ("S3://photos/x", "photos", "x/"),
    ])
    func parses(_ text: String, _ bucket: String, _ prefix: String) throws {
        let location = try #require(S3Location(string: text))
        #expect(location.bucket == bucket)
        #expect(location.prefix == prefix)
        #expect(location.description == "s3://\(bucket)/\(prefix)")
    }

    @Test("what S3 would refuse or a folder cannot be is no location", arguments: [
        "photos", "https://photos/x", "s3://", "s3:///x", "s3://ab", "s3://Photos", "s3://photos_1", "s3://-photos",
        "s3://photos-", "s3://pho..tos", "s3://192.168.1.1", "s3://xn--photos", "s3://photos-s3alias",
        "s3://photos/../etc", "s3://photos/a/../b", "s3://photos/./a", "s3://photos/a//b", "s3://photos//a",
        "s3://photos/a\u{0}b", "s3://photos/line\nbreak", "s3://\(String(repeating: "a", count: 64))",
    ])
    func refuses(_ text: String) {
        #expect(S3Location(string: text) == nil)
    }

    @Test("a key is the prefix and the relative path")
    func key() throws {
        let location = try #require(S3Location(bucket: "photos", prefix: "2024"))
        #expect(location.key("IMG_1.jpg") == "2024/IMG_1.jpg")
        #expect(try #require(S3Location(bucket: "photos")).key("IMG_1.jpg") == "IMG_1.jpg")
    }
}
