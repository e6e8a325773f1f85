import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerClient
import Testing
import TestSupport

/// The OpenAPI document the server serves, held against what the server does over real HTTP.
@Suite struct OpenAPIDocumentTests {
    /// Every path of the client API and the methods it takes.
    static let clientAPI: [String: Set<String>] = [
        "/openapi.json": ["get"],
        "/v1/sessions": ["post"],
        "/v1/sessions/{sessionId}": ["get", "delete"],
        "/v1/mediaItems": ["get"],
        "/v1/media/{sessionId}/{itemId}/{content}": ["get"],
    ]

    @Test func theDocumentIsServedWithoutAKeyAndNamesEveryRouteOfTheClientAPI() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let answer = try await server.request("GET", "/openapi.json", authorized: false)
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true)
        let document = try OpenAPI(answer.body)
        #expect((document.root["openapi"] as? String)?.hasPrefix("3.0") == true)
        let paths = try #require(document.root["paths"] as? [String: [String: Any]])
        #expect(paths.mapValues { Set($0.keys).subtracting(["parameters"]) } == Self.clientAPI)
        // Every reference resolves, and every operation can be named by a link.
        #expect(document.unresolvedReferences.isEmpty, "\(document.unresolvedReferences)")
        let operationIDs = paths.values.flatMap(\.values).compactMap { ($0 as? [String: Any])?["operationId"] as? String }
        #expect(Set(operationIDs).count == 6)
        let security = try #require((document.root["components"] as? [String: Any])?["securitySchemes"] as? [String: [String: String]])
        #expect(security["clientKey"]?["scheme"] == "bearer")
    }

    @Test func everyOperationCalledAsDocumentedAnswersADocumentedStatusAndContentType() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let document = try OpenAPI(try await server.request("GET", "/openapi.json").body)
        let created = try await server.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        try document.expectConforms(created, "/v1/sessions", "post", status: 200)
        let id = try #require(created.json["id"] as? String)
        #expect(created.header("Location") == "/v1/sessions/\(id)")
        let unfinished = try await server.request("GET", "/v1/mediaItems?sessionId=\(id)")
        try document.expectConforms(unfinished, "/v1/mediaItems", "get", status: 400)

        let session = try await server.client.session(id)
        let person = server.picker(session)
        let videoID = try await person.cameraRollIDs(media: "video")[0]
        let picks = Array(try await person.cameraRollIDs(media: "photo").prefix(2)) + [videoID]
        try await person.pick(picks)
        let items = try await server.client.mediaItems(in: id)
        let (photo, video) = (items[0].baseURLPath, items[2].baseURLPath)
        let media = "/v1/media/{sessionId}/{itemId}/{content}"
        let calls: [(String, String, String, [String: String], Int)] = [
            ("/openapi.json", "get", "/openapi.json", [:], 200),
            ("/v1/sessions/{sessionId}", "get", "/v1/sessions/\(id)", [:], 200),
            ("/v1/mediaItems", "get", "/v1/mediaItems?sessionId=\(id)&pageSize=2", [:], 200),
            ("/v1/mediaItems", "get", "/v1/mediaItems?sessionId=\(id)&pageToken=p2", [:], 200),
            ("/v1/mediaItems", "get", "/v1/mediaItems?sessionId=\(id)&pageSize=x", [:], 400),
            ("/v1/mediaItems", "get", "/v1/mediaItems?sessionId=\(UUID().uuidString)", [:], 404),
            (media, "get", photo + "=w64-h48-c", [:], 200),
            (media, "get", photo + "=w64", [:], 200),
            (media, "get", photo + "=d", [:], 200),
            (media, "get", photo + "=x", [:], 400),
            (media, "get", video + "=dv", [:], 200),
            (media, "get", video + "=dv", ["Range": "bytes=0-99"], 206),
            (media, "get", video + "=dv", ["Range": "bytes=999999999-"], 416),
            (media, "get", try await server.mediaPath(session: id, item: UUID().uuidString) + "=d", [:], 404),
        ]
        for (template, method, path, headers, status) in calls {
            try document.expectConforms(try await server.request(method.uppercased(), path, headers: headers), template, method, status: status)
        }
        // Revalidation: the ETag of a rendition and of a video brings 304.
        for path in [photo + "=w32-h32", video + "=dv"] {
            let tag = try #require(try await server.request("GET", path).header("ETag"))
            try document.expectConforms(try await server.request("GET", path, headers: ["If-None-Match": tag]), media, "get", status: 304)
        }
        for (template, method) in Self.clientAPI.flatMap({ path, methods in methods.map { (path, $0) } }) where template != "/openapi.json" {
            let path = template.replacingOccurrences(of: "{sessionId}", with: id).replacingOccurrences(of: "{itemId}", with: picks[0])
                .replacingOccurrences(of: "{content}", with: "1=d")
            try document.expectConforms(try await server.request(method.uppercased(), path, authorized: false), template, method, status: 401)
        }
        try document.expectConforms(try await server.request("DELETE", "/v1/sessions/\(id)"), "/v1/sessions/{sessionId}", "delete", status: 200)
        try document.expectConforms(try await server.request("GET", "/v1/sessions/\(id)"), "/v1/sessions/{sessionId}", "get", status: 404)
    }

    @Test func methodsAResourceDoesNotTakeAreAnswered405WithTheDocumentedOnes() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let document = try OpenAPI(try await server.request("GET", "/openapi.json").body)
        let id = "AAAAAAAAAAAAAAAAAAAAAA", item = UUID().uuidString
        for (template, methods) in Self.clientAPI {
            let path = template.replacingOccurrences(of: "{sessionId}", with: id).replacingOccurrences(of: "{itemId}", with: item)
                .replacingOccurrences(of: "{content}", with: "1=d")
            for method in ["PATCH", "PUT", "TRACE", "OPTIONS"] {
                // Without the key, every client path is refused first (AccessGate), whatever the method.
                if path.hasPrefix("/v1/") { #expect(try await server.request(method, path, authorized: false).status == 401, "\(method) \(path)") }
                let answer = try await server.request(method, path)
                #expect(answer.status == 405, "\(method) \(path)")
                let allowed = Set((answer.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
                #expect(allowed == methods, "\(method) \(path)")
                try document.expectConforms(answer, template, methods.sorted()[0], status: 405)
            }
        }
        // Paths that are no resource stay unknown ones.
        #expect(try await server.request("PUT", "/v1/sessions/\(id)/items/\(item)").status == 404)
        #expect(try await server.request("PUT", "/v1/media/\(id)/\(item)").status == 404)
    }

    /// The outside attack's side finding: `HEAD /v1/sessions` was 404 where `GET` was 405.
    @Test func headIsAnsweredAsGetIsAndTheMirrorAnswersMethodsAsTheClientAPI() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let own = try await server.server.makeOwnSession()
        for prefix in ["/v1", "/demo/v1"] {
            let person = prefix == "/demo/v1"
            func status(_ method: String, _ path: String) async throws -> (Int, String?) {
                let answer = try await server.request(method, prefix + path, authorized: !person, asPerson: person)
                return (answer.status, answer.header("Allow"))
            }
            for method in ["GET", "HEAD", "PUT"] {
                let (code, allow) = try await status(method, "/sessions")
                #expect(code == 405 && allow == "POST", "\(method) \(prefix)/sessions: \(code) \(allow ?? "")")
            }
            #expect(try await status("HEAD", "/sessions/\(own.id)").0 == 200, "\(prefix)")
            #expect(try await status("HEAD", "/sessions/AAAAAAAAAAAAAAAAAAAAAA").0 == 404, "\(prefix)")
            #expect(try await status("POST", "/sessions/\(own.id)") == (405, "GET, DELETE"), "\(prefix)")
            for path in ["/mediaItems?sessionId=\(own.id)", "/sessions/\(own.id)"] {
                #expect(try await status("HEAD", path).0 == status("GET", path).0, "\(prefix)\(path)")
            }
        }
    }

    /// Parses the served document and checks answers against it.
    struct OpenAPI {
        let root: [String: Any]

        init(_ data: Data) throws {
            root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }

        /// The `$ref`s that name nothing in the document.
        var unresolvedReferences: [String] {
            var references: [String] = []
            func collect(_ value: Any) {
                if let object = value as? [String: Any] {
                    if let reference = object["$ref"] as? String { references.append(reference) }
                    object.values.forEach(collect)
                } else if let array = value as? [Any] {
                    array.forEach(collect)
                }
            }
            collect(root)
            return references.filter { resolve($0) == nil }
        }

        /// What a local reference (`#/components/…`) points at.
        func resolve(_ reference: String) -> Any? {
            guard reference.hasPrefix("#/") else { return nil }
            var node: Any? = root
            for key in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(key)] }
            return node
        }

        /// Expects `answer` to have `status`, documented for the operation, with a documented content
        /// type, the headers the document requires and, for JSON, the keys its schema requires.
        func expectConforms(_ answer: HTTPAnswer, _ path: String, _ method: String, status: Int,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(answer.status == status, "\(method) \(path)", sourceLocation: sourceLocation)
            let operation = try #require((root["paths"] as? [String: Any]).flatMap { $0[path] as? [String: Any] }?[method] as? [String: Any],
                                         sourceLocation: sourceLocation)
            var response = (operation["responses"] as? [String: Any])?[String(answer.status)] as? [String: Any]
            if let reference = response?["$ref"] as? String { response = resolve(reference) as? [String: Any] }
            let documented = try #require(response, "\(method) \(path) does not document \(answer.status)", sourceLocation: sourceLocation)
            for (name, header) in documented["headers"] as? [String: Any] ?? [:] {
                var header = header as? [String: Any]
                if let reference = header?["$ref"] as? String { header = resolve(reference) as? [String: Any] }
                if header?["required"] as? Bool == true {
                    #expect(answer.header(name) != nil, "\(method) \(path) \(answer.status) lacks \(name)", sourceLocation: sourceLocation)
                }
            }
            let content = documented["content"] as? [String: Any] ?? [:]
            guard let type = answer.header("Content-Type")?.split(separator: ";").first.map(String.init), !answer.body.isEmpty else {
                #expect(content.isEmpty, "\(method) \(path) \(answer.status) has no body", sourceLocation: sourceLocation)
                return
            }
            let matching = content.keys.first { range in
                range == type || (range.hasSuffix("/*") && type.hasPrefix(range.dropLast()))
            }
            let media = try #require(matching, "\(method) \(path) \(answer.status): \(type) is not documented", sourceLocation: sourceLocation)
            guard type == "application/json",
                  var schema = ((content[media] as? [String: Any])?["schema"]) as? [String: Any] else { return }
            if let reference = schema["$ref"] as? String { schema = resolve(reference) as? [String: Any] ?? [:] }
            let object = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any], sourceLocation: sourceLocation)
            let required = Set(schema["required"] as? [String] ?? [])
            let properties = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
            #expect(required.isSubset(of: Set(object.keys)), "\(method) \(path) \(answer.status)", sourceLocation: sourceLocation)
            if schema["additionalProperties"] as? Bool == false {
                #expect(Set(object.keys).isSubset(of: properties), "\(method) \(path) \(answer.status)", sourceLocation: sourceLocation)
            }
        }
    }
}
