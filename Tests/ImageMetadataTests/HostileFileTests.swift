import Foundation
import ImageMetadata
import Testing
import TestSupport

/// The D_hostile files: every one is handled quickly without a crash, and the known traps
/// (loops, absurd counts, impossible dates, damaged IFDs) give the documented results.
struct HostileFileTests {
    static let files = Corpus.manifest(inFolder: "D_hostile")
    /// 2026-11-22 00:00:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_305_600)

    static func metadata(of name: String) throws -> ExifMetadata {
        let jpeg = try Data(contentsOf: Corpus.root.appendingPathComponent("D_hostile/" + name))
        let segment = try #require(try JPEGExifLocator.locate(in: jpeg))
        return try ExifReader.parse(segment.tiff)
    }

    @Test func corpusIsPresent() {
        #expect(Corpus.problem == nil, "\(Corpus.problem ?? "")")
        #expect(Self.files.count >= 20, "the D_hostile files of the corpus at \(Corpus.root.path)")
    }

    /// A runaway is work that does not end: the reads run on a thread of their own with no
    /// suspension, so that thread's CPU time (which a busy machine does not inflate) measures
    /// them. They take microseconds; a second of CPU can only be a loop.
    @Test(arguments: files)
    func finishesQuicklyWithoutCrashing(_ entry: ManifestEntry) async throws {
        let cpuSeconds = try await offCooperativePool {
            try ThreadCPUTime.measure {
                let data = try Data(contentsOf: entry.url)
                if let thumbnail = try EmbeddedThumbnail.extract(fromJPEGAt: entry.url) {
                    #expect(thumbnail.prefix(2) == Data([0xFF, 0xD8]))
                }
                // Both throw typed errors only: JPEGStructureError and ExifError.
                switch Result(catching: { () throws(JPEGStructureError) in try JPEGExifLocator.locate(in: data) }) {
                case let .success(segment?):
                    #expect(segment.segmentRange.upperBound <= data.count)
                    checkParse(segment.tiff)
                case .success(nil):
                    break
                case let .failure(error):
                    #expect(!error.description.isEmpty)
                }
                checkParse(data)
            }.seconds
        }
        #expect(cpuSeconds < 1, "\(entry.file) took \(cpuSeconds) s of CPU")
    }

    /// Parses `block`; whatever the outcome, it must be consistent with the block.
    private func checkParse(_ block: Data) {
        switch Result(catching: { () throws(ExifError) in try ExifReader.parse(block) }) {
        case let .success(metadata):
            #expect(metadata.thumbnail.map { $0.upperBound <= block.count } ?? true)
            #expect(metadata.orientation.map { (1...8).contains($0) } ?? true)
        case let .failure(error):
            #expect(!error.description.isEmpty)
        }
    }

    @Test func ifdLoopsTerminateAndKeepTheFieldsRead() throws {
        let loop = try Self.metadata(of: "goexif__infinite_loop_exif.jpg")
        #expect(loop.orientation == 1)
        #expect(loop.pixelXDimension == 699)

        let tiff = try Data(contentsOf: Corpus.root.appendingPathComponent("D_hostile/libtiff__test_ifd_loop_to_self.tif"))
        let selfLoop = try ExifReader.parse(tiff)
        #expect(selfLoop.byteOrder == .littleEndian)
        #expect(selfLoop.orientation == 1)
    }

    @Test func datesAfterNowAreRecognised() throws {
        let nearFuture = try #require(try Self.metadata(of: "goexif__2099-08-12-19-59-29-sep-2099-08-12-19-59-29a.jpg").dateTimeOriginal)
        #expect(nearFuture.year == 2099)
        #expect(nearFuture.isInFuture(relativeTo: Self.now.addingTimeInterval(86_400)))

        let badYear = try Self.metadata(of: "jhead__badyear.jpg")
        #expect(badYear.dateTimeOriginal == nil, "2106 is outside ExifDateTime.plausibleYears")
        #expect(badYear.make == "Canon")

        let past = try #require(try Self.metadata(of: "goexif__2007-01-01-12-00-00-sep-2007-01-01-12-00-00a.jpg").dateTimeOriginal)
        #expect(!past.isInFuture(relativeTo: Self.now))
    }

    @Test func nonExifDateFormatGivesNilButKeepsTheRest() throws {
        let verizon = try Self.metadata(of: "jhead__verizon.jpg")
        #expect(verizon.dateTimeOriginal == nil)
        #expect(verizon.make == "LG Electronics")
        #expect(verizon.model == "VX-9700")
        let url = Corpus.root.appendingPathComponent("D_hostile/jhead__verizon.jpg")
        #expect(try EmbeddedThumbnail.extract(fromJPEGAt: url)?.count == 6976)
    }

    @Test func absurdTagCountIsSkipped() throws {
        let metadata = try Self.metadata(of: "jhead__crashes-safari.jpg")
        #expect(metadata.byteOrder == .littleEndian)
        #expect(metadata.make == nil)
    }

    @Test(arguments: ["jhead__gps-corrupted-dir.jpg", "jhead__poc3.jpg"])
    func corruptedGPSDirectoryLeavesTheOtherFields(_ name: String) throws {
        let entry = try #require(Self.files.first { $0.file == "D_hostile/" + name })
        let metadata = try Self.metadata(of: name)
        #expect(metadata.gps == nil)
        #expect(metadata.make == entry.exif["Make"])
        #expect(metadata.model == entry.exif["Model"])
        #expect(metadata.dateTimeOriginal?.exifString == entry.exif["DateTimeOriginal"])
    }

    @Test func truncatedExifSegmentIsReported() throws {
        let jpeg = try Data(contentsOf: Corpus.root.appendingPathComponent("D_hostile/jhead__truncated.jpg"))
        #expect(throws: JPEGStructureError.truncatedSegment(marker: 0xE1, offset: 2, end: 48_554, available: 20_996)) {
            try JPEGExifLocator.locate(in: jpeg)
        }
    }

    @Test func segmentWithoutTIFFHeaderThrowsExifError() throws {
        let jpeg = try Data(contentsOf: Corpus.root.appendingPathComponent("D_hostile/pillow__invalid-exif.jpg"))
        let segment = try #require(try JPEGExifLocator.locate(in: jpeg))
        #expect(throws: ExifError.self) { try ExifReader.parse(segment.tiff) }
    }
}
