import AssetsKit
import Foundation
import ImagePipeline
import ProcessRunning

/// Reads a video's facts with `ffprobe`.
public enum VideoProbe {
    /// How long `ffprobe` may take before it is stopped.
    public static let timeout: Duration = .seconds(20)

    /// Describes the video at `url`: the first video stream that is not cover art, and the
    /// container around it.
    ///
    /// Still images (JPEG, PNG, GIF, WebP, TIFF, AVIF, ...), which FFmpeg also opens as
    /// one-frame video, are refused with ``VideoError/noVideoStream(file:)``: they belong to the
    /// image pipeline.
    ///
    /// - Throws: ``VideoError`` when the file is missing, not media, or has no video stream;
    ///   ``ToolError`` when `ffprobe` is missing or times out.
    public static func probe(_ url: URL) async throws -> VideoInfo {
        guard FileManager.default.fileExists(atPath: url.path) else { throw VideoError.fileNotFound(file: url) }
        let output = try await ToolRunner.run(.ffprobe, arguments: [
            // `file:` keeps a name with a colon or a leading dash from being read as anything else.
            "-v", "error", "-print_format", "json", "-show_format", "-show_streams", "file:" + url.path,
        ], timeout: timeout)
        guard output.succeeded,
              let report = try? JSONDecoder().decode(ProbeReport.self, from: output.standardOutput),
              let format = report.format else {
            throw VideoError.unreadable(file: url, reason: briefReason(output.standardError))
        }
        guard !format.isStillImage, let stream = report.streams?.first(where: { $0.isVideo }),
              let width = stream.width, let height = stream.height, width > 0, height > 0 else {
            throw VideoError.noVideoStream(file: url)
        }
        return VideoInfo(
            duration: (format.duration.flatMap(Double.init) ?? stream.duration.flatMap(Double.init)).flatMap { $0 > 0 ? $0 : nil },
            codedSize: PixelSize(width: width, height: height),
            rotation: stream.clockwiseRotation,
            creationDate: creationDate(format.tags?["creation_time"]) ?? creationDate(stream.tags?["creation_time"]),
            codecName: stream.codecName ?? "unknown",
            frameCount: stream.frameCount.flatMap { Int($0) },
            formatName: format.formatName ?? "unknown",
            framesPerSecond: frameRate(stream.averageFrameRate) ?? frameRate(stream.baseFrameRate))
    }

    /// The last non-empty line of a tool's error output, which is where FFmpeg puts the cause.
    static func briefReason(_ standardError: String) -> String {
        let line = standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "no details from ffprobe" : String(trimmed.prefix(300))
    }

    /// A frame rate as FFmpeg prints it (`30000/1001`, `25/1`, or `0/0` when unknown); `nil`
    /// unless it is a positive number of at most 10,000 frames a second.
    static func frameRate(_ text: String?) -> Double? {
        guard let parts = text?.split(separator: "/"), parts.count == 2,
              let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0 else { return nil }
        let rate = numerator / denominator
        return rate > 0 && rate <= 10_000 ? rate : nil
    }

    /// Parses a creation time as FFmpeg prints it (`2020-03-18T18:27:35.000000Z`, or older
    /// `2013-01-06 04:42:01`), refusing the zero dates of the QuickTime and Unix epochs.
    static func creationDate(_ text: String?) -> Date? {
        guard var text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        text = text.replacingOccurrences(of: " ", with: "T")
        if let fraction = text.range(of: #"\.\d+"#, options: .regularExpression) {
            text.removeSubrange(fraction)
        }
        if text.range(of: #"(Z|[+-]\d\d:?\d\d)$"#, options: .regularExpression) == nil { text += "Z" }
        guard let date = ISO8601.date(from: text) else { return nil }
        // Anything before 1971 is an unset field (1904-01-01, 1970-01-01), not a recording.
        return date.timeIntervalSince1970 >= 365 * 86_400 ? date : nil
    }
}

/// The parts of `ffprobe -print_format json -show_format -show_streams` the probe reads.
private struct ProbeReport: Decodable {
    struct Format: Decodable {
        var formatName: String?
        var duration: String?
        var tags: [String: String]?

        enum CodingKeys: String, CodingKey {
            case formatName = "format_name", duration, tags
        }

        /// Whether FFmpeg opened the file with an image demuxer rather than a video container.
        var isStillImage: Bool {
            let name = formatName ?? ""
            let imageBrands: Set<String> = ["avif", "mif1", "msf1", "heic", "heix"]
            return name == "image2" || name.hasSuffix("_pipe") || name == "apng" || name == "gif"
                || imageBrands.contains(tags?["major_brand"] ?? "")
        }
    }

    struct Stream: Decodable {
        struct SideData: Decodable {
            var sideDataType: String?
            var rotation: Double?

            enum CodingKeys: String, CodingKey {
                case sideDataType = "side_data_type", rotation
            }
        }

        var codecType: String?
        var codecName: String?
        var width: Int?
        var height: Int?
        var duration: String?
        var frameCount: String?
        var averageFrameRate: String?
        var baseFrameRate: String?
        var disposition: [String: Int]?
        var tags: [String: String]?
        var sideDataList: [SideData]?

        enum CodingKeys: String, CodingKey {
            case codecType = "codec_type", codecName = "codec_name", width, height, duration
            case frameCount = "nb_frames", averageFrameRate = "avg_frame_rate", baseFrameRate = "r_frame_rate", disposition, tags, sideDataList = "side_data_list"
        }

        /// A real video stream, not an attached picture (cover art is stored as a video stream).
        var isVideo: Bool { codecType == "video" && disposition?["attached_pic"] != 1 }

        /// The display rotation, clockwise, in quarter turns as degrees.
        ///
        /// FFmpeg's display matrix `rotation` counts counter-clockwise (-90: shown turned 90°
        /// clockwise); the older `rotate` tag counts clockwise.
        var clockwiseRotation: Int {
            let degrees: Double
            if let matrix = sideDataList?.first(where: { $0.sideDataType == "Display Matrix" })?.rotation {
                degrees = -matrix
            } else if let tag = tags?["rotate"].flatMap(Double.init) {
                degrees = tag
            } else {
                return 0
            }
            let quarterTurns = Int((degrees / 90).rounded())
            return ((quarterTurns % 4) + 4) % 4 * 90
        }
    }

    var format: Format?
    var streams: [Stream]?
}
