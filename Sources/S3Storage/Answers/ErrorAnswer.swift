import Foundation

/// S3's error body: `<Error><Code>NoSuchKey</Code><Message>…</Message>…</Error>`.
struct ErrorAnswer: Sendable, Equatable {
    var code: String
    var message: String
}

extension ErrorAnswer {
    /// The code and message of `data`; empty ones when it is empty or not S3's error XML (a
    /// proxy's HTML page, a `HEAD` answer).
    init(_ data: Data) {
        let root = XMLTree.parse(data)
        self.init(code: root?.text("Code") ?? "",
                  message: (root?.text("Message") ?? "").replacingOccurrences(of: "\n", with: " "))
    }
}
