extension AsyncThrowingStream where Failure == Error, Element: Sendable {
    /// A stream fed by `produce`, which runs in a task of its own: the stream finishes when
    /// `produce` returns (or with the error it throws), and the task is cancelled when the
    /// consumer stops listening. The shape of every image request's answer.
    public static func producing(_ produce: @escaping @Sendable (Continuation) async throws -> Void) -> Self {
        let (stream, continuation) = makeStream(of: Element.self)
        let task = Task {
            do {
                try await produce(continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
