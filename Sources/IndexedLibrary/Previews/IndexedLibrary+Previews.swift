import AssetsKit
import Foundation
import ImagePipeline
import MediaProbing

extension IndexedLibrary: LibraryPreviewing {
    /// Makes the previews the library lacks (see ``PreviewStore``), newest first, and removes
    /// those of assets no longer in it. A photo with an embedded EXIF thumbnail needs none (that
    /// thumbnail is its first image); every other photo of the camera roll gets one per version
    /// of its file. Call it after ``scan(progress:)``; a library without a preview store does nothing.
    ///
    /// - Parameter progress: Called as previews are made, for a progress bar.
    @discardableResult
    public func makePreviews(progress: (@Sendable (PreviewProgress) -> Void)? = nil) async throws -> PreviewSummary {
        var summary = PreviewSummary()
        guard let previews else { return summary }
        var keys: Set<String> = []
        var jobs: [PreviewMaker.Job] = []
        let photos = try await assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions(mediaFilter: .photo, sortOrder: .newestFirst))
        for try await asset in photos {
            keys.insert(asset.id.uuid.uuidString)
            if Self.wantsPreview(mediaType: asset.mediaType, hasEmbeddedThumbnail: asset.hasEmbeddedThumbnail),
               let source = try? await imageSource(of: asset), !previews.contains(source.version) {
                jobs.append(PreviewMaker.Job(source: source))
            } else {
                summary.unchanged += 1
            }
        }
        summary.removed = previews.removeAll(except: keys)
        let renderer = (reader as? MediaMetadataReader)?.renderer ?? ImageRenderer()
        await PreviewMaker(store: previews, renderer: renderer).make(jobs, into: &summary, progress: progress)
        return summary
    }

    /// Whether a file gets a preview: a photo without an embedded EXIF thumbnail.
    static func wantsPreview(mediaType: MediaType, hasEmbeddedThumbnail: Bool) -> Bool {
        mediaType == .photo && !hasEmbeddedThumbnail
    }
}
