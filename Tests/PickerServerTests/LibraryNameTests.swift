import Foundation
@testable import PickerServer
import Testing

/// The library's name in the picker page's header, for a folder and for a bucket.
@Suite struct LibraryNameTests {
    @Test("a folder's name; a bucket's prefix, or the bucket when it has none")
    func names() throws {
        #expect(PickerSessionResource.name(of: URL(fileURLWithPath: "/home/me/Pictures", isDirectory: true)) == "Pictures")
        #expect(PickerSessionResource.name(of: try #require(URL(string: "s3://photos/family/trips/"))) == "trips")
        #expect(PickerSessionResource.name(of: try #require(URL(string: "s3://photos/"))) == "photos")
        #expect(PickerSessionResource.name(of: try #require(URL(string: "s3://photos"))) == "photos")
    }
}
