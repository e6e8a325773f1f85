import ArgumentParser
import AssetsKit

extension AssetIdentifier: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(string: argument)
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
