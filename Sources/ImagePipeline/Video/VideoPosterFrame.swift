import AssetsKit
import Foundation
import ProcessRunning

/// Takes one still frame from a video with `ffmpeg`, to stand for the video in a grid or a
/// preview.
public enum VideoPosterFrame {
    /// How long one `ffmpeg` run may take before it is stopped.
    public static let timeout: Duration = .seconds(20)

    /// Where a frame is taken when the caller does not say: far enough in to skip a black first
    /// frame, near enough that the seek stays short.
    public static let defaultPosition: Double = 1

    /// Decodes one frame of the video at `url`, upright and scaled down to fit `maxSize`.
    ///
    /// The frame is turned as the video's display rotation says, keeps its aspect ratio and is
    /// never enlarged. Without a position the frame comes from ``defaultPosition`` into the
    /// clip. When the position lies past the last frame the first frame is taken instead, so a
    /// clip shorter than that still gets its first frame. Nothing is probed first: the file was
    /// probed as a video when it joined the library (`VideoProbe` in MediaProbing).
    ///
    /// - Parameters:
    ///   - url: The video file.
    ///   - maxSize: The box the frame must fit in; `PixelSize.maximum` keeps the full size.
    ///   - seconds: Where in the clip to take the frame, or `nil` for ``defaultPosition``.
    /// - Returns: The frame as PNG bytes (lossless, so a later resize or re-encode loses nothing).
    /// - Throws: ``VideoError/fileNotFound(file:)`` when there is no file,
    ///   ``VideoError/noFrames(file:)`` when no frame decodes; `ToolError` when FFmpeg is
    ///   missing or times out.
    public static func extract(from url: URL, maxSize: PixelSize, at seconds: Double? = nil) async throws -> Data {
        guard FileManager.default.fileExists(atPath: url.path) else { throw VideoError.fileNotFound(file: url) }
        let position = max(0, seconds ?? defaultPosition)
        let frame = try await decodeFrame(of: url, at: position, maxSize: maxSize)
        if !frame.isEmpty { return frame }
        if position > 0 {
            let first = try await decodeFrame(of: url, at: 0, maxSize: maxSize)
            if !first.isEmpty { return first }
        }
        throw VideoError.noFrames(file: url)
    }

    /// One PNG frame at `position`, or empty data when FFmpeg produced none.
    private static func decodeFrame(of url: URL, at position: Double, maxSize: PixelSize) async throws -> Data {
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error"]
        if position > 0 { arguments += ["-ss", String(format: "%.3f", position)] }
        arguments += [
            "-i", "file:" + url.path,
            // The first real video stream: `V` skips attached cover pictures.
            "-map", "0:V:0", "-an", "-sn", "-dn", "-frames:v", "1",
            "-vf", scaleFilter(fitting: maxSize),
            "-f", "image2pipe", "-vcodec", "png", "-",
        ]
        let output = try await ToolRunner.run(.ffmpeg, arguments: arguments, timeout: timeout)
        let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        return output.standardOutput.starts(with: pngSignature) ? output.standardOutput : Data()
    }

    /// A scale filter that shrinks the (already upright) frame to fit `box`, never enlarging it.
    static func scaleFilter(fitting box: PixelSize) -> String {
        // FFmpeg evaluates sizes as doubles and caps frames far below this anyway.
        let limit = 1 << 16
        let width = min(max(1, box.width), limit), height = min(max(1, box.height), limit)
        return "scale=w='min(iw,\(width))':h='min(ih,\(height))':force_original_aspect_ratio=decrease"
    }
}
