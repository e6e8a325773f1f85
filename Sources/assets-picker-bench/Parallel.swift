/// Runs blocking work on Swift's task pool with a fixed number of items in flight.
enum Parallel {
    /// Calls `body` for every element, at most `width` at a time, and returns when all are
    /// done (or throws the first error, after the others in flight finish).
    static func forEach<Element: Sendable>(_ elements: [Element], width: Int,
                                           _ body: @escaping @Sendable (Element) throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = elements.startIndex
            func startNext() {
                guard next < elements.endIndex else { return }
                let element = elements[next]
                next += 1
                group.addTask { try body(element) }
            }
            for _ in 0..<max(1, width) { startNext() }
            while try await group.next() != nil { startNext() }
        }
    }
}
