import Foundation
import ArgumentParser
import AssetsKit

extension AssetIdentifier: ExpressibleByArgument {
    /// Either identifier form (`UUID/L0/001`, `assets-library://…`), or the bare UUID that the
    /// picker's API and the client API show.
    public init?(argument: String) {
        if let identifier = AssetIdentifier(string: argument) {
            self = identifier
        } else if let uuid = UUID(uuidString: argument) {
            self = .local(LocalIdentifier(uuid: uuid))
        } else {
            return nil
        }
    }
}

extension PhotoLibrary {
    /// The asset an identifier names, or a clear error.
    func asset(_ identifier: AssetIdentifier) async throws -> Asset {
        guard let asset = try await assets(withIdentifiers: [identifier]).found.first else {
            throw LibraryError.assetNotFound(identifier.description)
        }
        return asset
    }
}
