import Foundation
import ImageMetadata
@testable import PickerServer
import Testing
import TestSupport

/// A JPEG's scans passed on as they arrive (`=d` of an original not here): in chunks of any size,
/// the bytes sent are those the whole file's walk keeps.
@Suite struct ArrivingScansTests {
    static let cameraPhotos = Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }

    @Test("chunks of any size send the bytes the whole walk keeps, and nothing after the first image", arguments: [1, 2, 5, 4096, 262_144])
    func chunksOfAnySizeSendWhatTheWholeWalkKeeps(_ size: Int) throws {
        for file in Self.cameraPhotos {
            let original = try Data(contentsOf: file)
            let header = try #require(try LocationFreeJPEG.header(in: original))
            var whole = JPEGScanWalker(firstScanOffset: Int64(header.firstScanOffset))
            _ = try original[header.firstScanOffset...].withUnsafeBytes { try whole.consume($0) }
            let expected = try whole.rangesToSend().reduce(into: Data()) { $0 += original[Int($1.lowerBound)..<Int($1.upperBound)] }

            var scans = ArrivingScans(firstScanOffset: Int64(header.firstScanOffset))
            var sent = Data()
            var start = header.firstScanOffset
            while start < original.count, !scans.isFinished {
                for part in try scans.feed(original[start..<min(start + size, original.count)]) { sent += part }
                start += size
            }
            #expect(scans.isFinished && sent == expected, "\(file.lastPathComponent) in chunks of \(size)")
        }
    }
}
