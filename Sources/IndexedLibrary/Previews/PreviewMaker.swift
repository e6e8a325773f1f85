import AssetsKit
import Foundation
import ImagePipeline

/// Makes previews (see ``PreviewStore``) of the photos it is given, in the order given, a render
/// per core. One bad file never stops the run: it is reported and gets no preview.
struct PreviewMaker: Sendable {
    /// A photo that needs a preview.
    struct Job: Sendable {
        var source: ImageSourceFile
    }

    let store: PreviewStore
    let renderer: ImageRenderer
    /// Renders at once.
    var width = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Makes the previews of `jobs`; counts them into `summary`.
    func make(_ jobs: [Job], into summary: inout PreviewSummary, progress report: (@Sendable (PreviewProgress) -> Void)?) async {
        var progress = PreviewProgress(total: jobs.count, done: 0, failed: 0)
        report?(progress)
        await withTaskGroup(of: ScanFailure?.self) { group in
            var next = jobs.makeIterator()
            func take(_ failure: ScanFailure?) {
                progress.done += 1
                if let failure {
                    progress.failed += 1
                    summary.failed.append(failure)
                } else {
                    summary.made += 1
                }
                report?(progress)
            }
            for _ in 0..<width {
                guard let job = next.next() else { break }
                group.addTask { await make(job) }
            }
            while let failure = await group.next() {
                take(failure)
                if !Task.isCancelled, let job = next.next() { group.addTask { await make(job) } }
            }
        }
    }

    /// Makes one preview, from the original opened confined to the library (a file swapped
    /// since the index read it gets none); the failure, if it could not.
    private func make(_ job: Job) async -> ScanFailure? {
        let side = PreviewStore.longestSide
        do {
            let original = try job.source.original.open()
            let preview = try await BlockingWork.run { [renderer] in
                do {
                    return try renderer.render(original.url, size: PixelSize(width: side, height: side), mode: .fit, format: .jpeg,
                                               quality: PreviewStore.quality, resizeMode: .fast)
                } catch {
                    throw original.naming(error)
                }
            }
            try store.store(preview.data, for: job.source.version)
            return nil
        } catch {
            return ScanFailure(path: job.source.original.relativePath, reason: "no preview: \(error)")
        }
    }
}
