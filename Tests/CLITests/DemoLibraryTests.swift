import Foundation
import Testing
import TestSupport

/// The demo library is made once per test run (``DemoLibraryFixture``) in a fresh temporary
/// folder named by `ASSETS_PICKER_DEMO_LIBRARY`; every test here waits for it. The time limit
/// is a hang guard: making the library takes about 20 s on a quiet machine.
@Suite("assets-picker on the demo library", .timeLimit(.minutes(20)))
struct DemoLibraryTests {
    @Test("albums without --library makes the demo library and indexes it (auto on a writable folder): camera roll first, folders 100APPLE, Lisbon 2023, Screenshots, Exports (DCIM and Holidays empty)")
    func firstRunMakesLibrary() async throws {
        let demo = try await DemoLibraryFixture.shared.value
        let result = demo.firstAlbums
        #expect(result.status == 0, "\(result)")
        #expect(!result.timedOut, "not stopped by the hang guard")
        #expect(result.stderrText.isEmpty, "\(result.stderrText)")

        let document = try result.json()
        #expect(try document.string("library") == demo.root.standardizedFileURL.path)
        #expect(try document.string("backend") == "indexed")
        let albums = try document.objects("albums")
        try #require(!albums.isEmpty)
        #expect(try albums[0].string("kind") == "cameraRoll")
        #expect(try albums[0].string("title") == "All Photos")
        let folders = try albums.filter { try $0.string("kind") == "directory" }
        #expect(try Set(folders.map { try $0.string("title") }) == ["DCIM", "100APPLE", "Holidays", "Lisbon 2023", "Screenshots", "Exports"])
        // Folders holding only folders are empty albums, as on the folder backend.
        #expect(try folders.allSatisfy { try $0.int("count") > 0 || ["DCIM", "Holidays"].contains($0.string("title")) })
        #expect(try albums[0].int("count") == folders.reduce(0) { try $0 + $1.int("count") })

        let fm = FileManager.default
        #expect(fm.fileExists(atPath: demo.root.appendingPathComponent(".demo-library-complete").path))
        // The library is built in a staging folder and moved into place: nothing else is left.
        #expect(try fm.contentsOfDirectory(atPath: demo.root.deletingLastPathComponent().path) == ["demo"])
    }

    @Test("assets --media video on the demo library: two videos, tram.mov portrait 360x640 (rotated in its container)")
    func demoVideos() async throws {
        let result = try await DemoLibraryFixture.run(["assets", "--json", "--media", "video"])
        #expect(result.status == 0, "\(result)")
        let videos = try result.json().objects("assets")
        #expect(videos.count == 2)
        let byName = try Dictionary(uniqueKeysWithValues: videos.map { (try $0.string("filename"), $0) })
        let tram = try #require(byName["tram.mov"], "\(byName.keys)")
        #expect(try tram.int("pixelWidth") == 360 && tram.int("pixelHeight") == 640, "upright size of a 640x360 clip turned 90°")
        #expect(abs(try tram.double("duration") - 2) < 0.1)
        let clip = try #require(byName["IMG_0019.MP4"], "\(byName.keys)")
        #expect(try clip.int("pixelWidth") == 640 && clip.int("pixelHeight") == 360)
        #expect(abs(try clip.double("duration") - 3) < 0.1)
        #expect(try videos.allSatisfy { try $0.string("mediaType") == "video" })
    }

