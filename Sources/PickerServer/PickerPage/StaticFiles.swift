import Foundation
import HTTPTypes
import Hummingbird
import ImagePipeline

/// The web picker's files (HTML, CSS, JS modules), read once into memory when the server starts
/// and answered from there: no request path reaches the file system.
///
/// Each file answers at two paths: `/ui/<version>/<file>`, immutable (cached for a year without
/// revalidation), where ``version`` is a digest of every file, so that any change of any file
/// moves them all to new URLs; and plain `/ui/<file>`, revalidated on every use, for whatever
/// links the old URLs. The page (`index.html`) names the versioned URLs.
struct StaticFiles: Sendable {
    struct File: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        let entityTag: String
    }

    /// The `Cache-Control` of a versioned file: its URL changes whenever its bytes could.
    static let immutable = "public, max-age=31536000, immutable"

    private let files: [String: File]

    /// The digest of every file's path and bytes (16 hex digits): the versioned files' prefix `/ui/<version>/`.
    let version: String

    /// The files of the folder at `directory` (not its subfolders' hidden files), by relative path;
    /// `index.html`'s references to `/ui/…` become references to `/ui/<version>/…`.
    init(directory: URL) throws {
        var contents: [String: (data: Data, contentType: String)] = [:]
        let base = directory.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey],
                                                        options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            guard let type = Self.contentTypes[url.pathExtension.lowercased()] else { continue }
            contents[relative] = (try Data(contentsOf: url), type)
        }
        let version = Self.digest(contents.mapValues(\.data))
        for name in Self.pages {
            if let page = contents[name] { contents[name]?.data = Self.versioningReferences(in: page.data, version: version) }
        }
        self.version = version
        files = contents.mapValues { content in
            File(bytes: ByteBuffer(data: content.data), contentType: content.contentType,
                 entityTag: "\"\(String(FNV1a.hash(content.data), radix: 16))\"")
        }
    }

    /// The web picker's own files, bundled with this module.
    static func bundled() throws -> StaticFiles {
        guard let url = Bundle.module.url(forResource: "Web", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the web picker's files are missing from the bundle"])
        }
        return try StaticFiles(directory: url)
    }

    /// The file at `path` (relative, e.g. `app.js`), if there is one.
    func file(_ path: String) -> File? { files[path] }

    /// The answer at `/ui/<path>`: `<version>/<file>` immutable, a plain `<file>` revalidated; 404
    /// for anything else (an older or unknown version too) and for the page, which is no file of its own.
    func uiResponse(_ path: String, request: Request) throws -> Response {
        let versioned = path.hasPrefix(version + "/")
        let file = versioned ? String(path.dropFirst(version.count + 1)) : path
        guard !Self.pages.contains(file) else { throw APIError.notFound }
        return try response(file, request: request, cacheControl: versioned ? Self.immutable : "no-cache")
    }

    /// A response with the file, or 304 when the caller's copy is current.
    func response(_ path: String, request: Request, cacheControl: String = "no-cache") throws -> Response {
        guard let file = files[path] else { throw APIError.notFound }
        var headers: HTTPFields = [.eTag: file.entityTag, .cacheControl: cacheControl]
        if request.headers[.ifNoneMatch] == file.entityTag {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        headers[.contentLength] = String(file.bytes.readableBytes)
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.bytes))
    }

    /// The picker's page: served at each session's picker URI, never under `/ui/`.
    static let page = "index.html"

    /// The demo client page (``DemoClientRoutes``): served at `/demo/`.
    static let demoPage = "demo.html"

    /// The pages, answered at their own paths (never under `/ui/`), their `/ui/` references versioned.
    static let pages = [page, demoPage]

    /// FNV-1a over every file's path and bytes, in path order (each length-prefixed, so no two
    /// sets of files serialise alike).
    private static func digest(_ contents: [String: Data]) -> String {
        var serialised = Data()
        for (path, data) in contents.sorted(by: { $0.key < $1.key }) {
            for part in [Data(path.utf8), data] {
                withUnsafeBytes(of: UInt64(part.count).littleEndian) { serialised.append(contentsOf: $0) }
                serialised.append(part)
            }
        }
        let hex = String(FNV1a.hash(serialised), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The page with every attribute value `"/ui/…"` turned into `"/ui/<version>/…"`.
    private static func versioningReferences(in page: Data, version: String) -> Data {
        let text = String(decoding: page, as: UTF8.self)
        return Data(text.replacingOccurrences(of: "=\"/ui/", with: "=\"/ui/\(version)/").utf8)
    }

    private static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "json": "application/json; charset=utf-8", "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon",
        "webmanifest": "application/manifest+json",
    ]
}
