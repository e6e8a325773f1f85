import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImageMetadata
import ImagePipeline
import ProcessRunning
import PickerClient
import PickerServer
import PickerSessions
import Testing
import TestSupport

/// The client API speaks the Google Photos Picker API's wire format, as its public reference
/// describes it: a client written for Google's changes only its base URL and token.
@Suite struct GoogleWireFormatTests {
    private func error(_ answer: HTTPAnswer) -> (code: Int?, status: String?) {
        let error = answer.json["error"] as? [String: Any]
        return (error?["code"] as? Int, error?["status"] as? String)
    }

    @Test func aSessionIsAPickingSession() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        for (body, count) in [("{}", "2000"), (#"{"pickingConfig": {"maxItemCount": "3"}}"#, "3"), (#"{"pickingConfig": {"maxItemCount": 4}}"#, "4")] {
            let created = try await server.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(created.status == 200, "\(body)")
            let json = created.json
            let polling = try #require(json["pollingConfig"] as? [String: Any])
            #expect(polling["pollInterval"] as? String == "2s")
            let timeout = try #require(polling["timeoutIn"] as? String)
            #expect(timeout.hasSuffix("s") && Double(timeout.dropLast()).map { $0 > 3_500 && $0 <= 3_600 } == true, "\(timeout)")
            #expect((json["pickingConfig"] as? [String: Any])?["maxItemCount"] as? String == count)
            #expect(json["mediaItemsSet"] as? Bool == false)
            let expire = try #require(json["expireTime"] as? String)
            #expect(expire.hasSuffix("Z") && ISO8601DateFormatter().date(from: expire) != nil, "\(expire)")
            let id = try #require(json["id"] as? String)
            let pickerUri = try #require(json["pickerUri"] as? String)
            #expect(pickerUri.hasPrefix("\(server.baseURL.absoluteString)/picker/\(id)/"))
            let deleted = try await server.request("DELETE", "/v1/sessions/\(id)")
            #expect(deleted.status == 200)
            #expect(String(decoding: deleted.body, as: UTF8.self) == "{}")
        }
    }

