import AssetsKit
import Foundation
import ImageMetadata
import ImagePipeline

/// What a picked item's file says that the library does not index: a photo's exposure (focal
/// length, aperture, ISO and exposure time, from its EXIF) and a video's frame rate.
///
/// A photo's are read when a page of picks is listed (at most ``MediaItemRoutes/maximumPageSize``
/// files, a few at a time), from each file's header only: the bytes before a JPEG's first scan,
/// libvips' header read for other photos (a PNG's EXIF chunk, a HEIC's EXIF item). A video's
/// frame rate is the asset's (``AssetsKit/Asset/framesPerSecond``, from the one `ffprobe` run
/// that read the video into the library), so no video is probed again. A value the file lacks,
/// or a photo that cannot be read, is left out, as Google's Picker API leaves out what it does
/// not know; so is a photo whose original is kept elsewhere and not on this machine now: a
/// listing never waits for the network (the client fetches the original itself, at `=d`).
struct CaptureDetails: Sendable, Equatable {
    var photo: PickedMediaItemResource.PhotoMetadata?
    var video: PickedMediaItemResource.VideoMetadata?

    /// Files read at once while a page is listed.
    static let concurrentReads = 4

    /// The details of each of `assets`, in their order.
    static func read(_ assets: [Asset], library: any PhotoLibrary) async -> [CaptureDetails] {
        await withTaskGroup(of: (Int, CaptureDetails).self) { group in
            var details = [CaptureDetails](repeating: CaptureDetails(), count: assets.count)
            var next = 0
            func startNext() {
                guard next < assets.count else { return }
                let (index, asset) = (next, assets[next])
                group.addTask { (index, await read(asset, library: library)) }
                next += 1
            }
            for _ in 0..<concurrentReads { startNext() }
            while let (index, found) = await group.next() {
                details[index] = found
                startNext()
            }
            return details
        }
    }

    /// The details of `asset`; only its kind's empty metadata when its file cannot be read.
    static func read(_ asset: Asset, library: any PhotoLibrary) async -> CaptureDetails {
        if asset.mediaType == .video {
            return CaptureDetails(video: PickedMediaItemResource.VideoMetadata(fps: asset.framesPerSecond))
        }
        let original = try? await library.originalFile(for: asset, request: OriginalRequest(isNetworkAccessAllowed: false))
        var photo: PickedMediaItemResource.PhotoMetadata?
        if let original { photo = try? await BlockingWork.run(.brief) { exposure(of: original) } }
        return CaptureDetails(photo: photo ?? PickedMediaItemResource.PhotoMetadata())
    }

    /// The exposure an original's EXIF records; `nil` when it has no readable EXIF.
    private static func exposure(of original: OriginalResource) -> PickedMediaItemResource.PhotoMetadata? {
        let block: Data?
        if original.contentType == "image/jpeg", let header = try? JPEGHeader.read(contentsOf: original.file.url) {
            block = header.exif
        } else {
            block = try? ImageRenderer().header(of: original.file.url).exif
        }
        guard let exif = block.flatMap({ try? ExifReader.parse($0) }) else { return nil }
        return PickedMediaItemResource.PhotoMetadata(
            focalLength: exif.focalLength, apertureFNumber: exif.fNumber, isoEquivalent: exif.isoSpeed,
            exposureTime: exif.exposureTime.map { DurationText.string(seconds: $0) })
    }
}
