/// A library that keeps an index of its storage, brought in line by scans.
///
/// Ask a library for it through ``PhotoLibrary/indexing``; a library that reads its storage
/// afresh on every fetch (a folder library) answers `nil`.
public protocol LibraryIndexing: Sendable {
    /// Brings the index in line with the storage: adopts new files, re-reads changed ones,
    /// follows moved ones, removes those gone. Files that cannot be read are failures with
    /// reasons; they do not stop the scan.
    /// - Parameter progress: Called as files are found and dealt with, for a progress bar.
    @discardableResult
    func scan(progress: (@Sendable (ScanProgress) -> Void)?) async throws -> ScanSummary
    /// Whether a scan of the whole storage has ever finished on this index (a first scan that
    /// was interrupted leaves an index that exists but is incomplete).
    func hasCompletedScan() async throws -> Bool
}
