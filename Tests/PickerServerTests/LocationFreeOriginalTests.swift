import Foundation
import ImageMetadata
import ImagePipeline
import ProcessRunning
import Testing
import TestSupport

/// A client fetching a pick's original through its base URL and `=d` gets nothing of where
/// the photo was taken, however the place was hidden in the file.
@Suite struct LocationFreeOriginalTests {
    @Test func nothingOfAPlantedPlaceReachesAClientThroughEqualsD() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planted-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var planted: [String: PlantedPlace.Planted] = [:]
        var files: [URL] = []
        for place in PlantedPlace.allCases {
            let made = try await place.make(in: folder)
            let file = folder.appendingPathComponent("planted-\(place.rawValue).jpg")
            try made.data.write(to: file)
            planted[file.lastPathComponent] = made
            files.append(file)
        }
        // Another format with a place in its EXIF and XMP: it is answered as a rendition.
        let png = folder.appendingPathComponent("planted-png.png")
        let converted = try await ToolRunner.fixture(.ffmpeg, arguments: ["-nostdin", "-loglevel", "error", "-i", Corpus.file(PlantedPlace.baseName).path, png.path])
        #expect(converted.succeeded, "\(converted.standardError)")
        try await ExifTool.run(["-q", "-overwrite_original", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945",
                                "-GPSLongitudeRef=E", "-XMP-photoshop:City=Plantedpngcity", png.path])
        let heic = Corpus.file("E_formats/exiv2__Stonehenge.heic")
        for file in [png, heic] {
            #expect(!PlantedPlace.placeKeys(in: try await ExifTool.tags(of: file)).isEmpty, "\(file.lastPathComponent) has no place to remove")
        }
        files += [png, heic]

        let server = try await TestServer.indexed(adding: files)
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        try await person.pick(try await person.cameraRollIDs(media: "photo"))
        let items = try await server.client.mediaItems(in: session.id)
        let renderer = ImageRenderer()
        for name in files.map(\.lastPathComponent) {
            let item = try #require(items.first { $0.mediaFile.filename == name }, "\(name)")
            let answer = try await server.request("GET", item.baseURLPath + "=d")
            #expect(answer.status == 200 && answer.header("Content-Type") == "image/jpeg", "\(name)")
            #expect(answer.header("Content-Length") == String(answer.body.count), "\(name)")
            let received = folder.appendingPathComponent("received-\(name).jpg")
            try answer.body.write(to: received)
            let tags = try await ExifTool.tags(of: received)
            #expect(PlantedPlace.placeKeys(in: tags).isEmpty, "\(name): \(PlantedPlace.placeKeys(in: tags))")
            for text in (planted[name]?.texts ?? []) + ["Plantedpngcity"] {
                #expect(answer.body.range(of: Data(text.utf8)) == nil, "\(name): \(text) survived")
            }
            guard let made = planted[name] else {
                // A rendition: no EXIF, XMP, IPTC or ICC profile at all.
                let groups = Set(tags.keys.filter { $0 != "SourceFile" }.map { String($0.prefix { $0 != ":" }) })
                #expect(groups.isSubset(of: ["ExifTool", "System", "File", "JFIF", "Composite"]), "\(name): \(groups.sorted())")
                continue
            }
            for (key, value) in PlantedPlace.keptFromBase {
                #expect(tags[key] == value, "\(name): \(key)")
            }
            // The first image's scans as the file holds them, ending at its EOI; nothing after.
            let rebuilt = try #require(try LocationFreeJPEG.header(in: made.data))
            var scans = made.data[rebuilt.firstScanOffset..<made.firstImageEnd]
            if let dropped = made.droppedBetweenScans { scans.removeSubrange(dropped) }
            #expect(answer.body == rebuilt.header + scans, "\(name)")
            let expected = try renderer.pixels(of: made.data.prefix(made.firstImageEnd), name: name)
            #expect(try renderer.pixels(of: answer.body, name: name).bytes == expected.bytes, "\(name)")
        }
    }
}
