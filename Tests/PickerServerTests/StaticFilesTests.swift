import Foundation
@testable import PickerServer
import Testing

/// The web picker's files: immutable under a versioned prefix the page links, revalidated at
/// their plain `/ui/` paths, and a new version whenever any file's bytes change.
@Suite struct StaticFilesTests {
    @Test func thePageLinksOnlyVersionedImmutableFiles() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let files = try StaticFiles.bundled()
        let session = try await server.client.createSession()
        let page = try await server.request("GET", session.pickerPath, authorized: false, asPerson: true)
        #expect(page.status == 200)
        #expect(page.header("Cache-Control") == "no-cache")
        let html = String(decoding: page.body, as: UTF8.self)
        // Every file the page loads (the finished page's link to the demo client page is the script's to set).
        let links = html.matches(of: /(?:href|src)="([^"]+)"/).map { String($0.output.1) }.filter { $0.hasPrefix("/") }
        #expect(links.count >= 18) // the icon, the stylesheet and every module
        for link in links {
            let name = try #require(link.split(separator: "/").last.map(String.init))
            #expect(link == "/ui/\(files.version)/\(name)")
            let answer = try await server.request("GET", link, authorized: false)
            #expect(answer.status == 200, "\(link)")
            #expect(answer.header("Cache-Control") == "public, max-age=31536000, immutable", "\(link)")
            let file = try #require(files.file(name))
            #expect(answer.header("Content-Type") == file.contentType, "\(link)")
            #expect(answer.body == Data(buffer: file.bytes), "\(link)")
        }
        let types = Set(links.compactMap { files.file(String($0.split(separator: "/").last!))?.contentType })
        #expect(types == ["image/svg+xml", "text/css; charset=utf-8", "text/javascript; charset=utf-8"])
    }

    @Test func anotherVersionIsNotFoundAndPlainPathsAreRevalidated() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let version = try StaticFiles.bundled().version
        let stale = String(repeating: version.first == "0" ? "1" : "0", count: 16)
        #expect(try await server.request("GET", "/ui/\(stale)/app.js", authorized: false).status == 404)
        #expect(try await server.request("GET", "/ui/\(version)/missing.js", authorized: false).status == 404)
        #expect(try await server.request("GET", "/ui/\(version)/index.html", authorized: false).status == 404)
        #expect(try await server.request("GET", "/ui/index.html", authorized: false).status == 404)
        let plain = try await server.request("GET", "/ui/app.js", authorized: false)
        #expect(plain.status == 200)
        #expect(plain.header("Cache-Control") == "no-cache")
        let versioned = try await server.request("GET", "/ui/\(version)/app.js", authorized: false)
        #expect(plain.body == versioned.body)
        let tag = try #require(plain.header("ETag"))
        #expect(try await server.request("GET", "/ui/app.js", headers: ["If-None-Match": tag], authorized: false).status == 304)
    }

    @Test func theVersionFollowsEveryFilesBytes() throws {
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/PickerServer/Web").standardizedFileURL
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: web, to: copy)
        let original = try StaticFiles(directory: copy)
        let bundled = try StaticFiles.bundled()
        #expect(original.version == bundled.version)
        #expect(try StaticFiles(directory: copy).version == original.version)

        let script = copy.appendingPathComponent("selection.js")
        try (try Data(contentsOf: script) + Data("\n// changed\n".utf8)).write(to: script)
        let changed = try StaticFiles(directory: copy)
        #expect(changed.version != original.version)
        #expect(changed.version.count == 16)
        let page = String(decoding: Data(buffer: try #require(changed.file(StaticFiles.page)).bytes), as: UTF8.self)
        #expect(page.contains("src=\"/ui/\(changed.version)/app.js\""))
        #expect(!page.contains("\"/ui/\(original.version)/"))
        #expect(changed.file(StaticFiles.page)?.entityTag != original.file(StaticFiles.page)?.entityTag)
    }
}
