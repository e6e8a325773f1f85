import AssetsKit
import Foundation
import ImagePipeline

extension FolderLibrary {
    /// One of the fixed renditions AssetsLibrary kept of every asset, as its API asked for
    /// them by name (`thumbnail`, `aspectRatioThumbnail`, `fullScreenImage`,
    /// `fullResolutionImage`): rendered and cached through ``imageManager`` like any request,
    /// and reported with the representation as its `ImageResult.source`.
    public func image(for asset: Asset, representation: Representation, format: ImageFormat = .jpeg,
                      quality: Int = 85) async throws -> ImageResult {
        let request = ImageRequest(targetSize: representation.bounds, contentMode: representation.contentMode,
                                   deliveryMode: .highQualityFormat, format: format, quality: quality,
                                   isNetworkAccessAllowed: representation == .fullResolution)
        var result = try await finalImage(for: asset, request: request)
        result.source = representation.imageSource
        return result
    }
}
