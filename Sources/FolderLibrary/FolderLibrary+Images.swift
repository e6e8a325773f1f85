import AssetsKit
import Foundation
import ImagePipeline
import LibraryTree

/// The folder library's images are the pipeline's (``ImagePipeline/ImageSourcing``): it says
/// where each asset's file is, of the version it read. The fixed renditions AssetsLibrary kept
/// are asked for by name, with ``image(for:representation:format:quality:)``.
extension FolderLibrary: ImageSourcing {
    /// The files of those `assets` still in the tree, as the folder cache knows them.
    public func imageSources(of assets: [Asset]) async throws -> [UUID: ImageSourceFile] {
        var sources: [UUID: ImageSourceFile] = [:]
        for asset in assets {
            guard let file = try? await locate(asset) else { continue }
            var source = ImageSourceFile(asset: asset, original: originalLocation(of: file))
            source.byteSize = file.byteSize
            source.modificationDate = file.modificationDate
            sources[asset.id.uuid] = source
        }
        return sources
    }

    /// The file's folder is listed again at the next walk, so that the next listing has what
    /// is there now.
    public func originalWentAway(_ asset: Asset) async {
        guard let file = try? await locate(asset) else { return }
        await cache.relist(file.directory)
    }
}
