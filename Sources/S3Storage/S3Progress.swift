/// How far a download is: bytes received of the object's total.
public struct S3Progress: Sendable, Hashable {
    /// The bytes in the file so far (a resumed download counts those from before the break).
    public var received: Int64
    /// The object's size.
    public var total: Int64

    /// Creates a progress report.
    public init(received: Int64, total: Int64) {
        self.received = received
        self.total = total
    }

    /// `received` as a fraction of `total`, from 0 to 1 (1 for an empty object).
    public var fraction: Double {
        total == 0 ? 1 : Double(received) / Double(total)
    }
}
