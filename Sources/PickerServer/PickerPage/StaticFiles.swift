import Foundation
import HTTPTypes
import Hummingbird
import ImagePipeline

/// The web picker's files (HTML, CSS, JS modules), read once into memory when the server starts
/// and answered from there: no request path reaches the file system.
struct StaticFiles: Sendable {
    struct File: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        let entityTag: String
    }

    private let files: [String: File]

    /// The files of the folder at `directory` (not its subfolders' hidden files), by relative path.
    init(directory: URL) throws {
        var files: [String: File] = [:]
        let base = directory.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey],
                                                        options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            guard let type = Self.contentTypes[url.pathExtension.lowercased()] else { continue }
            let data = try Data(contentsOf: url)
            let tag = "\"\(String(FNV1a.hash(data), radix: 16))\""
            files[relative] = File(bytes: ByteBuffer(data: data), contentType: type, entityTag: tag)
        }
        self.files = files
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

    private static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "json": "application/json; charset=utf-8", "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon",
        "webmanifest": "application/manifest+json",
    ]
}
