extension StringProtocol {
    /// The text as a refusal quotes it back: at most 64 characters, then `…`, so that a
    /// refusal stays one short line however long the value sent was.
    var echoed: String {
        count <= 64 ? String(self) : String(prefix(64)) + "…"
    }
}
