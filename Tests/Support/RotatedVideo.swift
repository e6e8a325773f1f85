import Foundation
import ProcessRunning

/// A one-second 320x240 clip whose display matrix turns it 90° clockwise, as a phone held
/// upright records it (testsrc2's frames: the leftmost bar is red).
public enum RotatedVideo {
    /// Why the clip could not be made: FFmpeg's error output.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Makes the clip in a new temporary folder and returns its URL.
    public static func make() async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rotated-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let plain = folder.appendingPathComponent("plain.mp4"), rotated = folder.appendingPathComponent("rotated.mp4")
        let encode = try await ToolRunner.fixture(.ffmpeg, arguments: [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-t", "1",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", plain.path,
        ])
        guard encode.succeeded else { throw Failure(description: encode.standardError) }
        // FFmpeg 5.1 only turns the `rotate` tag into a display matrix when stream-copying, and
        // reads it counter-clockwise: rotate=270 gives ffprobe's `rotation: -90`, i.e. 90° clockwise.
        let tag = try await ToolRunner.fixture(.ffmpeg, arguments: [
            "-nostdin", "-loglevel", "error", "-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=270", rotated.path,
        ])
        guard tag.succeeded else { throw Failure(description: tag.standardError) }
        return rotated
    }
}
