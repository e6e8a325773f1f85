import AssetsKit
import Foundation

/// What an export did, asset by asset.
public struct ExportReport: Sendable, Codable {
    /// One exported asset.
    public struct Item: Sendable, Codable, Hashable {
        public var id: String
        public var file: String
        public var byteSize: Int64
        public var pixelWidth: Int?
        public var pixelHeight: Int?
    }

    /// One asset that could not be exported, and why.
    public struct Failure: Error, Sendable, Codable, Hashable {
        public var id: String
        public var reason: String
    }

    public var exported: [Item] = []
    public var failed: [Failure] = []
    /// The originals' total size, from metadata (nothing was read to know it).
    public var originalBytes: Int64 = 0
    public var seconds: Double = 0
}

/// How far an export has come, for progress bars.
public struct ExportProgress: Sendable {
    public var completed: Int
    public var failed: Int
    public var total: Int
    /// The original being fetched now, when the library keeps originals elsewhere (a bucket)
    /// and this one is not on this machine yet; `nil` otherwise.
    public var fetching: OriginalTransfer?
    /// The bytes of originals fetched so far by this export, the one under way included.
    public var fetchedBytes: Int64 = 0

    /// One original being fetched: its file name and how far it is.
    public struct OriginalTransfer: Sendable, Hashable {
        /// The original's file name.
        public var filename: String
        /// Bytes received of its size.
        public var progress: TransferProgress
    }
}
