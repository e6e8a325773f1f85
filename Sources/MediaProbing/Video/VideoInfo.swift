import AssetsKit
import Foundation

/// What a video file says about itself: length, frame size, rotation, and when it was made.
public struct VideoInfo: Sendable, Hashable {
    /// Length in seconds: the container's, else the video stream's; `nil` when neither is known.
    public var duration: Double?
    /// The size of the encoded frames, before rotation.
    public var codedSize: PixelSize
    /// How far the frames are turned clockwise for display: 0, 90, 180 or 270.
    /// A phone held upright records landscape frames with a rotation of 90.
    public var rotation: Int
    /// When the video was recorded, from the container's or the stream's creation time;
    /// `nil` when it records none, or only a placeholder such as the 1904 or 1970 epoch.
    public var creationDate: Date?
    /// FFmpeg's name for the video codec, e.g. `h264`, `hevc`.
    public var codecName: String
    /// The number of video frames, when the container records it.
    public var frameCount: Int?
    /// Frames per second: the stream's average frame rate, else its base rate (`avg_frame_rate`,
    /// `r_frame_rate`); `nil` when neither is a positive number (a still stream, a damaged file).
    public var framesPerSecond: Double?
    /// FFmpeg's name for the container format, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`.
    public var formatName: String

    /// Creates a video description.
    public init(duration: Double?, codedSize: PixelSize, rotation: Int, creationDate: Date?,
                codecName: String, frameCount: Int?, formatName: String, framesPerSecond: Double? = nil) {
        self.duration = duration
        self.codedSize = codedSize
        self.rotation = rotation
        self.creationDate = creationDate
        self.codecName = codecName
        self.frameCount = frameCount
        self.formatName = formatName
        self.framesPerSecond = framesPerSecond
    }

    /// The size as displayed: ``codedSize`` with a quarter turn applied, so a portrait video is
    /// taller than wide.
    public var uprightSize: PixelSize {
        rotation == 90 || rotation == 270 ? codedSize.transposed : codedSize
    }
}
