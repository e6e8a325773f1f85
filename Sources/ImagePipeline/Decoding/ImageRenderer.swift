import AssetsKit
import CVipsShim
import Foundation
import ImageMetadata

/// Turns image files into upright, resized, encoded images with libvips.
///
/// Thumbnails use shrink-on-load (a JPEG is decoded at 1/2, 1/4 or 1/8 scale when that still
/// covers the target), EXIF orientation is always applied, and the pixel limit is checked from
/// the header before anything is decoded. Calls block while libvips works; run them off the
/// main actor.
public struct ImageRenderer: Sendable {
    public let configuration: PipelineConfiguration

    public init(configuration: PipelineConfiguration = PipelineConfiguration()) {
        self.configuration = configuration
    }

    private var failOn: Int32 { configuration.strictness.rawValue }

    /// Caps the C library's malloc arenas for the process. With a thread per core decoding
    /// images, glibc's default of one arena per thread keeps tens of megabytes more resident for
    /// no speed; two arenas measured ~50 MB less peak memory exporting 12-MP photos. Call it
    /// first thing in `main`.
    public static func limitMallocArenas(to arenas: Int) {
        cvips_limit_malloc_arenas(Int32(max(1, arenas)))
    }

    /// Sets how many threads libvips may use inside one image operation (process-wide).
    /// The pipeline runs one render per core, so 1 is usually right for throughput.
    public static func setThreadsPerOperation(_ threads: Int) throws {
        try Vips.start()
        cvips_set_concurrency(Int32(max(1, threads)))
    }

    /// Reads a file's header: size, orientation, pages, format and EXIF block.
    public func header(of url: URL) throws -> ImageHeader {
        try VipsErrorScope.run {
            try Vips.start()
            try checkReadable(url)
            var raw = cvips_header()
            var exif: UnsafeMutableRawPointer?
            var exifLength = 0
            guard cvips_read_header(url.path, failOn, &raw, &exif, &exifLength) == 0 else {
                throw loadError(for: url)
            }
            defer { cvips_free(exif) }
            let loader = withUnsafeBytes(of: raw.loader) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            var header = ImageHeader(
                storedSize: PixelSize(width: Int(raw.width), height: Int(raw.height)),
                orientation: Int(raw.orientation),
                pageCount: max(1, Int(raw.pages)),
                hasAlpha: raw.has_alpha != 0,
                format: Self.formatName(loader: loader, url: url),
                exif: exif.map { Data(bytes: $0, count: exifLength) }
            )
            if header.format == "png", header.exif == nil, let block = try? PNGExifLocator.exifBlock(inPNGAt: url) {
                header.exif = block
                if let orientation = try? ExifReader.parse(block).orientation, orientation != 1 {
                    header.orientation = orientation
                    header.orientationOutsideDecoder = orientation
                }
            }
            return header
        }
    }

    /// Renders `url` to fit or fill `size`, upright, never enlarged.
    ///
    /// A JPEG is decoded by libjpeg at a reduced scale and reduced with a Lanczos-3 filter
    /// without a libvips pipeline: `ResizeMode.exact` at libvips'
    /// own scale (twice the target kept for a sharp reduction),
    /// `ResizeMode.fast` at the coarsest scale that still covers the target (e.g. 1/8 of a
    /// 12-MP photo for a 256-pixel thumbnail) with fast DCT.
    public func render(_ url: URL, size: PixelSize, mode: ContentMode, format: ImageFormat, quality: Int,
                       resizeMode: ResizeMode = .exact) throws -> ImageResult {
        try VipsErrorScope.run {
            let header = try checkPixelLimit(of: url)
            let extraOrientation = header.orientationOutsideDecoder
            let box = extraOrientation >= 5 ? size.transposed : size
            var image: OpaquePointer?
            let width = Int32(clamping: box.width), height = Int32(clamping: box.height), crop: Int32 = mode == .fill ? 1 : 0
            if Self.isHEIF(header), let tiled = try heifGridThumbnail(url, box: box, crop: mode == .fill) {
                return try encode(tiled, format: format, quality: quality, source: .rendered, file: url.path)
            }
            // The header just read tells the JPEG path all it needs: the file is not opened twice.
            let status = header.format == "jpeg"
                ? cvips_thumbnail_jpeg_direct(url.path, Int32(clamping: header.storedSize.width), Int32(clamping: header.storedSize.height),
                                              Int32(header.orientation),
                                              width, height, crop, failOn, resizeMode == .fast ? 1 : 0, &image)
                : cvips_thumbnail_file(url.path, width, height, crop, failOn, &image)
            guard status == 0, let image else {
                throw loadError(for: url)
            }
            return try encode(try oriented(VipsImageHandle(image), extraOrientation, name: url.path),
                              format: format, quality: quality, source: .rendered, file: url.path)
        }
    }

