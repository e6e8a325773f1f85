import AssetsKit
import FolderLibrary
import Foundation
import Testing
import TestSupport

/// A library's own prefetch (PHCachingImageManager's `startCachingImages`), written once for
/// every backend on the image seam: the photos are rendered into the library's caches, and the
/// requests that follow are answered from memory.
@Suite("A library prefetches through its image seam")
struct LibraryPrefetchTests {
    @Test("startCaching renders each photo once into the memory cache; the same requests then render nothing")
    func prefetchedPhotosAreMemoryHits() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        let library = FolderLibrary(root: tree.root, cacheFile: nil, metadataReading: nil, now: AlbumTree.hourAhead)
        let listed = try await library.assets(in: try await library.cameraRoll().id, options: FetchOptions(mediaFilter: .photo))
        let photos = try await listed.assets(in: 0..<listed.count)
        try #require(photos.count == 4)
        let request = ImageRequest(targetSize: PixelSize(width: 48, height: 48), contentMode: .fill, deliveryMode: .highQualityFormat)

        await library.startCaching(photos, request: request)
        try await HangGuard.waitUntil("the four prefetch renders") {
            await library.imageManager.renderCount == 4 && library.imageManager.prefetchCount == 0
        }
        for photo in photos {
            let image = try await library.finalImage(for: photo, request: request)
            #expect(image.source == .memoryCache)
            #expect(image.pixelSize == PixelSize(width: 48, height: 48))
        }
        #expect(await library.imageManager.renderCount == 4)
    }
}
