import AssetsKit

/// Which files are photos and videos, by name, and how they are served.
public enum MediaFileType {
    /// Extensions of the still-image formats the pipeline reads.
    public static let photoExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "webp", "heic", "heif", "hif", "avif", "gif", "tif", "tiff", "mpo",
    ]
    /// Extensions of the video containers ffmpeg reads for us.
    public static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "mkv", "3gp", "3g2", "webm", "avi"]

    /// The media type a file of this name holds, or `nil` when it is not a media file.
    public static func mediaType(ofFileNamed name: String) -> MediaType? {
        let ext = fileExtension(of: name)
        if photoExtensions.contains(ext) { return .photo }
        if videoExtensions.contains(ext) { return .video }
        return nil
    }

    /// The MIME type to serve an original file with.
    public static func mimeType(ofFileNamed name: String) -> String {
        switch fileExtension(of: name) {
        case "jpg", "jpeg", "jpe": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "heic", "hif": "image/heic"
        case "heif": "image/heif"
        case "avif": "image/avif"
        case "gif": "image/gif"
        case "tif", "tiff": "image/tiff"
        case "mpo": "image/mpo"
        case "mp4", "m4v": "video/mp4"
        case "mov": "video/quicktime"
        case "mkv": "video/x-matroska"
        case "3gp": "video/3gpp"
        case "3g2": "video/3gpp2"
        case "webm": "video/webm"
        case "avi": "video/x-msvideo"
        default: "application/octet-stream"
        }
    }

    private static func fileExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