    /// Renders encoded image bytes (a video frame, an embedded thumbnail) to fit or fill `size`.
    public func render(data: Data, name: String, size: PixelSize, mode: ContentMode,
                       format: ImageFormat, quality: Int, source: ImageSource) throws -> ImageResult {
        try VipsErrorScope.run {
            try Vips.start()
            var image: OpaquePointer?
            let width = Int32(clamping: size.width), height = Int32(clamping: size.height)
            let status = data.withUnsafeBytes { bytes in
                cvips_thumbnail_buffer(bytes.baseAddress, bytes.count, width, height, mode == .fill ? 1 : 0, failOn, &image)
            }
            guard status == 0, let image else {
                throw ImagePipelineError.undecodable(file: name, reason: Vips.takeError())
            }
            return try encode(VipsImageHandle(image), format: format, quality: quality, source: source, file: name)
        }
    }

    /// Decodes the whole image, upright, and encodes it. Pixels stream from the decoder to the
    /// encoder where they can: an upright file is read sequentially, and a grid HEIF image (a
    /// camera's large photo) is encoded to JPEG a row of tiles at a time.
    public func fullResolution(_ url: URL, format: ImageFormat, quality: Int) throws -> ImageResult {
        try VipsErrorScope.run {
            let header = try checkPixelLimit(of: url)
            if format == .jpeg, Self.isHEIF(header), let tiled = try heifGridFullResolution(url, quality: quality) {
                return tiled
            }
            let extraOrientation = header.orientationOutsideDecoder
            var image: OpaquePointer?
            guard cvips_load_upright(url.path, failOn, &image) == 0, let image else {
                throw loadError(for: url)
            }
            return try encode(try oriented(VipsImageHandle(image), extraOrientation, name: url.path),
                              format: format, quality: quality, source: .fullResolution, file: url.path)
        }
    }

    /// Turns an embedded EXIF thumbnail upright with its photo's `orientation` and encodes it;
    /// orientation 1 passes the JPEG bytes through untouched. JPEG output goes through
    /// libjpeg-turbo alone (~0.1 ms for a 160-pixel thumbnail, where a libvips pipeline costs
    /// ~1 ms of set-up); WebP output through libvips.
    public func uprightThumbnail(jpeg data: Data, orientation: Int, name: String,
                                 format: ImageFormat, quality: Int) throws -> ImageResult {
        try VipsErrorScope.run {
            if format == .jpeg {
                return try data.withUnsafeBytes { bytes in
                    var width: Int32 = 0, height: Int32 = 0
                    if orientation == 1 {
                        guard cvips_small_jpeg_size(bytes.baseAddress, bytes.count, &width, &height) == 0 else {
                            throw ImagePipelineError.undecodable(file: name, reason: "the embedded thumbnail is not a readable JPEG")
                        }
                        return ImageResult(data: data, format: .jpeg, pixelSize: PixelSize(width: Int(width), height: Int(height)),
                                           isDegraded: true, source: .embeddedThumbnail)
                    }
                    var output: UnsafeMutableRawPointer?
                    var length = 0
                    guard cvips_small_jpeg_upright(bytes.baseAddress, bytes.count, Int32(orientation), Int32(quality),
                                                   &output, &length, &width, &height) == 0, let output else {
                        throw ImagePipelineError.undecodable(file: name, reason: "the embedded thumbnail is not a readable JPEG")
                    }
                    defer { cvips_small_jpeg_free(output) }
                    return ImageResult(data: Data(bytes: output, count: length), format: .jpeg,
                                       pixelSize: PixelSize(width: Int(width), height: Int(height)),
                                       isDegraded: true, source: .embeddedThumbnail)
                }
            }
            try Vips.start()
            let loaded = try load(data: data, name: name)
            var result = try encode(try oriented(loaded, orientation, name: name), format: format, quality: quality,
                                    source: .embeddedThumbnail, file: name)
            result.isDegraded = true
            return result
        }
    }

    /// Decodes encoded bytes to 8-bit sRGB (or grey) pixels, as they are stored.
    public func pixels(of data: Data, name: String) throws -> RawPixels {
        try VipsErrorScope.run {
            try Vips.start()
            let loaded = try load(data: data, name: name)
            var memory: UnsafeMutableRawPointer?
            var length = 0
            var width: Int32 = 0, height: Int32 = 0, bands: Int32 = 0
            guard cvips_to_srgb8(loaded.pointer, &memory, &length, &width, &height, &bands) == 0, let memory else {
                throw ImagePipelineError.undecodable(file: name, reason: Vips.takeError())
            }
            defer { cvips_free(memory) }
            return RawPixels(width: Int(width), height: Int(height), bands: Int(bands),
                             bytes: [UInt8](UnsafeRawBufferPointer(start: memory, count: length)))
        }
    }

