import AssetsKit
import Foundation
import ImagePipeline

/// Makes previews (see ``PreviewStore``) of the photos it is given, taking them in the order
/// given, `width` renders at once, and records each made one in the index, a batch per
/// transaction. One bad file never stops the run: it is reported and gets no preview.
struct PreviewMaker: Sendable {
    /// A photo that needs a preview.
    struct Job: Sendable {
        /// The photo's original, the version the index holds.
        var source: ImageSourceFile
        /// What the index records once the preview is made.
        var record: PreviewRecord
        /// The preview of an earlier version of the file, removed once the new one is stored.
        var previous: SourceVersion?
    }

    let store: PreviewStore
    let index: any IndexStore
    /// What renders the previews: the library's image manager's ``ImagePipeline/ImageRendering``.
    let rendering: any ImageRendering
    /// Renders at once.
    let width: Int
    /// Made previews recorded per transaction.
    var batchSize = 64

    /// What a preview is: fit in ``PreviewStore/longestSide``, fast (a JPEG's DC decode), a JPEG
    /// of ``PreviewStore/quality``; an original kept elsewhere is fetched for it.
    static let request = ImageRequest(targetSize: PixelSize(width: PreviewStore.longestSide, height: PreviewStore.longestSide),
                                      contentMode: .fit, resizeMode: .fast, format: .jpeg, quality: PreviewStore.quality,
                                      isNetworkAccessAllowed: true, keepsInMemory: false)

    /// Makes the previews of `jobs`, counting them into `summary`. Stops taking jobs when the task
    /// is cancelled or `isInterrupted` says so (those left are the next run's); the renders under
    /// way are finished and recorded.
    func make(_ jobs: [Job], into summary: inout PreviewSummary, progress report: (@Sendable (PreviewProgress) -> Void)?,
              isInterrupted: @Sendable () -> Bool) async throws {
        var progress = PreviewProgress(total: jobs.count, done: 0, failed: 0)
        report?(progress)
        var made: [PreviewRecord] = []
        await withTaskGroup(of: Outcome.self) { group in
            var next = jobs.makeIterator()
            func take() -> Job? {
                Task.isCancelled || isInterrupted() ? nil : next.next()
            }
            for _ in 0..<max(1, width) {
                guard let job = take() else { break }
                group.addTask { await preview(job) }
            }
            while let outcome = await group.next() {
                progress.done += 1
                switch outcome {
                case .made(let record):
                    summary.made += 1
                    made.append(record)
                case .failed(let failure):
                    progress.failed += 1
                    summary.failed.append(failure)
                }
                report?(progress)
                if made.count >= batchSize {
                    // Recorded as the run goes: one stopped half-way keeps what it made.
                    try? await index.recordPreviews(made)
                    made.removeAll(keepingCapacity: true)
                }
                if let job = take() { group.addTask { await preview(job) } }
            }
        }
        try await index.recordPreviews(made)
    }

    /// What became of one job.
    private enum Outcome: Sendable {
        case made(PreviewRecord)
        case failed(ScanFailure)
    }

    /// Makes one preview, from the original opened confined to the library (a file swapped
    /// since the index read it gets none). An original kept elsewhere is read without being kept
    /// (``AssetsKit/OriginalFetching/readWithoutKeeping(_:_:)``): a preview is not the person
    /// opening it.
    private func preview(_ job: Job) async -> Outcome {
        do {
            let preview = if let fetcher = job.source.fetcher {
                try await fetcher.readWithoutKeeping(job.source.original) { [rendering] copy in
                    var source = job.source
                    source.original = copy
                    source.fetcher = nil
                    return try await rendering.render(source, request: Self.request)
                }
            } else {
                try await rendering.render(job.source, request: Self.request)
            }
            try store.store(preview.data, for: job.source.version, replacing: job.previous)
            return .made(job.record)
        } catch {
            return .failed(ScanFailure(path: job.source.original.relativePath, reason: "no preview: \(error)"))
        }
    }
}
