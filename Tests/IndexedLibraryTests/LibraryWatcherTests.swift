import AssetsKit
import Foundation
@testable import IndexedLibrary
import Synchronization
import TestSupport
import Testing

@Suite("Watching the library folder")
struct LibraryWatcherTests {
    @Test("a photo copied into the folder appears in the library; a deleted one disappears", arguments: IndexEngine.allCases)
    func copiedAndDeleted(_ engine: IndexEngine) async throws {
        let fixture = try await WatcherFixture(engine)
        defer { Task { await fixture.remove() } }
        try await fixture.start()
        #expect(try await fixture.count() == 2)

        try fixture.tree.copy("A_camera_exif/goexif__sample1.jpg", to: "2019/new.jpg")
        try await fixture.eventually { try await fixture.count() == 3 }
        let added = try #require(try await fixture.assets().first { $0.filename == "new.jpg" })
        #expect(try await fixture.library.originalFile(for: added).file.resolvedPath == fixture.tree.url("2019/new.jpg").resolvingSymlinksInPath().path)

        try FileManager.default.removeItem(at: fixture.tree.url("2019/sony.jpg"))
        try await fixture.eventually { try await fixture.count() == 2 }
        #expect(try await fixture.assets().map(\.filename).sorted() == ["new.jpg", "olympus.jpg"])
    }

