import AssetsKit
import Foundation

/// Reads a media file's metadata. ``MediaMetadataReader`` is the real one; the seam lets a
/// caller count or slow down reads.
public protocol MediaMetadataReading: Sendable {
    func read(_ url: URL, as mediaType: MediaType) async throws -> MediaMetadata
}

extension MediaMetadataReader: MediaMetadataReading {}