    /// Encodes 8-bit interleaved pixels.
    public func encode(_ pixels: RawPixels, format: ImageFormat, quality: Int) throws -> Data {
        try VipsErrorScope.run {
            try Vips.start()
            var image: OpaquePointer?
            let status = pixels.bytes.withUnsafeBytes { bytes in
                cvips_from_pixels(bytes.baseAddress, Int32(pixels.width), Int32(pixels.height), Int32(pixels.bands), &image)
            }
            guard status == 0, let image else { throw ImagePipelineError.encodingFailed(reason: Vips.takeError()) }
            return try encode(VipsImageHandle(image), format: format, quality: quality, source: .rendered).data
        }
    }

    // MARK: - Internals

    /// Encodes `image`. libvips decodes lazily, while encoding, so damaged data of `file` shows
    /// up here and is reported against it.
    func encode(_ image: VipsImageHandle, format: ImageFormat, quality: Int, source: ImageSource, file: String? = nil) throws -> ImageResult {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32 = switch format {
        case .jpeg: cvips_save_jpeg(image.pointer, Int32(quality), 0, &buffer, &length)
        case .webp: cvips_save_webp(image.pointer, Int32(quality), &buffer, &length)
        }
        guard status == 0, let buffer else {
            let reason = Vips.takeError()
            throw file.map { ImagePipelineError.undecodable(file: $0, reason: reason) } ?? .encodingFailed(reason: reason)
        }
        // Handed over, not copied: a full-size JPEG of a 200-MP photo is ~50 MB.
        let data = Data(bytesNoCopy: buffer, count: length, deallocator: .custom { pointer, _ in cvips_free(pointer) })
        return ImageResult(data: data, format: format, pixelSize: image.pixelSize, isDegraded: false, source: source)
    }

    private func load(data: Data, name: String) throws -> VipsImageHandle {
        var image: OpaquePointer?
        let status = data.withUnsafeBytes { bytes in
            cvips_load_buffer(bytes.baseAddress, bytes.count, failOn, &image)
        }
        guard status == 0, let image else {
            throw ImagePipelineError.undecodable(file: name, reason: Vips.takeError())
        }
        return VipsImageHandle(image)
    }

    /// Reads the header and refuses an image over the pixel limit before anything is decoded,
    /// and a PNG whose chunks fail their CRC (``PNGChunkCheck``).
    @discardableResult
    private func checkPixelLimit(of url: URL) throws -> ImageHeader {
        let header = try header(of: url)
        if header.storedSize.area > configuration.maxPixels {
            throw ImagePipelineError.tooManyPixels(file: url.path, pixels: header.storedSize.area, limit: configuration.maxPixels)
        }
        if header.format == "png" { try PNGChunkCheck.verify(url) }
        return header
    }

    /// `image` turned by `orientation` (returned as is for 1).
    private func oriented(_ image: VipsImageHandle, _ orientation: Int, name: String) throws -> VipsImageHandle {
        guard orientation != 1 else { return image }
        var turned: OpaquePointer?
        guard cvips_apply_orientation(image.pointer, Int32(orientation), &turned) == 0, let turned else {
            throw ImagePipelineError.undecodable(file: name, reason: Vips.takeError())
        }
        return VipsImageHandle(turned)
    }

    private func checkReadable(_ url: URL) throws {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            throw ImagePipelineError.unreadable(file: url.path, reason: String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw ImagePipelineError.unreadable(file: url.path, reason: "not a regular file")
        }
        guard access(url.path, R_OK) == 0 else {
            throw ImagePipelineError.unreadable(file: url.path, reason: String(cString: strerror(errno)))
        }
        guard status.st_size > 0 else {
            throw ImagePipelineError.undecodable(file: url.path, reason: "the file is empty")
        }
    }

    /// Why libvips could not load `url`: no loader knows the format, or one does and failed. Asked
    /// of libvips again rather than read from the message, which a concurrent failure elsewhere
    /// may have taken or joined.
    private func loadError(for url: URL) -> ImagePipelineError {
        let reason = Vips.takeError()
        guard cvips_can_load(url.path) != 0 else {
            return .unsupportedFormat(file: url.path, reason: "not an image format libvips can read")
        }
        return .undecodable(file: url.path, reason: reason)
    }

    /// The format's name from the libvips loader that read `url`; libvips' one HEIF loader
    /// reads AVIF too, told apart by the file's brand (its bytes, not its name: an original may be
    /// read through `/proc/self/fd/N`).
    static func formatName(loader: String, url: URL) -> String {
        let base = loader.replacingOccurrences(of: "load", with: "")
            .replacingOccurrences(of: "_source", with: "")
            .replacingOccurrences(of: "_file", with: "")
        if base == "heif" {
            return isAVIF(url) ? "avif" : "heif"
        }
        return base.isEmpty ? url.pathExtension.lowercased() : base
    }

    /// Whether the ISO BMFF file at `url` says it is AVIF: its `ftyp` box's major brand is
    /// `avif` or `avis`.
    private static func isAVIF(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12), head.count == 12 else { return false }
        let bytes = [UInt8](head)
        return bytes[4..<8] == [0x66, 0x74, 0x79, 0x70][...] && ["avif", "avis"].contains(String(decoding: bytes[8..<12], as: UTF8.self))
    }
}