    @Test func pickedMediaItemsAreDescribedAsDocumented() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let video = try await person.cameraRollIDs(media: "video")[0]
        let photos = try await person.cameraRollIDs(media: "photo")
        try await person.pick([photos[0], video])
        _ = try await server.client.waitUntilPicked(session.id)
        let page = try await server.request("GET", "/v1/mediaItems?sessionId=\(session.id)")
        #expect(page.status == 200)
        let items = try #require(page.json["mediaItems"] as? [[String: Any]])
        #expect(items.count == 2 && page.json["nextPageToken"] == nil)
        let (photo, clip) = (items[0], items[1])
        #expect(photo["id"] as? String == photos[0] && clip["id"] as? String == video)
        #expect(photo["type"] as? String == "PHOTO" && clip["type"] as? String == "VIDEO")
        for item in items {
            let created = try #require(item["createTime"] as? String)
            #expect(created.hasSuffix("Z") && ISO8601DateFormatter().date(from: created) != nil, "\(created)")
        }
        let photoFile = try #require(photo["mediaFile"] as? [String: Any])
        #expect(photoFile["mimeType"] as? String == "image/jpeg")
        #expect((photoFile["baseUrl"] as? String)?.hasPrefix(server.baseURL.absoluteString + "/v1/media/\(session.id)/\(photos[0])/") == true)
        let photoMetadata = try #require(photoFile["mediaFileMetadata"] as? [String: Any])
        #expect((photoMetadata["width"] as? Int ?? 0) > 0 && (photoMetadata["height"] as? Int ?? 0) > 0)
        #expect(photoMetadata["photoMetadata"] is [String: Any] && photoMetadata["videoMetadata"] == nil)
        let clipFile = try #require(clip["mediaFile"] as? [String: Any])
        #expect(clipFile["mimeType"] as? String == "video/mp4" && clipFile["filename"] as? String == "clip.mp4")
        let clipMetadata = try #require(clipFile["mediaFileMetadata"] as? [String: Any])
        #expect(clipMetadata["width"] as? Int == 320 && clipMetadata["height"] as? Int == 240)
        #expect((clipMetadata["videoMetadata"] as? [String: Any])?["processingStatus"] as? String == "READY")
    }

    @Test func baseURLParametersGiveTheSizesTheReferenceDescribes() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        try await person.pick([try await person.largestPhotoID()])
        let item = try #require(try await server.client.mediaItems(in: session.id).first)
        let (width, height) = (item.mediaFile.mediaFileMetadata.width, item.mediaFile.mediaFileMetadata.height)
        #expect(width > 200 && height > 100)
        func size(_ suffix: String) async throws -> (width: Int, height: Int) {
            let answer = try await server.request("GET", item.baseURLPath + suffix)
            #expect(answer.status == 200, "\(suffix)")
            return try #require(ImageFileProbe.jpegSize(answer.body), "\(suffix)")
        }
        let fitted = try await size("=w100-h100")
        #expect(max(fitted.width, fitted.height) == 100)
        let skew = abs(fitted.width * height - fitted.height * width)
        #expect(skew <= max(width, height))
        #expect(try await size("=w120-h50-c") == (120, 50))
        #expect(try await size("=w80").width == 80)
        #expect(try await size("=h60").height == 60)
        let original = try await server.request("GET", item.baseURLPath + "=d")
        #expect(ImageFileProbe.jpegSize(original.body).map { [$0.width, $0.height].sorted() } == [width, height].sorted())
    }

    @Test func theOriginalComesWithoutLocationAndTheFileOnDiskIsUntouched() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        try await person.pick(try await person.cameraRollIDs(media: "photo"))
        let items = try await server.client.mediaItems(in: session.id)
        var located = 0
        for item in items {
            let file = try #require(FileManager.default.enumerator(at: server.root, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == item.mediaFile.filename })
            let source = try Data(contentsOf: file)
            let hadLocation = try JPEGExifLocator.locate(in: source).map { try ExifReader.parse($0.tiff).gps != nil } ?? false
            let answer = try await server.client.content(of: item, .original)
            let exif = try JPEGExifLocator.locate(in: answer).map { try ExifReader.parse($0.tiff) }
            #expect(exif?.gps == nil, "\(item.mediaFile.filename)")
            #expect(ImageFileProbe.jpegSize(answer).map { [$0.width, $0.height] } == ImageFileProbe.jpegSize(source).map { [$0.width, $0.height] })
            #expect(try Data(contentsOf: file) == source)
            // Its header is rebuilt; its image data is the file's own, up to the end of the image.
            let rebuilt = try #require(try LocationFreeJPEG.header(in: source))
            #expect(answer.prefix(rebuilt.header.count) == rebuilt.header, "\(item.mediaFile.filename)")
            let scans = answer.dropFirst(rebuilt.header.count)
            #expect(scans == source[rebuilt.firstScanOffset..<(rebuilt.firstScanOffset + scans.count)], "\(item.mediaFile.filename)")
            if hadLocation { located += 1 }
        }
        #expect(located >= 2)
    }

    @Test func photoMetadataGivesTheExposureAndVideoMetadataTheFrameRate() async throws {
        let heic = try #require(Corpus.files(in: "E_formats") { $0.lastPathComponent == "exiv2__Stonehenge.heic" }.first)
        let server = try await TestServer.indexed(adding: [heic])
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        try await person.pick(try await person.cameraRollIDs())
        _ = try await server.client.waitUntilPicked(session.id)
        var metadata: [String: [String: Any]] = [:]
        var token = ""
        repeat {
            let page = try await server.request("GET", "/v1/mediaItems?sessionId=\(session.id)&pageSize=4&pageToken=\(token)").json
            for item in page["mediaItems"] as? [[String: Any]] ?? [] {
                let file = try #require(item["mediaFile"] as? [String: Any])
                metadata[try #require(file["filename"] as? String)] = file["mediaFileMetadata"] as? [String: Any]
            }
            token = page["nextPageToken"] as? String ?? ""
        } while !token.isEmpty
        // Values as ImageMagick reads the files' EXIF: 1/60 s, f/4.5, 34 mm, ISO 400; 1/400 s, f/10, 44 mm, ISO 200.
        let canon = try #require(metadata["jhead__canon-300d.jpg"]?["photoMetadata"] as? [String: Any])
        #expect(canon["exposureTime"] as? String == "0.016666667s")
        #expect(canon["apertureFNumber"] as? Double == 4.5 && canon["focalLength"] as? Double == 34 && canon["isoEquivalent"] as? Int == 400)
        let stonehenge = try #require(metadata["exiv2__Stonehenge.heic"]?["photoMetadata"] as? [String: Any])
        #expect(stonehenge["exposureTime"] as? String == "0.0025s")
        #expect(stonehenge["apertureFNumber"] as? Double == 10 && stonehenge["focalLength"] as? Double == 44 && stonehenge["isoEquivalent"] as? Int == 200)
        // The Nikon D70 keeps its ISO in its maker note only: the field is left out, not made up.
        let nikon = try #require(metadata["exiv2__exiv2-nikon-d70.jpg"]?["photoMetadata"] as? [String: Any])
        #expect(nikon["isoEquivalent"] == nil && nikon["exposureTime"] as? String == "0.004s" && nikon["apertureFNumber"] as? Double == 9)
        let clip = try #require(metadata["clip.mp4"]?["videoMetadata"] as? [String: Any])
        #expect(clip["fps"] as? Double == 25 && clip["processingStatus"] as? String == "READY")
        // The Swift client reads the same.
        let typed = try await server.client.mediaItems(in: session.id)
        let canonItem = try #require(typed.first { $0.mediaFile.filename == "jhead__canon-300d.jpg" })
        let exposure = try #require(canonItem.mediaFile.mediaFileMetadata.photoMetadata)
        #expect(exposure.isoEquivalent == 400 && exposure.apertureFNumber == 4.5 && exposure.focalLength == 34)
        #expect(exposure.exposureSeconds.map { abs($0 - 1.0 / 60) < 1e-9 } == true)
        let clipItem = try #require(typed.first { $0.type == .video })
        #expect(clipItem.mediaFile.mediaFileMetadata.videoMetadata?.fps == 25 && clipItem.mediaFile.mediaFileMetadata.photoMetadata == nil)
    }

    /// A large original is sent without its location and without being read whole: its
    /// header is rebuilt and its image data streamed from the file.
    @Test func aLargeOriginalComesWithoutLocationByteForByte() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("large-original-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let noise = folder.appendingPathComponent("noise.jpg")
        let output = try await ToolRunner.fixture(.ffmpeg, arguments: [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=gray:s=4000x3000", "-vf", "noise=alls=100:allf=u",
            "-frames:v", "1", "-q:v", "2", noise.path,
        ])
        #expect(output.succeeded, "\(output.standardError)")
        // The camera's EXIF segment, location included, in front of the large image's own segments.
        let camera = try Data(contentsOf: try #require(Corpus.files(in: "A_camera_exif") { $0.lastPathComponent == "jhead__gpsinfo.jpg" }.first))
        let exif = try #require(try JPEGExifLocator.locate(in: camera))
        #expect(try ExifReader.parse(exif.tiff).gps != nil)
        let large = folder.appendingPathComponent("large.jpg")
        let source = Data([0xFF, 0xD8]) + camera[exif.segmentRange] + (try Data(contentsOf: noise)).dropFirst(2)
        #expect(source.count > 4 << 20)
        try source.write(to: large)
        let server = try await TestServer.indexed(adding: [large])
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        try await person.pick([try await person.largestPhotoID()])
        let item = try #require(try await server.client.mediaItems(in: session.id).first)
        #expect(item.mediaFile.filename == "large.jpg")
        let answer = try await server.request("GET", item.baseURLPath + "=d")
        #expect(answer.status == 200)
        // What had to be read to rebuild it is its header, within the first read.
        let rebuilt = try #require(try LocationFreeJPEG.header(in: source.prefix(64 << 10)))
        #expect(answer.body == rebuilt.header + source[rebuilt.firstScanOffset...])
        #expect(try JPEGExifLocator.locate(in: answer.body).map { try ExifReader.parse($0.tiff).gps } == .some(nil))
    }

    @Test func errorsComeInGooglesFormWithItsStatuses() async throws {
        // One place for client programs: the capacity less the places kept for the person's own sessions.
        let server = try await TestServer.indexed(sessions: MemorySessionStore(capacity: PickerServerLimits().ownSessions + 1))
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let cases: [(String, String, String?, Bool, Int, String)] = [
            ("GET", "/v1/mediaItems?sessionId=\(session.id)", nil, true, 400, "FAILED_PRECONDITION"),
            ("GET", "/v1/mediaItems", nil, true, 400, "INVALID_ARGUMENT"),
            ("GET", "/v1/mediaItems?sessionId=\(session.id)&pageSize=-1", nil, true, 400, "INVALID_ARGUMENT"),
            ("GET", "/v1/mediaItems?sessionId=\(session.id)&pageSize=%2B2", nil, true, 400, "INVALID_ARGUMENT"),
            ("GET", "/v1/mediaItems?sessionId=\(session.id)&pageSize=02", nil, true, 400, "INVALID_ARGUMENT"),
            ("GET", "/v1/sessions/\(UUID().uuidString)", nil, true, 404, "NOT_FOUND"),
            ("GET", "/v1/mediaItems?sessionId=nope", nil, true, 404, "NOT_FOUND"),
            ("DELETE", "/v1/sessions/nope", nil, true, 404, "NOT_FOUND"),
            ("GET", "/v1/sessions/\(session.id)", nil, false, 401, "UNAUTHENTICATED"),
            ("GET", "/v1/mediaItems?sessionId=\(session.id)", nil, false, 401, "UNAUTHENTICATED"),
            ("GET", try await server.mediaPath(session: session.id, item: UUID().uuidString) + "=d", nil, false, 401, "UNAUTHENTICATED"),
            ("POST", "/v1/sessions", #"{"pickingConfig": {"maxItemCount": "x"}}"#, true, 400, "INVALID_ARGUMENT"),
            ("POST", "/v1/sessions", "{}", true, 429, "RESOURCE_EXHAUSTED"),
        ]
        for (method, path, body, authorized, code, status) in cases {
            let answer = try await server.request(method, path, headers: ["Content-Type": "application/json"], body: body.map { Data($0.utf8) },
                                                  authorized: authorized)
            #expect(answer.status == code, "\(method) \(path)")
            #expect(error(answer).code == code && error(answer).status == status, "\(method) \(path): \(String(decoding: answer.body, as: UTF8.self))")
            #expect(!answer.errorMessage.isEmpty)
        }
        // The picker page's own API keeps its form.
        let page = try await server.request("GET", session.pickerPath + "api/assets/nope/original", authorized: false, asPerson: true)
        #expect((page.json["error"] as? [String: Any])?["code"] as? String == "notFound")
    }

    @Test func pageSizeIsGooglesDefaultAndBound() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs()
        try await person.pick(ids)
        for (size, expected) in [("", ids.count), ("0", ids.count), ("2", 2), ("1000", ids.count)] {
            let answer = try await server.request("GET", "/v1/mediaItems?sessionId=\(session.id)&pageSize=\(size)&pageToken=")
            #expect(answer.status == 200, "\(size)")
            #expect((answer.json["mediaItems"] as? [Any])?.count == expected, "\(size)")
        }
    }

    @Test func theClientPollsAtTheServersIntervalUntilThePersonIsDone() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession(PickerSessionOptions(maxItemCount: 2))
        #expect(session.maxItemCount == 2 && session.pollingConfig.pollInterval == .seconds(2))
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs(media: "photo")
        async let finished = server.client.waitUntilPicked(session.id)
        try await person.pick(Array(ids.prefix(2)))
        #expect(try await finished.mediaItemsSet)
        #expect(try await server.client.mediaItems(in: session.id, pageSize: 1).map(\.id) == Array(ids.prefix(2)))
        try await server.client.deleteSession(session.id)
        await #expect(throws: PickerClientError.self) { try await server.client.session(session.id) }
    }

    @Test func pickerUriWithAutocloseOpensThePageThatClosesItself() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        for suffix in ["autoclose", "/autoclose"] {
            let answer = try await server.request("GET", session.pickerPath + suffix, authorized: false, asPerson: true)
            #expect(answer.status == 200, "\(suffix)")
            #expect(answer.response.url?.query == "autoclose=1", "\(suffix)")
        }
        // Like every picker path, it is the person's only; the sign-in link made for it leads back to it.
        #expect(try await server.request("GET", session.pickerPath + "autoclose", authorized: true).status == 401)
        #expect(server.shownSignInLinks.all.last?.hasSuffix("?next=\(session.pickerPath)autoclose") == true, "\(server.shownSignInLinks.all)")
    }
}
