import ImagePipeline

extension RawPixels {
    /// The mean brightness (0...255) of a rectangle, over the colour channels.
    func meanBrightness(x: Int, y: Int, width w: Int, height h: Int) -> Double {
        let colourBands = bands == 2 || bands == 4 ? bands - 1 : bands
        var sum = 0, count = 0
        for row in max(0, y)..<min(height, y + h) {
            for column in max(0, x)..<min(width, x + w) {
                let base = (row * width + column) * bands
                for band in 0..<colourBands {
                    sum += Int(bytes[base + band])
                    count += 1
                }
            }
        }
        return count == 0 ? 0 : Double(sum) / Double(count)
    }
}
