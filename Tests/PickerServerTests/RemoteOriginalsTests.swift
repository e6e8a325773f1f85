import AssetsKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerClient
import Testing
import TestSupport

/// A library whose originals are kept elsewhere (a folder bucket, ``FolderBucketStore``), as a
/// person with iCloud Photos' "Optimize Storage" has it: everything is browsable from what is
/// here, an original comes when it is asked for, with progress, and nothing waits for it that
/// need not.
@Suite struct RemoteOriginalsTests {
    /// The camera roll's items as the page lists them.
    static func items(_ person: PersonAtPicker) async throws -> [[String: Any]] {
        let window = try await person.get("albums/smart%3Aall/assets?limit=500").json
        return window["items"] as? [[String: Any]] ?? []
    }

    /// Each listed item's `remoteOriginal`, by id.
    static func remoteness(_ person: PersonAtPicker) async throws -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: try await items(person).compactMap { item in
            (item["id"] as? String).map { ($0, item["remoteOriginal"] as? Bool ?? false) }
        })
    }

    /// The id of the listed photo called `name`.
    static func id(of name: String, in person: PersonAtPicker) async throws -> String {
        try #require(try await items(person).first { $0["filename"] as? String == name }?["id"] as? String)
    }

    /// A transfer stream of the page's large view, opened on a connection of its own.
    static func transfer(_ server: TestServer, _ person: PersonAtPicker, id: String) throws -> PendingRequest {
        try PendingRequest(port: server.baseURL.port!, method: "POST", path: person.apiPath + "assets/\(id)/fetch",
                           headers: ["Cookie: \(server.personCookie)", "Origin: \(server.baseURL.absoluteString)"])
    }

    @Test func theAssetsWindowSaysWhichOriginalsAreNotHereAndTheBadgeGoesOnceOneIsFetched() async throws {
        let (server, fetcher) = try await TestServer.remote()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let before = try await Self.remoteness(person)
        #expect(before.count == 11 && before.values.allSatisfy { $0 })

        let photo = try await Self.id(of: "jhead__hp.jpg", in: person)
        let stream = try Self.transfer(server, person, id: photo)
        let events = await stream.events { $0.last?.name == "done" || $0.last?.name == "failed" }
        #expect(events.last?.name == "done")
        let after = try await Self.remoteness(person)
        #expect(after[photo] == false)
        #expect(after.filter { $0.value }.count == 10)
        #expect(fetcher.counts.transfers == 1 && fetcher.counts.completed == 1)

        // A library whose originals are all here says so of every item.
        let local = try await TestServer.indexed()
        defer { Task { await local.stop() } }
        let localPerson = local.picker(try await local.client.createSession())
        let everyLocal = try await Self.remoteness(localPerson)
        #expect(everyLocal.count == 11 && everyLocal.values.allSatisfy { !$0 })
    }

    @Test func gridImagesOfAnOriginalNotHereWithNothingAtHandAnswerAtOnceAndFetchNothing() async throws {
        let (server, fetcher) = try await TestServer.remote()
        defer { Task { await server.stop() } }
        fetcher.closeGate() // a fetch would hold its request: none may be made
        let person = server.picker(try await server.client.createSession())
        let ids = try await person.cameraRollIDs()
        // The corpus photos have EXIF thumbnails, inside originals that are not here; no previews.
        for id in ids.prefix(3) {
            for delivery in ["fast", "high"] {
                let answer = try await person.get("assets/\(id)/image?w=128&h=128&mode=fill&delivery=\(delivery)")
                #expect(answer.status == 409)
                #expect((answer.json["error"] as? [String: Any])?["code"] as? String == "networkAccessRequired")
                #expect(answer.errorMessage.contains("not on this machine"))
            }
        }
        let batch = try await person.send("POST", "thumbnails", json: ["ids": ids, "w": 128, "h": 128, "mode": "fill"])
        #expect(batch.status == 200)
        #expect((batch.json["thumbnails"] as? [Any])?.isEmpty == true)
        #expect(fetcher.counts == FolderBucketFetcher.Counts())
        #expect(try await Self.remoteness(person).values.allSatisfy { $0 })
    }

    @Test func aGridThumbnailOfAnOriginalNotHereIsRenderedFromItsPreviewAtOnceAndFetchesNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plain-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, fetcher) = try await TestServer.remote(adding: [try await FolderBucketStore.plainPhoto(in: folder)])
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let photo = try await Self.id(of: "plain.jpg", in: person)
        // Brought here once, its preview made, then let go again, as "Optimize Storage" does.
        #expect(await (try Self.transfer(server, person, id: photo)).events { $0.last?.name == "done" }.last?.name == "done")
        // A bucket library makes a preview of every photo and video (with network access).
        #expect(try await #require(server.library.previewing).makePreviews(progress: nil).made >= 1)
        try FileManager.default.removeItem(at: server.root.deletingLastPathComponent().appendingPathComponent("cache/DCIM/plain.jpg"))
        #expect(try await Self.remoteness(person)[photo] == true)
        fetcher.closeGate() // a fetch would hold its request: none may be made
        let before = fetcher.counts

        // No larger than the preview: an image from it at once.
        // It is the final image of that size (the preview is the original's own pixels, made
        // from it): tagged and cacheable like any other, and remembered for the next asker.
        let high = try await person.get("assets/\(photo)/image?w=128&h=128&mode=fill&delivery=high")
        #expect(high.status == 200 && ImageFileProbe.jpegSize(high.body).map { [$0.width, $0.height] } == [128, 128])
        #expect(high.header("X-Image-Degraded") == "0" && high.header("ETag") != nil)
        #expect(high.header("Cache-Control")?.contains("no-store") == false)
        let fast = try await person.get("assets/\(photo)/image?w=128&h=128&mode=fill&delivery=fast")
        #expect(fast.status == 200 && fast.header("ETag") == high.header("ETag") && fast.body == high.body)
        let batch = try await person.send("POST", "thumbnails", json: ["ids": [photo], "w": 128, "h": 128, "mode": "fill"])
        let given = (batch.json["thumbnails"] as? [[String: Any]])?.first
        #expect(given?["id"] as? String == photo && given?["final"] as? Bool == true)
        #expect(fetcher.counts == before)
    }

    @Test func theLargeViewFetchesTheOriginalOnceWithProgressForEveryoneAskingAtOnce() async throws {
        let (server, fetcher) = try await TestServer.remote()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let photo = try await Self.id(of: "goexif__sample1.jpg", in: person) // 500x375
        let size = Int64(try #require(try await Self.items(person).first { $0["id"] as? String == photo }?["byteSize"] as? Int))
        fetcher.closeGate()

        let stream = try Self.transfer(server, person, id: photo)
        let halfway = await stream.events { $0.contains { $0.name == "progress" } }
        #expect(halfway == [.init(name: "progress", data: "{\"received\":\(size / 2),\"total\":\(size)}")])
        // Two large images of the same photo, asked while its original is on its way, join it.
        async let fitted = person.get("assets/\(photo)/image?w=400&h=300&mode=fit&network=1")
        async let filled = person.get("assets/\(photo)/image?w=200&h=200&mode=fill&network=1")
        try await HangGuard.waitUntil("three callers waiting for one transfer") { fetcher.counts.fetchCalls == 3 }
        #expect(fetcher.counts.transfers == 1 && fetcher.counts.atGate == 1)
        fetcher.openGate()

        let events = await stream.events { $0.last?.name == "done" || $0.last?.name == "failed" }
        #expect(events.map(\.name) == ["progress", "progress", "done"])
        #expect(events.last?.data == "{\"received\":\(size),\"total\":\(size)}")
        let (fit, fill) = try await (fitted, filled)
        #expect(fit.status == 200 && fit.header("X-Image-Size") == "400x300" && fit.header("X-Image-Degraded") == "0")
        #expect(fill.status == 200 && fill.header("X-Image-Size") == "200x200")
        #expect(fetcher.counts.transfers == 1 && fetcher.counts.completed == 1)

        // Here now: the grid's thumbnail renders from it, and asking again fetches nothing.
        #expect(try await person.get("assets/\(photo)/image?w=128&h=128&mode=fill").status == 200)
        let again = try Self.transfer(server, person, id: photo)
        #expect(await again.events { $0.last?.name == "done" }.map(\.name) == ["done"])
        #expect(fetcher.counts.fetchCalls == 3 && fetcher.counts.transfers == 1)
    }

    @Test func leavingTheLargeViewStopsTheTransferUnlessSomeoneElseWaits() async throws {
        let (server, fetcher) = try await TestServer.remote()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let photo = try await Self.id(of: "jhead__olympus.jpg", in: person)
        fetcher.closeGate()

        // The only one waiting leaves: the transfer stops.
        let alone = try Self.transfer(server, person, id: photo)
        #expect(await alone.events { !$0.isEmpty }.map(\.name) == ["progress"])
        alone.close()
        try await HangGuard.waitUntil("the transfer stopped") { fetcher.counts.cancelled == 1 }
        #expect(fetcher.counts.atGate == 0 && fetcher.counts.completed == 0)
        #expect(try await Self.remoteness(person)[photo] == true)

        // A large image asked with network access, given up the same way.
        let image = try PendingRequest(port: server.baseURL.port!, path: person.apiPath + "assets/\(photo)/image?w=300&h=300&network=1",
                                       headers: ["Cookie: \(server.personCookie)"])
        try await HangGuard.waitUntil("the image's transfer held") { fetcher.counts.atGate == 1 }
        image.close()
        try await HangGuard.waitUntil("the image's transfer stopped") { fetcher.counts.cancelled == 2 }

        // One of two leaves: the other still gets the original.
        let leaving = try Self.transfer(server, person, id: photo)
        let staying = try Self.transfer(server, person, id: photo)
        _ = await leaving.events { !$0.isEmpty }
        _ = await staying.events { !$0.isEmpty }
        try await HangGuard.waitUntil("both waiting for one transfer") { fetcher.counts.transfers == 3 && fetcher.counts.fetchCalls == 4 }
        leaving.close()
        fetcher.openGate()
        #expect(await staying.events { $0.last?.name == "done" }.last?.name == "done")
        #expect(fetcher.counts.cancelled == 2 && fetcher.counts.completed == 1)
        #expect(try await Self.remoteness(person)[photo] == false)
    }

    @Test func aClientsDownloadsFetchThenServeWithRangesAndWithoutLocation() async throws {
        let (server, fetcher) = try await TestServer.remote()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let located = try await Self.id(of: "jhead__gpsinfo.jpg", in: person)
        let video = try await Self.id(of: "clip.mp4", in: person)
        try await person.pick([located, video])
        let items = try await server.client.mediaItems(in: session.id)
        let (photoItem, videoItem) = (try #require(items.first { $0.id == located }), try #require(items.first { $0.id == video }))
        #expect(fetcher.counts.fetchCalls == 0)

        // =d: fetched, then answered without where it was taken.
        #expect(!PlantedPlace.placeKeys(in: try await ExifTool.tags(of: Corpus.file("A_camera_exif/jhead__gpsinfo.jpg"))).isEmpty)
        let download = try await server.request("GET", photoItem.baseURLPath + "=d")
        #expect(download.status == 200 && download.header("Content-Type") == "image/jpeg")
        let received = server.root.deletingLastPathComponent().appendingPathComponent("received.jpg")
        try download.body.write(to: received)
        #expect(PlantedPlace.placeKeys(in: try await ExifTool.tags(of: received)).isEmpty)
        #expect(fetcher.counts.transfers == 1 && fetcher.counts.completed == 1)

        // =dv: two clients at once, one transfer; then ranges of the local copy.
        fetcher.closeGate()
        async let first = server.request("GET", videoItem.baseURLPath + "=dv", headers: ["Range": "bytes=0-99"])
        async let second = server.request("GET", videoItem.baseURLPath + "=dv")
        try await HangGuard.waitUntil("both downloads waiting for one transfer") { fetcher.counts.fetchCalls == 3 }
        #expect(fetcher.counts.transfers == 2)
        fetcher.openGate()
        let bytes = try Data(contentsOf: server.root.appendingPathComponent("DCIM/100CAMERA/clip.mp4"))
        let (part, whole) = try await (first, second)
        #expect(part.status == 206 && part.header("Content-Range") == "bytes 0-99/\(bytes.count)" && part.body == bytes.prefix(100))
        #expect(whole.status == 200 && whole.body == bytes)
        let tail = try await server.request("GET", videoItem.baseURLPath + "=dv", headers: ["Range": "bytes=\(bytes.count - 10)-"])
        #expect(tail.status == 206 && tail.body == bytes.suffix(10))
        #expect(fetcher.counts.transfers == 2 && fetcher.counts.completed == 2)
    }

    @Test func aClientsDownloadsOfAnOriginalNotHereStreamAsItArrivesAndEndOnlyOnceItIsChecked() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plain-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, fetcher) = try await TestServer.remote(adding: [try await FolderBucketStore.plainPhoto(in: folder)])
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let (photo, video) = (try await Self.id(of: "plain.jpg", in: person), try await Self.id(of: "clip.mp4", in: person))
        try await person.pick([photo, video])
        let items = try await server.client.mediaItems(in: session.id)
        let (photoItem, videoItem) = (try #require(items.first { $0.id == photo }), try #require(items.first { $0.id == video }))
        let videoBytes = [UInt8](try Data(contentsOf: server.root.appendingPathComponent("DCIM/100CAMERA/clip.mp4")))
        let half = videoBytes.count / 2
        fetcher.closeGate() // each transfer writes its first half, then waits

        // =dv: the first half while the transfer waits, with the length of the whole.
        let port = server.baseURL.port!, key = "Authorization: Bearer \(server.clientKey)"
        let videoDownload = try PendingRequest(port: port, path: videoItem.baseURLPath + "=dv", headers: [key])
        let early = try #require(PendingRequest.parse(await videoDownload.bytes { (PendingRequest.parse($0)?.body.count ?? 0) >= half }))
        #expect(early.head.first?.hasPrefix("http/1.1 200") == true && early.head.contains("content-length: \(videoBytes.count)"))
        #expect(early.body == Array(videoBytes.prefix(half)))
        // =d: the JPEG's rebuilt header and first scans, chunked, while its transfer waits.
        let photoDownload = try PendingRequest(port: port, path: photoItem.baseURLPath + "=d", headers: [key])
        let started = try #require(PendingRequest.parse(await photoDownload.bytes { (PendingRequest.parse($0)?.body.count ?? 0) > 1_000 }))
        #expect(started.body.starts(with: [0xFF, 0xD8]) && !started.ended)
        #expect(fetcher.counts.atGate == 2 && fetcher.counts.completed == 0)

        fetcher.openGate()
        let wholeVideo = PendingRequest.parse(await videoDownload.bytes { (PendingRequest.parse($0)?.body.count ?? 0) >= videoBytes.count })
        #expect(wholeVideo?.body == videoBytes)
        let streamed = PendingRequest.parse(await photoDownload.bytes { PendingRequest.parse($0)?.ended == true })
        #expect(streamed?.ended == true)
        // Byte for byte what =d answers from the local copy, now that it is here.
        let local = try await server.request("GET", photoItem.baseURLPath + "=d")
        #expect(local.status == 200 && streamed?.body == [UInt8](local.body) && ImageFileProbe.jpegSize(local.body) != nil)
        #expect(fetcher.counts.transfers == 2 && fetcher.counts.completed == 2)
    }

    @Test func aClientThatLeavesMidwayStopsTheTransferItWaitedForAlone() async throws {
        let (server, fetcher) = try await TestServer.remote()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let video = try await Self.id(of: "clip.mp4", in: person)
        try await person.pick([video])
        let item = try #require(try await server.client.mediaItems(in: session.id).first)
        fetcher.closeGate()
        let download = try PendingRequest(port: server.baseURL.port!, path: item.baseURLPath + "=dv",
                                          headers: ["Authorization: Bearer \(server.clientKey)"])
        try await HangGuard.waitUntil("the download's transfer held") { fetcher.counts.atGate == 1 }
        download.close()
        try await HangGuard.waitUntil("the transfer stopped") { fetcher.counts.cancelled == 1 }
        #expect(fetcher.counts.transfers == 1 && fetcher.counts.completed == 0)
    }

    @Test func anOriginalThatCannotBeFetchedSaysSoInOneLineToThePageAndToTheClient() async throws {
        let (server, fetcher) = try await TestServer.remote()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let photo = try await Self.id(of: "jhead__rotate.jpg", in: person)
        fetcher.setUnreachable(true)
        let stream = try Self.transfer(server, person, id: photo)
        let failed = try #require(await stream.events { $0.last?.name == "failed" }.last)
        let error = try #require((try JSONSerialization.jsonObject(with: Data(failed.data.utf8)) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["status"] as? Int == 502 && error["code"] as? String == "fetchFailed")
        let message = try #require(error["message"] as? String)
        #expect(message.contains("jhead__rotate.jpg could not be fetched") && message.contains("cannot be reached"))
        #expect(!message.contains(server.root.path))
        let large = try await person.get("assets/\(photo)/image?w=300&h=300&network=1")
        #expect(large.status == 502 && large.errorMessage.contains("could not be fetched"))

        try await person.pick([photo])
        let item = try #require(try await server.client.mediaItems(in: session.id).first)
        let download = try await server.request("GET", item.baseURLPath + "=d")
        #expect(download.status == 502 && (download.json["error"] as? [String: Any])?["status"] as? String == "UNAVAILABLE")
        // The client hears one fixed line: where the library is kept and why it failed are the person's.
        #expect((download.json["error"] as? [String: Any])?["message"] as? String
            == "jhead__rotate.jpg could not be fetched from where it is kept; try again later.")
        fetcher.setUnreachable(false)
        #expect(try await server.request("GET", item.baseURLPath + "=d").status == 200)
        #expect(fetcher.counts.failed == 3 && fetcher.counts.completed == 1)
    }

    @Test func doneWithRemotePicksAnswersAtOnceAndTheListingFetchesNothing() async throws {
        let (server, fetcher) = try await TestServer.remote()
        defer { Task { await server.stop() } }
        fetcher.closeGate() // a fetch would hold its request: none may be made
        let session = try await server.client.createSession(PickerSessionOptions(order: "pick"))
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs()
        try await person.pick(Array(ids.prefix(4)), thenDone: false)
        #expect(try await person.send("POST", "done").status == 200)
        let items = try await server.client.mediaItems(in: session.id)
        #expect(items.map(\.id) == Array(ids.prefix(4)))
        #expect(fetcher.counts == FolderBucketFetcher.Counts())
    }

    @Test func doneTwiceAtOnceOrOneAfterTheOtherGivesOneSetOfPicks() async throws {
        let (server, _) = try await TestServer.remote()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession(PickerSessionOptions(order: "pick"))
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs()
        try await person.pick([ids[2], ids[0], ids[5]], thenDone: false)
        async let once = person.send("POST", "done")
        async let twice = person.send("POST", "done")
        let statuses = try await [once.status, twice.status].sorted()
        #expect(statuses == [200, 410])
        #expect(try await person.send("POST", "done").status == 410)
        let finished = try await server.client.session(session.id)
        #expect(finished.mediaItemsSet && finished.state == "complete" && finished.pickedCount == 3)
        #expect(try await server.client.mediaItems(in: session.id).map(\.id) == [ids[2], ids[0], ids[5]])
    }
}
