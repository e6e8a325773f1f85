import Foundation

/// How many pixels the decodes of renders running at once may hold together.
///
/// A render counts the pixels of its original: what a whole decode holds, at up to ~6.5 bytes
/// a pixel (libheif's decode of a 200-MP HEIC peaked at 1.3 GB before tiled HEIF decoding).
/// Shrink-on-load and tile-by-tile decoding hold far less, so the count is an upper bound,
/// and it keeps the formats and paths that still decode whole (a single-image HEIC, a turned
/// full-size render) from multiplying with the cores. One render larger than the budget still
/// runs, alone.
public enum RenderPixelBudget {
    /// The default: a sixteenth of the memory this process may use (the machine's, or its
    /// control group's limit when that is lower) in pixels, so whole decodes at ~6.5 bytes a
    /// pixel hold at most ~40% of it. 24 GB gives 1.6 gigapixels (eight 200-MP photos at
    /// once); 2 GB, 134 megapixels (a 200-MP photo alone, twelve 12-MP photos at once).
    public static var forThisMachine: Int {
        pixels(forMemory: usableMemory)
    }

    /// The budget for `bytes` of memory.
    public static func pixels(forMemory bytes: UInt64) -> Int {
        Int(clamping: bytes / 16)
    }

    /// The machine's memory, or the control group's limit (cgroup v2 `memory.max`) when lower.
    static var usableMemory: UInt64 {
        let physical = ProcessInfo.processInfo.physicalMemory
        guard let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
              let limit = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return physical }
        return min(physical, limit)
    }
}
