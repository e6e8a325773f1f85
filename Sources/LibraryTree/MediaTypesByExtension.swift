import AssetsKit
import MediaProbing

/// ``MediaFileType/mediaType(ofFileNamed:)`` remembered per extension as it is spelled, so that
/// naming the files of a large folder asks once per extension (`JPG`, `jpg`, `MOV`), not once per file.
struct MediaTypesByExtension {
    private var known: [Substring: MediaType?] = [:]

    mutating func mediaType(ofFileNamed name: String) -> MediaType? {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return MediaFileType.mediaType(ofFileNamed: name) }
        let spelled = name[dot...]
        if let type = known[spelled] { return type }
        let type = MediaFileType.mediaType(ofFileNamed: name)
        known[spelled] = type
        return type
    }
}
