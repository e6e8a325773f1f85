/// Decoded 8-bit pixels, interleaved, row by row.
public struct RawPixels: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Channels per pixel: 1 (grey), 2 (grey + alpha), 3 (RGB) or 4 (RGBA).
    public var bands: Int
    public var bytes: [UInt8]

    public init(width: Int, height: Int, bands: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bands = bands
        self.bytes = bytes
    }
}