    @Test("an EXIF orientation-6 demo photo lists its upright size, and image output agrees with it")
    func rotatedPhotoSizeIsConsistent() async throws {
        let listed = try await DemoLibraryFixture.run(["assets", "--json", "--media", "photo"])
        #expect(listed.status == 0, "\(listed)")
        let rotated = try listed.json().objects("assets").filter {
            try $0.int("orientation") == 6 && $0.int("pixelWidth") != $0.int("pixelHeight")
        }
        try #require(!rotated.isEmpty, "the demo library has non-square photos with EXIF orientation 6")
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        for photo in rotated {
            let id = try photo.string("id"), name = try photo.string("filename")
            let width = try photo.int("pixelWidth"), height = try photo.int("pixelHeight")

            // The file stores the picture turned: its frame is the listed size transposed.
            let info = try await DemoLibraryFixture.run(["info", "--json", "--asset", id]).json()
            let stored = try #require(ImageFileProbe.jpegSize(try Data(contentsOf: URL(fileURLWithPath: info.string("originalPath")))))
            #expect(stored.width == height && stored.height == width, "\(name): stored \(stored), listed \(width)x\(height)")

            // A large request (the full-screen rendition) keeps the listed orientation.
            let screenOut = folder.appendingPathComponent("\(name)-screen.jpg")
            let screen = try await DemoLibraryFixture.run(["image", "--json", "--asset", id, "--size", "2048x2048", "--out", screenOut.path])
            #expect(screen.status == 0, "\(screen)")
            if screen.status == 0 {
                let real = try #require(ImageFileProbe.jpegSize(try Data(contentsOf: screenOut)))
                #expect(try real.width == screen.json().int("pixelWidth") && real.height == screen.json().int("pixelHeight"))
                #expect((real.width > real.height) == (width > height), "\(name): \(real) vs listed \(width)x\(height)")
            }

            // Full resolution is exactly the listed size, turned images included.
            let fullOut = folder.appendingPathComponent("\(name)-full.jpg")
            let full = try await DemoLibraryFixture.run(["image", "--json", "--asset", id, "--size", "full", "--out", fullOut.path])
            try #require(full.status == 0, "\(full)")
            let answer = try full.json()
            let real = try #require(ImageFileProbe.jpegSize(try Data(contentsOf: fullOut)))
            #expect(try answer.int("pixelWidth") == width && answer.int("pixelHeight") == height, "\(name): \(answer.raw)")
            #expect(real.width == width && real.height == height, "\(name): file \(real), listed \(width)x\(height)")
        }
    }

    @Test("albums a second time reuses the demo library and its index: marker kept, no file added, removed or rewritten")
    func secondRunReuses() async throws {
        let demo = try await DemoLibraryFixture.shared.value
        try #require(demo.firstAlbums.status == 0, "\(demo.firstAlbums)")
        let before = try TreeSnapshot.of(demo.root)
        #expect(before.keys.contains(".demo-library-complete"))
        #expect(before.count > 30, "the library's files: \(before.keys.sorted())")

        let second = try await DemoLibraryFixture.run(["albums", "--json"])
        #expect(second.status == 0, "\(second)")
        #expect(try TreeSnapshot.of(demo.root) == before, "no file added, removed or rewritten")
        #expect(try second.json().objects("albums").map { try $0.string("id") }
                == demo.firstAlbums.json().objects("albums").map { try $0.string("id") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: demo.root.deletingLastPathComponent().path) == ["demo"])
    }
}

/// The demo library, made once per test run by the first `albums` without `--library`, in a
/// fresh temporary folder (removed when the test process exits).
struct DemoLibraryRun: Sendable {
    let root: URL
    let firstAlbums: CLIResult
}

enum DemoLibraryFixture {
    /// The folder holding the demo library (and nothing else).
    static let parent: URL = FileManager.default.temporaryDirectory
        .appendingPathComponent("assets-picker-cli-tests-\(getpid())-\(UUID().uuidString)", isDirectory: true)

    static let shared = Task<DemoLibraryRun, any Error> {
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: DemoLibraryFixture.parent) }
        let root = parent.appendingPathComponent("demo", isDirectory: true)
        // A debug build takes about 20 s to make the library on an idle machine.
        let result = try await CLI.run(["albums", "--json"], environment: ["ASSETS_PICKER_DEMO_LIBRARY": root.path],
                                       timeout: .seconds(900))
        return DemoLibraryRun(root: root, firstAlbums: result)
    }

    /// Runs a command on the demo library (no `--library`), once it has been made.
    static func run(_ arguments: [String]) async throws -> CLIResult {
        let demo = try await shared.value
        return try await CLI.run(arguments, environment: ["ASSETS_PICKER_DEMO_LIBRARY": demo.root.path])
    }
}
