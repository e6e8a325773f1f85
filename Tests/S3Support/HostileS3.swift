import Foundation

/// A hostile S3 server for tests: it answers what a scenario file says, not what S3 would, for
/// what moto will not do — a listing that ignores the prefix and the delimiter, keys with `..`
/// (percent-encoded), sizes that are negative or absurd, entries that cannot be read, a
/// continuation token that repeats or never ends, one object refused (403) or failing (500).
///
/// One Python process per test process (killed when it exits, as moto is), serving every
/// bucket that has a scenario: `<bucket>.json` in its folder, read again on every request, so a
/// test changes it between requests by writing it again.
///
/// A scenario is a JSON object:
/// - `objects`: each `{"key": "as listed (percent-encoded)", "size": "as listed" (default: the
///   data's), "data": "base64" (default: none), "status": 403, "code": "AccessDenied"
///   (answered to a read of it instead of bytes), "lastModified": "…" (`""`: none listed)}`;
///   a read of the key the listed key decodes to answers its data (with `Range`);
/// - `tokens`: `"same"` (every page truncated, with the same token), `"fresh"` (every page
///   truncated with a new token, a thousand made-up keys a page), or absent (one page).
public final class HostileS3: Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// The folder of scenarios.
    public let folder: URL

    /// One listed object of a scenario.
    public struct Object: Sendable {
        public var key: String
        public var size: String?
        public var data: Data
        public var status: Int?
        public var code: String?
        public var lastModified: String?

        /// An object listed as `key` (percent-encoded as in a listing with `encoding-type=url`).
        public init(key: String, data: Data = Data(), size: String? = nil, status: Int? = nil, code: String? = nil, lastModified: String? = nil) {
            self.key = key
            self.data = data
            self.size = size
            self.status = status
            self.code = code
            self.lastModified = lastModified
        }
    }

    /// How the listing's pages go on.
    public enum Tokens: String, Sendable {
        /// Every page truncated with the same token.
        case same
        /// Every page truncated with a new token and a thousand made-up keys.
        case fresh
    }

    private init(port: Int, folder: URL) {
        self.port = port
        self.folder = folder
    }

    /// The server of this test process, started the first time it is asked for.
    public static func shared() async throws -> HostileS3 {
        try await started.value
    }

    private static let started = Task<HostileS3, any Error> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-s3-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("hostile_s3.py")
        try Data(source.utf8).write(to: script)
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw MotoServer.StartFailure(reason: "no python3")
        }
        let port = try await MotoProcess.start(executable: URL(fileURLWithPath: python), arguments: [script.path, folder.path],
                                               environment: [:])
        return HostileS3(port: port, folder: folder)
    }

    /// Makes (or replaces) `bucket`'s scenario.
    public func serve(bucket: String, objects: [Object], tokens: Tokens? = nil) throws {
        var scenario: [String: Any] = [
            "objects": objects.map { object -> [String: Any] in
                var entry: [String: Any] = ["key": object.key, "data": object.data.base64EncodedString()]
                if let size = object.size { entry["size"] = size }
                if let status = object.status { entry["status"] = status }
                if let code = object.code { entry["code"] = code }
                if let lastModified = object.lastModified { entry["lastModified"] = lastModified }
                return entry
            },
        ]
        if let tokens { scenario["tokens"] = tokens.rawValue }
        let data = try JSONSerialization.data(withJSONObject: scenario)
        let file = folder.appendingPathComponent("\(bucket).json")
        let staged = folder.appendingPathComponent(".\(bucket).json.\(UUID().uuidString)")
        try data.write(to: staged)
        _ = rename(staged.path, file.path)
    }

    /// How many listing requests `bucket` has had.
    public func listingRequests(bucket: String) -> Int {
        let text = (try? String(contentsOf: folder.appendingPathComponent("\(bucket).lists"), encoding: .utf8)) ?? ""
        return text.count
    }

    private static let source = #"""
import base64, hashlib, http.server, json, os, socketserver, sys, urllib.parse
from xml.sax.saxutils import escape

FOLDER = sys.argv[1]

def scenario(bucket):
    try:
        with open(os.path.join(FOLDER, os.path.basename(bucket) + ".json")) as f:
            return json.load(f)
    except Exception:
        return None

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def refuse(self, status, code):
        body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>%s</Code><Message>%s, said the hostile test server</Message></Error>"
                % (code, code)).encode()
        self.answer(status, body, [("Content-Type", "application/xml")])

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.lstrip("/").split("/", 1)
        bucket = parts[0]
        found = scenario(bucket)
        if found is None:
            return self.refuse(404, "NoSuchBucket")
        if len(parts) == 1 or parts[1] == "":
            with open(os.path.join(FOLDER, os.path.basename(bucket) + ".lists"), "a") as f:
                f.write(".")
            return self.listing(found, dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True)))
        key = urllib.parse.unquote(parts[1])
        for entry in found["objects"]:
            if urllib.parse.unquote(entry["key"]) == key:
                return self.object(entry)
        self.refuse(404, "NoSuchKey")

    def object(self, entry):
        if "status" in entry:
            return self.refuse(entry["status"], entry.get("code", "InternalError"))
        data = base64.b64decode(entry["data"])
        etag = '"%s"' % hashlib.md5(data).hexdigest()
        wanted = self.headers.get("Range")
        if wanted and wanted.startswith("bytes="):
            first, _, last = wanted[6:].partition("-")
            first = int(first)
            last = min(int(last) if last else len(data) - 1, len(data) - 1)
            if first >= len(data):
                return self.refuse(416, "InvalidRange")
            return self.answer(206, data[first:last + 1], [("ETag", etag), ("Content-Range", "bytes %d-%d/%d" % (first, last, len(data)))])
        self.answer(200, data, [("ETag", etag)])

    def listing(self, found, query):
        token = query.get("continuation-token")
        entries = []
        for entry in found["objects"]:
            data = base64.b64decode(entry.get("data", ""))
            size = entry.get("size", str(len(data)))
            modified = entry.get("lastModified", "2024-05-01T10:00:00.000Z")
            entries.append("<Contents><Key>%s</Key>%s<ETag>\"%s\"</ETag>%s</Contents>" % (
                escape(entry["key"]),
                "<LastModified>%s</LastModified>" % modified if modified else "",
                hashlib.md5(data).hexdigest(),
                "<Size>%s</Size>" % escape(size) if size != "" else ""))
        mode = found.get("tokens")
        next_token = ""
        if mode == "same":
            next_token = "the-same-token"
        elif mode == "fresh":
            number = int(token[5:]) + 1 if token else 1
            next_token = "fresh%d" % number
            entries = ["<Contents><Key>lib/made-%d-%d.jpg</Key><LastModified>2024-05-01T10:00:00.000Z</LastModified><ETag>\"e\"</ETag><Size>10</Size></Contents>"
                       % (number, index) for index in range(1000)]
        truncated = "<IsTruncated>true</IsTruncated><NextContinuationToken>%s</NextContinuationToken>" % next_token if next_token else "<IsTruncated>false</IsTruncated>"
        body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult><Name>b</Name><Prefix>%s</Prefix><EncodingType>url</EncodingType>%s%s</ListBucketResult>"
                % (escape(query.get("prefix", "")), "".join(entries), truncated)).encode()
        self.answer(200, body, [("Content-Type", "application/xml")])

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

server = Server(("127.0.0.1", 0), Handler)
print("Running on http://127.0.0.1:%d (hostile test S3)" % server.server_address[1], flush=True)
server.serve_forever()
"""#
}
