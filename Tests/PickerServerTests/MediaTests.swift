import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerClient
import Testing
import TestSupport

/// Renditions and originals of picked items through their base URLs: sizes, parameters, ranges, validators.
@Suite struct MediaTests {
    /// A server with a session whose picks are a photo and the video.
    private func pickedPhotoAndVideo() async throws -> (TestServer, PickingSession, photo: PickedMediaItem, video: PickedMediaItem) {
        let server = try await TestServer.indexed()
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let photo = try await person.largestPhotoID()
        let video = try await person.cameraRollIDs(media: "video")[0]
        try await person.pick([photo, video])
        let items = try await server.client.mediaItems(in: session.id)
        return (server, session, items[0], items[1])
    }

    @Test func badParametersAreAnswered400WithAMessageNamingThem() async throws {
        let (server, _, photo, video) = try await pickedPhotoAndVideo()
        defer { Task { await server.stop() } }
        let path = photo.baseURLPath
        let cases = ["": "'=wW-hH'", "=": "'=wW-hH'", "=w0-h10": "side", "=wabc": "side", "=w10-h20000": "side", "=w10-h-5": "side",
                     "=w10-h10-x": "'x'", "=w10-w10": "'w10'", "=w10-c": "both", "=c": "'=wW-hH'", "=w1.5": "side", "=dv": "'=dv'", "=d-w10": "'d'"]
        for (suffix, named) in cases {
            let answer = try await server.request("GET", path + suffix)
            #expect(answer.status == 400, "\(suffix)")
            #expect(answer.errorMessage.contains(named), "\(suffix): \(answer.errorMessage)")
        }
        #expect(try await server.request("GET", video.baseURLPath + "=d").status == 400)
        for body in ["{\"pickingConfig\": {\"maxItemCount\": \"0\"}}", "{\"pickingConfig\": {\"maxItemCount\": \"2001\"}}",
                     "{\"pickingConfig\": {\"maxItemCount\": \"three\"}}", "{\"pickingConfig\": {\"maxItems\": \"3\"}}",
                     "{\"maxItems\": 3}", "{\"mediaFilter\": \"sounds\"}", "{\"order\": 3}", "not json"] {
            let answer = try await server.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(answer.status == 400, "\(body)")
            #expect(!answer.errorMessage.isEmpty)
        }
    }

    @Test func imagesComeAtTheAskedSizeAndRevalidate() async throws {
        let (server, _, photo, video) = try await pickedPhotoAndVideo()
        defer { Task { await server.stop() } }
        let path = photo.baseURLPath + "=w120-h90-c"
        let first = try await server.request("GET", path)
        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "image/jpeg")
        #expect(ImageFileProbe.jpegSize(first.body)! == (120, 90))
        let tag = try #require(first.header("ETag"))
        let again = try await server.request("GET", path, headers: ["If-None-Match": tag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        // A video's image is a frame of it.
        let frame = try await server.request("GET", video.baseURLPath + "=w64-h64-c")
        #expect(frame.status == 200)
        #expect(ImageFileProbe.jpegSize(frame.body)! == (64, 64))
    }

    @Test func videoBytesAnswerRangeRequests() async throws {
        let (server, _, _, video) = try await pickedPhotoAndVideo()
        defer { Task { await server.stop() } }
        for item in [video] {
            let path = item.baseURLPath + "=dv"
            let whole = try await server.request("GET", path)
            #expect(whole.status == 200)
            #expect(whole.header("Accept-Ranges") == "bytes")
            #expect(whole.header("Content-Type") == "video/mp4")
            let size = whole.body.count

            let headers = try await server.request("HEAD", path)
            #expect(headers.status == 200)
            #expect(headers.header("Content-Length") == String(size))
            #expect(headers.body.isEmpty)

            let head = try await server.request("GET", path, headers: ["Range": "bytes=0-99"])
            #expect(head.status == 206)
            #expect(head.header("Content-Range") == "bytes 0-99/\(size)")
            #expect(head.body == whole.body.prefix(100))

            let middle = try await server.request("GET", path, headers: ["Range": "bytes=1000-"])
            #expect(middle.status == 206)
            #expect(middle.body == whole.body.dropFirst(1000))

            let tail = try await server.request("GET", path, headers: ["Range": "bytes=-50"])
            #expect(tail.status == 206)
            #expect(tail.header("Content-Range") == "bytes \(size - 50)-\(size - 1)/\(size)")
            #expect(tail.body == whole.body.suffix(50))

            let past = try await server.request("GET", path, headers: ["Range": "bytes=\(size)-"])
            #expect(past.status == 416)
            #expect(past.header("Content-Range") == "bytes */\(size)")

            let several = try await server.request("GET", path, headers: ["Range": "bytes=0-1,5-9"])
            #expect(several.status == 200)
            #expect(several.body.count == size)

            let tag = try #require(whole.header("ETag"))
            let stale = try await server.request("GET", path, headers: ["Range": "bytes=0-9", "If-Range": "\"other\""])
            #expect(stale.status == 200)
            let current = try await server.request("GET", path, headers: ["Range": "bytes=0-9", "If-Range": tag])
            #expect(current.status == 206)
            #expect(try await server.request("GET", path, headers: ["If-None-Match": tag]).status == 304)
        }
    }
}
