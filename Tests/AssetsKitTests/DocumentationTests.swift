import Foundation
import Testing

@Suite("AssetsKit's documentation")
struct DocumentationTests {
    /// Sources/AssetsKit, found from this file's place in the package.
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AssetsKit", isDirectory: true)

    @Test("every public symbol of AssetsKit has a doc comment")
    func everyPublicSymbolIsDocumented() throws {
        let enumerator = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" { files.append(url) }
        #expect(files.count >= 20, "Sources/AssetsKit not found at \(Self.sources.path)")
        var findings: [PublicDeclarationScanner.Finding] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let name = String(file.path.dropFirst(Self.sources.path.count + 1))
            findings += PublicDeclarationScanner.undocumented(in: try String(contentsOf: file, encoding: .utf8), file: name)
        }
        #expect(findings.isEmpty, "public symbols without a /// comment:\n\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("the check finds undocumented declarations, requirements and cases, and passes documented ones")
    func scannerFindsWhatIsMissing() {
        let source = """
            /// Documented.
            public struct Documented {
                /// Documented.
                public var documented: Int
                public var bare: Int
                var internalOne: Int
                public func call() { let closure = { 1 }; _ = closure }
                /// Documented, past its attribute.
                @discardableResult
                public static func attributed() -> Int { 1 }
            }

            /// Documented.
            public protocol Requirements {
                /// Documented.
                func documented()
                func bare()
                var property: Int { get }
            }

            /// Documented.
            public enum Cases {
                /// Documented.
                case documented
                case bare(String)
                /// Documented.
                public var value: Int {
                    switch self {
                    case .documented: 1
                    case .bare: 2
                    }
                }
            }

            enum Internal {
                case notPublic
            }

            extension Documented {
                public init?(text: String) { nil }
            }
            """
        let found = PublicDeclarationScanner.undocumented(in: source, file: "Sample.swift").map(\.line)
        #expect(found == [5, 7, 17, 18, 25, 40])
    }
}
