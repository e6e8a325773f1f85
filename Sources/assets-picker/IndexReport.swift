import AssetsKit

/// What `index` did, as a person reads it: one sentence for the scan, one for the previews.
enum IndexReport {
    /// `Indexed ~/Pictures: 1,234 photos and videos; 12 new, 3 changed; 2 could not be read (below).`
    static func scanSentence(path: String, _ summary: ScanSummary) -> String {
        let changes = [
            counted(summary.added, "new"), counted(summary.updated, "changed"), counted(summary.moved, "moved"),
            counted(summary.removed, "gone from the folder"),
        ].compactMap { $0 }
        let files = ReadableNumber.count(summary.scanned, "photo or video", "photos and videos")
        let failures = counted(summary.failed.count, "could not be read (below)").map { "; " + $0 } ?? ""
        return "Indexed \(path): \(files); "
            + (changes.isEmpty ? "nothing changed since the last index" : changes.joined(separator: ", ")) + failures + "."
    }

    /// What `--previews` made; without it, where the previews of new photos come from.
    static func previewSentence(_ summary: PreviewSummary?, newest: PreviewSummary? = nil, scan: ScanSummary) -> String? {
        guard let summary else {
            guard scan.added + scan.updated > 0 else { return nil }
            let first = newest.flatMap { $0.made == 0 ? nil : "the previews of its \(ReadableNumber.count($0.made)) newest photos are made" }
            return "The library can be browsed now" + (first.map { " (\($0))" } ?? "") + "; previews of \(first == nil ? "" : "the other ")new photos are made "
                + "in the background while 'serve' runs (or now, with index --previews)."
        }
        let parts = [
            counted(summary.made, "made"), counted(summary.removed, "of removed photos deleted"),
            counted(summary.failed.count, "could not be made (below)"),
        ].compactMap { $0 }
        return parts.isEmpty ? "Previews: every photo has one." : "Previews: " + parts.joined(separator: ", ") + "."
    }

    private static func counted(_ count: Int, _ what: String) -> String? {
        count == 0 ? nil : "\(ReadableNumber.count(count)) \(what)"
    }
}
