import AssetsKit
import Testing

@Suite("Directory album titles")
struct DirectoryAlbumTitleTests {
    @Test("a folder is titled by its name; a folder named with digits only, by its path from the nearest named one", arguments: [
        ("", "Photos"),
        ("DCIM/100CAMERA", "100CAMERA"),
        ("Trips/Summer 2024", "Summer 2024"),
        ("Imports/2026/11", "Imports / 2026 / 11"),
        ("Scans/1998", "Scans / 1998"),
        ("2024/05/17", "2024 / 05 / 17"),
        ("Trips/2024/Rome", "Rome"),
        ("٢٠٢٤", "٢٠٢٤"), // not an ASCII date part: a name like any other
        ("Été/2024/07", "Été / 2024 / 07"),
        ("Voyages/Café ☕︎", "Café ☕︎"),
    ])
    func title(path: String, expected: String) {
        #expect(AssetCollection.directoryTitle(relativePath: path, libraryName: "Photos") == expected)
    }
}
