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

    /// Prints the result as JSON, or as a line for each new asset and album, then the token.
    func print(json: Bool) throws {
        if json { return try JSONOutput.print(self) }
        for identifier in insertedAssets { say("New asset: \(identifier)") }
        for identifier in insertedCollections { say("New album or folder: \(identifier)") }
        say("Done; the library's change token is now \(token) (`assets-picker changes --since \(token)` will list what changes after this).")
    }
}

extension LibraryOptions {
    /// Opens the library (making its index when missing) and applies `requests` in one transaction.
    func perform(_ requests: [ChangeRequest]) async throws -> ChangeResult {
        let library = try await open(mayCreateIndex: true)
        guard let changing = library.changing else {
            throw LibraryError.readOnly(path: library.placeDescription, reason: "this backend cannot change the library (a folder library never can, an indexed one only on a writable folder); use --backend indexed on a writable folder")
        }
        return try await changing.performChanges(requests)
    }
}
