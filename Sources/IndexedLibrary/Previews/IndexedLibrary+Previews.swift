import AssetsKit
import Foundation
import ImagePipeline

extension IndexedLibrary: LibraryPreviewing {
    /// Makes the previews the library lacks (see ``PreviewStore``), newest first, and removes
    /// those no photo needs now; returns when they are made. A photo with an embedded EXIF
    /// thumbnail needs none (that thumbnail is its first image); every other photo of the camera
    /// roll gets one per version of its file. Over a store that keeps originals elsewhere (a
    /// bucket) every photo and video gets one, each original fetched once for it (network access
    /// allowed), so that browsing never waits for the network. Which photo has a preview of which version is in
    /// the index, so a run over a library whose previews are all made is one query. A library
    /// without a preview store does nothing.
    ///
    /// - Parameter progress: Called as previews are made, for a progress bar.
    @discardableResult
    public func makePreviews(progress: (@Sendable (PreviewProgress) -> Void)? = nil) async throws -> PreviewSummary {
        try await makePreviews(width: ProcessInfo.processInfo.activeProcessorCount, progress: progress, isInterrupted: { false })
    }

    /// Makes the previews of the `count` newest photos that lack one, with every core, found in
    /// one query that reads no more rows than that; removes nothing.
    @discardableResult
    public func makePreviews(ofNewest count: Int) async throws -> PreviewSummary {
        try await makePreviews(width: ProcessInfo.processInfo.activeProcessorCount, newest: count, progress: nil, isInterrupted: { false })
    }

    /// Starts making the previews the library lacks in the background and returns at once
    /// (see ``makePreviews(progress:)``), a render at a time less than the cores (at least
    /// one), so that renders asked for meanwhile find a core. While a run is under way, another
    /// request makes it plan again after the renders it started: the newest photos first.
    public func makePreviewsInBackground() {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        backgroundPreviews.request { [self] isInterrupted in
            _ = try? await makePreviews(width: width, progress: nil, isInterrupted: isInterrupted)
        }
    }

    /// Stops making previews in the background; returns once the renders under way are over.
    /// What was made is kept; the next run makes the rest.
    public func stopMakingPreviews() async {
        await backgroundPreviews.stop()
    }

    /// One run: removes what killed runs left half written, forgets the previews no photo needs
    /// (removing their files), then makes those the index says are lacking, newest first,
    /// `width` at once, until done or `isInterrupted`. With `newest`, only the previews of that
    /// many of the newest photos lacking one, and nothing removed.
    func makePreviews(width: Int, newest: Int? = nil, progress: (@Sendable (PreviewProgress) -> Void)?,
                      isInterrupted: @escaping @Sendable () -> Bool) async throws -> PreviewSummary {
        var summary = PreviewSummary()
        guard let previews else { return summary }
        // A preview folder removed by hand took every preview with it.
        if !previews.exists { try await index.forgetAllPreviews() }
        if newest == nil {
            previews.removeLeftovers(now: now())
            let unneeded = try await index.removeUnneededPreviews(coverage: previewCoverage)
            for preview in unneeded { previews.remove(preview.version) }
            summary.removed = unneeded.count
        }
        let photos = try await index.assetCount(in: SmartAlbum.all.collectionIdentifier,
                                                filter: previewCoverage == .everyAsset ? .all : .photo, recentlyAddedSince: now())
        let lacking = try await index.photosLackingPreviews(coverage: previewCoverage, newest: newest)
        var jobs: [PreviewMaker.Job] = []
        var found: [PreviewRecord] = []
        for photo in lacking {
            let record = PreviewRecord(of: photo.record)
            let source = try await imageSource(of: photo.record)
            // A preview on disk the index does not know of (made by a build that kept no
            // record) is taken as it is.
            if photo.previous == nil, previews.contains(source.version) {
                found.append(record)
            } else {
                jobs.append(PreviewMaker.Job(source: source, record: record, previous: photo.previous?.version))
            }
        }
        try await index.recordPreviews(found)
        // Only a run over every photo knows how many have theirs.
        summary.unchanged = newest == nil ? photos - jobs.count : 0
        let maker = PreviewMaker(store: previews, index: index, rendering: imageManager.rendering, width: width)
        try await maker.make(jobs, into: &summary, progress: progress, isInterrupted: isInterrupted)
        return summary
    }
}
