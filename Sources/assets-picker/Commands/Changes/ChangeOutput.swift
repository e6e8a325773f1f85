import AssetsKit
import Foundation

/// What a change command prints: the new identifiers and the change token after it.
struct ChangeOutput: Encodable {
    let insertedAssets: [String]
    let insertedCollections: [String]
    let token: String

    init(_ result: ChangeResult) {
        insertedAssets = result.insertedAssets.map(\.description)
        insertedCollections = result.insertedCollections.map(\.rawValue)
        token = result.token.description
    }

    /// Prints the result as JSON, or as one line per new identifier then the token.
    func print(json: Bool) throws {
        if json { return try JSONOutput.print(self) }
        for identifier in insertedAssets + insertedCollections { say(identifier) }
        say("change token \(token)")
    }
}

extension LibraryOptions {
    /// Opens the library (making its index when missing) and applies `requests` in one transaction.
    func perform(_ requests: [ChangeRequest]) async throws -> ChangeResult {
        let library = try await open(mayCreateIndex: true)
        guard let changing = library.changing else {
            throw LibraryError.readOnly(path: library.rootURL.path, reason: "this backend cannot change the library (a folder library never can, an indexed one only on a writable folder); use --backend indexed on a writable folder")
        }
        return try await changing.performChanges(requests)
    }
}
