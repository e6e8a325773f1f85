import ImagePipeline

extension RawPixels {
    /// The mean absolute difference (0...255) of every sample with `other`'s, which has the same
    /// size and bands; `.infinity` when it does not.
    func meanDifference(from other: RawPixels) -> Double {
        guard width == other.width, height == other.height, bands == other.bands, !bytes.isEmpty else { return .infinity }
        let total = zip(bytes, other.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(bytes.count)
    }

    /// The largest difference of one sample of pixel (x, y) with `other`'s.
    func difference(from other: RawPixels, x: Int, y: Int) -> Int {
        (0..<bands).map { band in
            abs(Int(bytes[(y * width + x) * bands + band]) - Int(other.bytes[(y * other.width + x) * other.bands + band]))
        }.max() ?? 0
    }
}