    @Test("a photo moved inside the library keeps its identifier; one overwritten in place is read again", arguments: IndexEngine.allCases)
    func movedAndOverwritten(_ engine: IndexEngine) async throws {
        let fixture = try await WatcherFixture(engine)
        defer { Task { await fixture.remove() } }
        try await fixture.start()
        let sony = try #require(try await fixture.assets().first { $0.filename == "sony.jpg" })
        try FileManager.default.createDirectory(at: fixture.tree.url("2020"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: fixture.tree.url("2019/sony.jpg"), to: fixture.tree.url("2020/renamed.jpg"))
        try await fixture.eventually { try await fixture.assets().contains { $0.filename == "renamed.jpg" } }
        #expect(try await fixture.assets().first { $0.filename == "renamed.jpg" }?.id == sony.id)
        #expect(try await fixture.count() == 2)

        let olympus = try #require(try await fixture.assets().first { $0.filename == "olympus.jpg" })
        let replacement = try Data(contentsOf: Corpus.file("A_camera_exif/jhead__canon-300d.jpg"))
        try replacement.write(to: fixture.tree.url("2019/olympus.jpg"))
        try await fixture.eventually {
            try await fixture.assets().first { $0.filename == "olympus.jpg" }?.byteSize == Int64(replacement.count)
        }
        let rewritten = try #require(try await fixture.assets().first { $0.filename == "olympus.jpg" })
        #expect(rewritten.id == olympus.id)
        #expect(rewritten.camera != olympus.camera)
    }

    @Test("what changed before the watcher started is caught up with at start", arguments: IndexEngine.allCases)
    func catchUp(_ engine: IndexEngine) async throws {
        let fixture = try await WatcherFixture(engine)
        defer { Task { await fixture.remove() } }
        try fixture.tree.copy("A_camera_exif/goexif__sample1.jpg", to: "2020/new.jpg")
        try FileManager.default.removeItem(at: fixture.tree.url("2019/sony.jpg"))
        try await fixture.start()
        #expect(try await fixture.assets().map(\.filename).sorted() == ["new.jpg", "olympus.jpg"])
        #expect(fixture.log.rescans == [[""]])
    }

    @Test("a photo written in several chunks is indexed once, complete, not half-written", arguments: IndexEngine.allCases)
    func writtenInChunks(_ engine: IndexEngine) async throws {
        // No ceiling on the wait for the open file here, however slow a busy machine makes the writes.
        let fixture = try await WatcherFixture(engine, configuration: .init(quietPeriod: .milliseconds(100), maximumDelay: .milliseconds(200),
                                                                    openFileWait: .seconds(3_600)))
        defer { Task { await fixture.remove() } }
        try await fixture.start()
        let content = try Data(contentsOf: Corpus.file("A_camera_exif/jhead__canon-300d.jpg"))
        let seenSizes = SeenSizes()
        let changes = fixture.library.changes()
        let watching = Task {
            for await _ in changes {
                let sizes = try await fixture.assets().filter { $0.filename == "slow.jpg" }.map(\.byteSize)
                seenSizes.append(sizes)
            }
        }
        defer { watching.cancel() }

        // Created and written through one descriptor, as a copy or a download does; each pause
        // is longer than the quiet period and the maximum delay: only the file being open holds
        // the rescan back. The pauses are the writer's behaviour under test, not an ordering of
        // the test's own work: a busy machine only makes them longer, which the test allows.
        let target = fixture.tree.url("2019/slow.jpg")
        let descriptor = open(target.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(descriptor >= 0)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        let chunk = content.count / 4 + 1
        for start in stride(from: 0, to: content.count, by: chunk) {
            try handle.write(contentsOf: content[start..<min(content.count, start + chunk)])
            try await Task.sleep(for: .milliseconds(300))
        }
        try handle.close()

        try await fixture.eventually {
            try await fixture.assets().contains { $0.filename == "slow.jpg" } && !fixture.log.rescansForChanges.isEmpty
        }
        let asset = try #require(try await fixture.assets().first { $0.filename == "slow.jpg" })
        #expect(asset.byteSize == Int64(content.count))
        #expect(asset.pixelSize.width > 0 && asset.pixelSize.height > 0)
        #expect(seenSizes.all.allSatisfy { $0 == Int64(content.count) })
        #expect(fixture.log.rescansForChanges == [["2019/slow.jpg"]])
    }

    @Test("a new folder of photos is picked up, and so are photos added to it later", arguments: IndexEngine.allCases)
    func newFolder(_ engine: IndexEngine) async throws {
        let fixture = try await WatcherFixture(engine)
        defer { Task { await fixture.remove() } }
        try await fixture.start()

        try fixture.tree.copy("A_camera_exif/jhead__hp.jpg", to: "Trips/Beijing/hp.jpg")
        try fixture.tree.copy("A_camera_exif/jhead__fuji-dx10.jpg", to: "Trips/Beijing/fuji.jpg")
        try await fixture.eventually { try await fixture.count() == 4 }

        // Only the new folder's own watch sees this one.
        try fixture.tree.copy("A_camera_exif/jhead__gpsinfo.jpg", to: "Trips/Beijing/gps.jpg")
        try await fixture.eventually { try await fixture.count() == 5 }

        // A folder moved in from outside the library, with a folder inside it.
        let outside = try TemporaryTree()
        defer { outside.remove() }
        try outside.copy("A_camera_exif/piexif__r_pana.jpg", to: "Summer/Beach/pana.jpg")
        try FileManager.default.moveItem(at: outside.url("Summer"), to: fixture.tree.url("Summer"))
        try await fixture.eventually { try await fixture.count() == 6 }
        try fixture.tree.copy("A_camera_exif/piexif__r_sony.jpg", to: "Summer/Beach/sony.jpg")
        try await fixture.eventually { try await fixture.count() == 7 }
        let beach = try #require(try await fixture.library.collections().first { $0.title == "Beach" })
        #expect(try await fixture.library.assetCount(in: beach.id, filter: .all) == 2)
    }

    /// How a burst is debounced into few rescans is ``RescanSchedule``'s rule, tested with
    /// given instants in RescanScheduleTests; here the burst, copied as fast or as slowly as the
    /// machine goes, must all arrive.
    @Test("a burst of copies into new folders all arrives, found by the rescans the folders' creation causes", arguments: IndexEngine.allCases)
    func burst(_ engine: IndexEngine) async throws {
        let fixture = try await WatcherFixture(engine)
        defer { Task { await fixture.remove() } }
        try await fixture.start()
        let photos = Corpus.files(in: "A_camera_exif") { $0.pathExtension == "jpg" }
        let total = 60
        for index in 0..<total {
            try FileManager.default.createDirectory(at: fixture.tree.url("Burst/\(index / 20)"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: photos[index % photos.count], to: fixture.tree.url("Burst/\(index / 20)/\(index).jpg"))
        }
        // Files copied into a new folder before its watch is added are found by the rescan its creation
        // causes. (The rescan is reported once it has ended, after its changes reached the library.)
        try await fixture.eventually {
            try await fixture.count() == 2 + total && fixture.log.rescansForChanges.joined().contains { $0.hasPrefix("Burst") }
        }
        #expect(fixture.log.all.allSatisfy { event in
            if case .rescanFailed = event { return false }
            return true
        })
    }

    @Test("the index's own writes and hidden files wake no rescan", arguments: IndexEngine.allCases)
    func noFeedback(_ engine: IndexEngine) async throws {
        // However long a busy machine takes to write the copy, it is one change, not two.
        let fixture = try await WatcherFixture(engine, configuration: .init(openFileWait: .seconds(3_600)))
        defer { Task { await fixture.remove() } }
        try await fixture.start()
        let sony = try #require(try await fixture.assets().first { $0.filename == "sony.jpg" })

        try await fixture.library.performChanges([.setFavorite([sony.id], true)])
        try fixture.tree.copy("A_camera_exif/jhead__hp.jpg", to: ".assets-picker/stray.jpg")
        try fixture.tree.copy("A_camera_exif/jhead__hp.jpg", to: "2019/.hidden.jpg")
        try fixture.tree.copy("A_camera_exif/jhead__hp.jpg", to: ".hidden folder/hp.jpg")
        try Data("notes".utf8).write(to: fixture.tree.url("2019/notes.txt"))
        // A real change after those, to wait on: its rescan must be the first one.
        try fixture.tree.copy("A_camera_exif/goexif__sample1.jpg", to: "2019/new.jpg")
        try await fixture.eventually { try await fixture.count() == 3 && fixture.log.rescansForChanges.count == 1 }
        // The rescan wrote to the index; deleting the file is the next change, and the next rescan.
        try FileManager.default.removeItem(at: fixture.tree.url("2019/new.jpg"))
        try await fixture.eventually { try await fixture.count() == 2 && fixture.log.rescansForChanges.count >= 2 }
        #expect(fixture.log.rescansForChanges == [["2019/new.jpg"], ["2019/new.jpg"]])
    }

    @Test("without inotify the folder is rescanned periodically, and the reason is reported", arguments: IndexEngine.allCases)
    func polling(_ engine: IndexEngine) async throws {
        let fixture = try await WatcherFixture(engine, configuration: .init(pollingInterval: .milliseconds(200), usesInotify: false))
        defer { Task { await fixture.remove() } }
        try await fixture.start()
        let reasons = fixture.log.all.compactMap { event -> String? in
            if case .polling(_, let reason) = event { return reason }
            return nil
        }
        #expect(reasons == ["watching is turned off"])
        try fixture.tree.copy("A_camera_exif/goexif__sample1.jpg", to: "new.jpg")
        try await fixture.eventually { try await fixture.count() == 3 }
    }

    @Test("when the library folder itself goes away, watching ends with the reason, and the index is kept", arguments: IndexEngine.allCases)
    func rootRemoved(_ engine: IndexEngine) async throws {
        let fixture = try await WatcherFixture(engine)
        try await fixture.start()
        let moved = fixture.tree.root.deletingLastPathComponent().appendingPathComponent("moved-\(UUID().uuidString)")
        try FileManager.default.moveItem(at: fixture.tree.root, to: moved)
        defer {
            Task {
                await fixture.watcher.stop()
                try? FileManager.default.removeItem(at: moved)
            }
        }
        // Then a rescan at once, which cannot read the folder: it fails and removes nothing.
        try await fixture.eventually {
            let events = fixture.log.all
            guard let polling = events.firstIndex(where: { event in
                if case .polling(_, let reason) = event { return reason.contains("deleted or moved") }
                return false
            }) else { return false }
            return events[polling...].contains { event in
                if case .rescanFailed = event { return true }
                return false
            }
        }
        #expect(try await fixture.count() == 2)
    }

    @Test("stop() ends the watcher: its descriptor is closed, it reports nothing more, changes are left to the next one", arguments: IndexEngine.allCases)
    func stop(_ engine: IndexEngine) async throws {
        let fixture = try await WatcherFixture(engine)
        defer { fixture.tree.remove() }
        try await fixture.start()
        #expect(try Self.inotifyDescriptors(watching: fixture.tree.root) == 1)
        await fixture.watcher.stop()
        #expect(try Self.inotifyDescriptors(watching: fixture.tree.root) == 0)
        await fixture.watcher.stop()
        guard case .stopped = try #require(fixture.log.all.last) else {
            Issue.record("the last report is \(String(describing: fixture.log.all.last)), not stopped")
            return
        }
        let reportsAtStop = fixture.log.all.count

        try fixture.tree.copy("A_camera_exif/goexif__sample1.jpg", to: "2019/new.jpg")
        let next = LibraryWatcher(library: fixture.library)
        await next.start()
        try await fixture.eventually { try await fixture.count() == 3 }
        await next.stop()
        #expect(fixture.log.all.count == reportsAtStop)
    }
}

extension LibraryWatcherTests {
    /// How many of this process' inotify descriptors watch `folder`, as `/proc/self/fdinfo`
    /// lists their watches (`inotify wd:1 ino:<hex inode> sdev:...`): one per running watcher
    /// of it, none once its descriptor is closed.
    static func inotifyDescriptors(watching folder: URL) throws -> Int {
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: folder.path)[.systemFileNumber] as? NSNumber)
        let needle = " ino:\(String(inode.uint64Value, radix: 16)) "
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo")
        return descriptors.filter { descriptor in
            let info = (try? String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8)) ?? ""
            return info.split(separator: "\n").contains { $0.hasPrefix("inotify ") && $0.contains(needle) }
        }.count
    }
}

/// The byte sizes an asset was seen with, one entry per look.
private final class SeenSizes: Sendable {
    private let sizes = Mutex<[Int64]>([])
    func append(_ more: [Int64]) { sizes.withLock { $0 += more } }
    var all: [Int64] { sizes.withLock { $0 } }
}
