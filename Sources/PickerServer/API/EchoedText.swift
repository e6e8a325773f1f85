extension StringProtocol {
    /// The text as a refusal quotes it back: at most 64 Unicode scalars, then `…`, so that a
    /// refusal stays one short line however long the value sent was. Counted in scalars, not
    /// characters: one character can be a letter with millions of combining marks.
    var echoed: String {
        let scalars = unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: 64, limitedBy: scalars.endIndex), end != scalars.endIndex else {
            return String(self)
        }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: scalars[..<end])
        return String(cut) + "…"
    }
}
