/// A command that could not do what it was asked, for a reason outside the arguments' form:
/// printed as one line, `Error: <reason>`, with no usage after it (exit status 1).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
