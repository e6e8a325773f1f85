import Foundation
import ImageMetadata
import ImagePipeline
import Testing
import TestSupport

/// A JPEG handed over without its location is rebuilt from what it must keep: nothing of the
/// place survives, however it was hidden, and the first image comes out whole.
@Suite struct LocationFreeJPEGTests {
    static let cameraPhotos = Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }

    /// What exiftool may find in a rebuilt file: the file itself, JFIF, the allowed EXIF, the
    /// ICC profile, Adobe's colour transform, and what exiftool computes from them.
    static let allowedGroups: Set<String> = ["ExifTool", "System", "File", "JFIF", "IFD0", "ExifIFD", "Composite", "Adobe"]
    /// The EXIF fields exiftool may find in a rebuilt file, by exiftool's names.
    static let allowedFields: Set<String> = [
        "IFD0:Orientation", "IFD0:Make", "IFD0:Model", "IFD0:ModifyDate", "IFD0:XResolution", "IFD0:YResolution", "IFD0:ResolutionUnit",
        "ExifIFD:ExifVersion", "ExifIFD:DateTimeOriginal", "ExifIFD:CreateDate", "ExifIFD:OffsetTime", "ExifIFD:OffsetTimeOriginal",
        "ExifIFD:OffsetTimeDigitized", "ExifIFD:SubSecTime", "ExifIFD:SubSecTimeOriginal", "ExifIFD:SubSecTimeDigitized",
        "ExifIFD:LensMake", "ExifIFD:LensModel", "ExifIFD:ExposureTime", "ExifIFD:FNumber", "ExifIFD:ISO", "ExifIFD:FocalLength",
        "ExifIFD:FocalLengthIn35mmFormat", "ExifIFD:ExposureCompensation", "ExifIFD:Flash", "ExifIFD:WhiteBalance",
        "ExifIFD:MeteringMode", "ExifIFD:ExposureProgram", "ExifIFD:ExifImageWidth", "ExifIFD:ExifImageHeight", "ExifIFD:ColorSpace",
    ]

    @Test("nothing of a planted place survives, and the first image comes out whole", arguments: PlantedPlace.allCases)
    func nothingOfThePlaceSurvives(_ place: PlantedPlace) async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let planted = try await place.make(in: folder)
        let source = folder.appendingPathComponent("source.jpg")
        try planted.data.write(to: source)
        for text in planted.texts {
            #expect(planted.data.range(of: Data(text.utf8)) != nil, "\(text) was not planted")
        }

        let (rebuilt, header) = try Self.rebuilt(planted.data)
        let output = folder.appendingPathComponent("rebuilt.jpg")
        try rebuilt.write(to: output)
        let tags = try await ExifTool.tags(of: output)
        #expect(PlantedPlace.placeKeys(in: tags).isEmpty, "\(PlantedPlace.placeKeys(in: tags))")
        #expect(Self.keysOutsideTheAllowList(tags).isEmpty, "\(Self.keysOutsideTheAllowList(tags))")
        for text in planted.texts {
            #expect(rebuilt.range(of: Data(text.utf8)) == nil, "\(text) survived")
        }
        for (key, value) in PlantedPlace.keptFromBase {
            #expect(tags[key] == value, "\(key)")
        }

        // Exactly the first image's scans, from the first SOS to the first EOI, less any segment between scans.
        var firstImage = planted.data[header.firstScanOffset..<planted.firstImageEnd]
        if let dropped = planted.droppedBetweenScans { firstImage.removeSubrange(dropped) }
        #expect(rebuilt.dropFirst(header.header.count) == firstImage)
        #expect(rebuilt.suffix(2) == Data([0xFF, 0xD9]))
        // It decodes, strictly, to the first image's very pixels.
        let renderer = ImageRenderer()
        let expected = try renderer.pixels(of: planted.data.prefix(planted.firstImageEnd), name: "source")
        let pixels = try renderer.pixels(of: rebuilt, name: "rebuilt")
        #expect(pixels.width == expected.width && pixels.height == expected.height && pixels.bytes == expected.bytes)
    }

    @Test("a camera photo keeps its allowed EXIF, its colours and its pixels", arguments: cameraPhotos)
    func aCameraPhotoKeepsWhatItMust(_ file: URL) async throws {
        let original = try Data(contentsOf: file)
        let (rebuilt, header) = try Self.rebuilt(original)
        let before = try ExifReader.parse(try #require(try JPEGExifLocator.locate(in: original)).tiff)
        let after = try ExifReader.parse(try #require(try JPEGExifLocator.locate(in: rebuilt)).tiff)
        #expect(after.gps == nil && after.thumbnail == nil)
        #expect(after.make == before.make && after.model == before.model && after.orientation == before.orientation)
        #expect(after.dateTimeOriginal == before.dateTimeOriginal && after.offsetTimeOriginal == before.offsetTimeOriginal)
        #expect(after.exposureTime == before.exposureTime && after.fNumber == before.fNumber)
        #expect(after.isoSpeed == before.isoSpeed && after.focalLength == before.focalLength)
        #expect(after.pixelXDimension == before.pixelXDimension && after.pixelYDimension == before.pixelYDimension)

        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (source, output) = (folder.appendingPathComponent("source.jpg"), folder.appendingPathComponent("rebuilt.jpg"))
        try original.write(to: source)
        try rebuilt.write(to: output)
        let (tagsBefore, tagsAfter) = (try await ExifTool.tags(of: source), try await ExifTool.tags(of: output))
        #expect(PlantedPlace.placeKeys(in: tagsAfter).isEmpty && Self.keysOutsideTheAllowList(tagsAfter).isEmpty,
                "\(PlantedPlace.placeKeys(in: tagsAfter)) \(Self.keysOutsideTheAllowList(tagsAfter))")
        for key in ["ICC_Profile:ProfileDescription", "Adobe:ColorTransform", "JFIF:JFIFVersion", "ExifIFD:LensModel", "ExifIFD:Flash"] {
            #expect(tagsAfter[key] == tagsBefore[key], "\(key)")
        }
        #expect(rebuilt.dropFirst(header.header.count) == original[header.firstScanOffset..<(header.firstScanOffset + rebuilt.count - header.header.count)])
        #expect(rebuilt.suffix(2) == Data([0xFF, 0xD9]))
        let renderer = ImageRenderer()
        #expect(try renderer.pixels(of: rebuilt, name: "rebuilt").bytes == (try renderer.pixels(of: original, name: "original").bytes))
    }

    @Test func aCameraMPOComesAsItsFirstImageAlone() async throws {
        let file = Corpus.file("E_formats/pillow__sugarshack.mpo")
        let mpo = try Data(contentsOf: file)
        let firstImageLength = try #require(try await ExifTool.tags(of: file)["MPImage1:MPImageLength"].flatMap { Int($0) })
        #expect(firstImageLength < mpo.count)
        let (rebuilt, header) = try Self.rebuilt(mpo)
        #expect(rebuilt.dropFirst(header.header.count) == mpo[header.firstScanOffset..<firstImageLength])
        #expect(rebuilt.range(of: Data("MPF".utf8) + Data([0])) == nil)
        let renderer = ImageRenderer()
        #expect(try renderer.pixels(of: rebuilt, name: "rebuilt").bytes == (try renderer.pixels(of: mpo.prefix(firstImageLength), name: "first").bytes))
    }

    @Test("the header is the same from any prefix that holds it, and a shorter one asks for more", arguments: cameraPhotos)
    func anyPrefixHoldingTheHeaderGivesTheSameHeader(_ file: URL) throws {
        let original = try Data(contentsOf: file)
        let whole = try #require(try LocationFreeJPEG.header(in: original))
        let end = whole.firstScanOffset + 2
        for length in [end, end + 1, original.count / 2 + end / 2] {
            #expect(try LocationFreeJPEG.header(in: original.prefix(length)) == whole, "\(length)")
        }
        for length in [0, 1, 2, whole.firstScanOffset / 2, whole.firstScanOffset, end - 1] {
            #expect(try LocationFreeJPEG.header(in: original.prefix(length)) == nil, "\(length)")
        }
    }

    @Test("the scans are walked the same in chunks of any size", arguments: [1, 2, 3, 7, 4096])
    func chunksOfAnySizeWalkTheSame(_ size: Int) throws {
        for file in Self.cameraPhotos {
            let original = try Data(contentsOf: file)
            let header = try #require(try LocationFreeJPEG.header(in: original))
            var whole = JPEGScanWalker(firstScanOffset: Int64(header.firstScanOffset))
            #expect(try Self.walk(&whole, original[header.firstScanOffset...]))
            var chunked = JPEGScanWalker(firstScanOffset: Int64(header.firstScanOffset))
            var start = header.firstScanOffset
            while start < original.count, try !Self.walk(&chunked, original[start..<min(start + size, original.count)]) { start += size }
            #expect(try chunked.rangesToSend() == whole.rangesToSend(), "\(file.lastPathComponent)")
        }
    }

    @Test("settled as they come, in chunks of any size, the ranges are the whole walk's; no byte is given before its fate is known",
          arguments: [1, 3, 7, 4096])
    func rangesSettledAsTheyComeAreTheWholeWalks(_ size: Int) throws {
        let table: [UInt8] = [0xFF, 0xC4, 0x00, 0x06, 0xFF, 0xD9, 0xFF, 0xD9]
        let comment: [UInt8] = [0xFF, 0xFE, 0x00, 0x07] + Array("Paris".utf8)
        let synthetic = Data(Self.scanHeader + [0x11, 0xFF, 0x00, 0x22] + table + comment + Self.scanHeader + [0x33, 0xFF, 0xD9, 0x47])
        let photos = try Self.cameraPhotos.map { file -> (Data, Int) in
            let original = try Data(contentsOf: file)
            return (original, try #require(try LocationFreeJPEG.header(in: original)).firstScanOffset)
        }
        for (original, firstScan) in photos + [(synthetic, 0)] {
            var whole = JPEGScanWalker(firstScanOffset: Int64(firstScan))
            #expect(try Self.walk(&whole, original[firstScan...]))
            var streamed = JPEGScanWalker(firstScanOffset: Int64(firstScan))
            var settled: [Range<Int64>] = []
            var start = firstScan
            while start < original.count, !streamed.isFinished {
                _ = try Self.walk(&streamed, original[start..<min(start + size, original.count)])
                start += size
                let taken = streamed.takeSettledRanges()
                #expect(taken.allSatisfy { $0.upperBound <= streamed.settledOffset || streamed.isFinished })
                settled += taken
            }
            // Adjacent pieces of one kept range, joined, are the whole walk's ranges.
            let joined = settled.reduce(into: [Range<Int64>]()) { ranges, range in
                if let last = ranges.last, last.upperBound == range.lowerBound {
                    ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
                } else {
                    ranges.append(range)
                }
            }
            #expect(try joined == whole.rangesToSend(), "chunks of \(size)")
        }
    }

    /// A scan of one component and its data, as a walk starts it.
    static let scanHeader: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]

    @Test func stuffedBytesRestartsAndFillAreDataAndTheFirstEOIEndsTheImage() throws {
        let image = Self.scanHeader + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF, 0xD9]
        var walker = JPEGScanWalker(firstScanOffset: 100)
        #expect(try Self.walk(&walker, Data(image + [0xFF, 0xD8, 0xFF, 0xD9, 0x47, 0x50, 0x53])))
        #expect(try walker.rangesToSend() == [100..<Int64(100 + image.count)])
    }

    @Test func segmentsBetweenScansAreKeptOrDroppedWhole() throws {
        // A DHT whose payload holds FF D9 (not an EOI there), a comment and an APP1, then a second scan.
        let table: [UInt8] = [0xFF, 0xC4, 0x00, 0x06, 0xFF, 0xD9, 0xFF, 0xD9]
        let comment: [UInt8] = [0xFF, 0xFE, 0x00, 0x07] + Array("Paris".utf8)
        let app1: [UInt8] = [0xFF, 0xFF, 0xE1, 0x00, 0x04, 0xFF, 0xD9]
        let first = Self.scanHeader + [0x11, 0x22] + table
        let second = Self.scanHeader + [0x33, 0xFF, 0xD9]
        var walker = JPEGScanWalker(firstScanOffset: 0)
        #expect(try Self.walk(&walker, Data(first + comment + app1 + second)))
        let start = Int64(first.count + comment.count + app1.count)
        #expect(try walker.rangesToSend() == [0..<Int64(first.count), start..<(start + Int64(second.count))])
    }

    @Test func aFileThatEndsBeforeItsEOIOrHasAMarkerOutOfPlaceIsRefused() throws {
        var truncated = JPEGScanWalker(firstScanOffset: 0)
        #expect(try !Self.walk(&truncated, Data(Self.scanHeader + [0x12, 0xFF, 0x00])))
        #expect(throws: JPEGRebuildError.missingEndOfImage(offset: Int64(Self.scanHeader.count + 3))) { try truncated.rangesToSend() }
        var frameAfterScan = JPEGScanWalker(firstScanOffset: 0)
        #expect(throws: JPEGRebuildError.unexpectedMarker(marker: 0xC0, offset: 11)) {
            try Self.walk(&frameAfterScan, Data(Self.scanHeader + [0x12, 0xFF, 0xC0, 0x00, 0x02]))
        }
        var manyComments = JPEGScanWalker(firstScanOffset: 0)
        let comments = (0...JPEGScanWalker.maximumDroppedSegments).flatMap { _ in [0xFF, 0xFE, 0x00, 0x02] as [UInt8] }
        #expect(throws: JPEGRebuildError.tooManyDroppedSegments(limit: JPEGScanWalker.maximumDroppedSegments)) {
            try Self.walk(&manyComments, Data(Self.scanHeader + [0x12] + comments))
        }
    }

    @Test func aHeaderThatCannotBeRebuiltIsRefused() throws {
        #expect(throws: JPEGRebuildError.notJPEG) { try LocationFreeJPEG.header(in: Data("GIF89a".utf8)) }
        #expect(throws: JPEGRebuildError.unexpectedMarker(marker: 0xDA, offset: 2)) {
            try LocationFreeJPEG.header(in: Data([0xFF, 0xD8] + Self.scanHeader))
        }
        #expect(throws: JPEGRebuildError.invalidSegmentLength(marker: 0xE1, offset: 2)) {
            try LocationFreeJPEG.header(in: Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01, 0x00]))
        }
        #expect(throws: JPEGRebuildError.missingMarker(offset: 2, byte: 0x47)) { try LocationFreeJPEG.header(in: Data([0xFF, 0xD8, 0x47, 0x49])) }
    }

    @Test func anICCProfileInChunksOutOfOrderIsKeptInOrderAndABrokenSequenceIsDropped() async throws {
        let original = [UInt8](try Data(contentsOf: Corpus.file(PlantedPlace.baseName)))
        // The base photo's profile is one chunk: split it in two, and store them second first.
        let chunkStart = try #require(original.indices.first { original[$0] == 0xFF && original[$0 + 1] == 0xE2 && original[($0 + 4)..<($0 + 16)].elementsEqual(ICCSignature.bytes) })
        let chunkEnd = chunkStart + 2 + (Int(original[chunkStart + 2]) << 8 | Int(original[chunkStart + 3]))
        let profile = original[(chunkStart + 18)..<chunkEnd]
        let half = profile.startIndex + profile.count / 2
        func chunk(_ sequence: UInt8, of count: UInt8, _ data: ArraySlice<UInt8>) -> [UInt8] {
            [0xFF, 0xE2, UInt8((data.count + 16) >> 8), UInt8((data.count + 16) & 0xFF)] + ICCSignature.bytes + [sequence, count] + data
        }
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(chunks: [UInt8], keepsProfile: Bool)] = [
            (chunk(2, of: 2, profile[half...]) + chunk(1, of: 2, profile[..<half]), true),
            (chunk(1, of: 2, profile[half...]) + chunk(1, of: 2, profile[..<half]), false),
            (chunk(1, of: 2, profile[..<half]), false),
        ]
        for (index, (chunks, keepsProfile)) in cases.enumerated() {
            let source = Data(original[..<chunkStart] + chunks + original[chunkEnd...])
            let (rebuilt, _) = try Self.rebuilt(source)
            let output = folder.appendingPathComponent("\(index).jpg")
            try rebuilt.write(to: output)
            let description = try await ExifTool.tags(of: output)["ICC_Profile:ProfileDescription"]
            #expect(description == (keepsProfile ? "sRGB IEC61966-2.1" : nil), "case \(index)")
            if keepsProfile {
                #expect(rebuilt.range(of: Data(chunk(1, of: 2, profile[..<half]) + chunk(2, of: 2, profile[half...]))) != nil)
            } else {
                #expect(rebuilt.range(of: Data(ICCSignature.bytes)) == nil, "case \(index)")
            }
        }
    }

    // MARK: Helpers

    private enum ICCSignature {
        static let bytes: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("location-free-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The whole rebuilt file: the header, then the ranges of `jpeg` the walk keeps.
    static func rebuilt(_ jpeg: Data) throws -> (Data, LocationFreeJPEG) {
        let header = try #require(try LocationFreeJPEG.header(in: jpeg))
        var walker = JPEGScanWalker(firstScanOffset: Int64(header.firstScanOffset))
        _ = try walk(&walker, jpeg[header.firstScanOffset...])
        let body = try walker.rangesToSend().map { jpeg[(jpeg.startIndex + Int($0.lowerBound))..<(jpeg.startIndex + Int($0.upperBound))] }
        return (body.reduce(header.header, +), header)
    }

    @discardableResult
    static func walk(_ walker: inout JPEGScanWalker, _ bytes: Data) throws -> Bool {
        try bytes.withUnsafeBytes { try walker.consume($0) }
    }

    /// Keys outside the groups and EXIF fields a rebuilt file may hold.
    static func keysOutsideTheAllowList(_ tags: [String: String]) -> [String] {
        tags.keys.filter { key in
            guard key != "SourceFile" else { return false }
            let group = String(key.prefix { $0 != ":" })
            if group.hasPrefix("ICC") { return false }
            if group == "IFD0" || group == "ExifIFD" { return !allowedFields.contains(key) }
            return !allowedGroups.contains(group) || key == "File:Comment"
        }.sorted()
    }
}
