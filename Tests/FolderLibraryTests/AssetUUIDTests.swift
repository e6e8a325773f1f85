import Foundation
import LibraryTree
import Testing

@Suite("Path UUIDs are RFC 9562 version-5 UUIDs")
struct AssetUUIDTests {
    @Test("a file's UUID is the version-5 UUID of its path in the asset namespace (values from Python's uuid.uuid5)",
          arguments: [("A_camera_exif/jhead__sony.jpg", "0477229F-5F47-5912-AB70-B74268948C80"),
                      (String(repeating: "x", count: 70), "07ACA446-02C7-55FA-BC6D-37C7156C9A88"),
                      ("", "42676E54-D790-53D4-A7EB-E44AECFC5FB6")])
    func knownAnswers(_ path: String, _ expected: String) {
        #expect(AssetUUID.forFile(atRelativePath: path).uuidString == expected)
    }
}
