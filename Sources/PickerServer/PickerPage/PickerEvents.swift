import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import PickerSessions
import ServiceLifecycle

/// The picker page's live feed (`GET api/events`, server-sent events): `library` when the
/// library changed (files added or removed, imports, albums), `session` when the session's
/// picks or state changed elsewhere; a comment line every ``PickerServerLimits/eventHeartbeat`` keeps proxies from closing it.
/// The stream ends when the session ends or the page goes away; the session's prefetch stops
/// with its last page (``PickerPages``).
struct PickerEvents: Sendable {
    let state: ServerState
    /// ``PickerServerLimits/eventHeartbeat``.
    let heartbeat: Duration

    func add(to api: RouterGroup<BasicRequestContext>, grant: @escaping GrantResolver) {
        api.get("events") { _, context in
            let grant = try await grant(context)
            // Subscribed before the stream opens, so nothing that happens after the page sees it open is missed.
            let events = merged(library: state.library.changes(), session: try await state.sessions.updates(of: grant.session.id),
                                sessionID: grant.session.id)
            // The page is gone when its connection closes (known at once through the connection's
            // departure, not at the next heartbeat's failed write) or its stream ends.
            let visit = state.media.pageOpened(session: grant.session.id)
            let departure = ClientDeparture.current
            let watch = departure?.watch { visit.end() }
            @Sendable func pageGone() {
                if let watch { departure?.unwatch(watch) }
                visit.end()
            }
            let body = ResponseBody { writer in
                do {
                    try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                    for await event in events {
                        try await writer.write(ByteBuffer(string: event))
                    }
                    try await writer.finish(nil)
                } catch {
                    pageGone()
                    throw error
                }
                pageGone()
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store",
                                                   HTTPField.Name("X-Accel-Buffering")!: "no"], body: body)
        }
    }

    /// The library's changes, the session's updates and heartbeats as event-stream text, until
    /// the session ends or the consumer stops listening.
    private func merged(library changes: AsyncStream<LibraryChange>, session updates: AsyncStream<PickerSession>,
                        sessionID: String) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let heartbeat = heartbeat
        // Inherits the server's graceful shutdown (a Task copies the request's task-locals): when
        // the server stops, the feed ends, so that the page's connection does not hold the
        // shutdown open for as long as the page stays.
        let task = Task {
            await withGracefulShutdownHandler {
                await forward(changes, updates, of: sessionID, heartbeat: heartbeat, into: continuation)
            } onGracefulShutdown: {
                continuation.finish()
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Yields the events of `changes` and `updates` and a heartbeat into `continuation` until the
    /// session ends (then finishes it) or the task is cancelled. Each update, made through any
    /// server, also corrects this server's grant of the session (``SessionGrants``).
    private func forward(_ changes: AsyncStream<LibraryChange>, _ updates: AsyncStream<PickerSession>, of sessionID: String,
                         heartbeat: Duration,
                         into continuation: AsyncStream<String>.Continuation) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await change in changes {
                    continuation.yield("event: library\ndata: {\"token\":\"\(change.token)\"}\n\n")
                }
            }
            group.addTask {
                for await session in updates {
                    state.grants.remember(session)
                    continuation.yield("event: session\ndata: {\"state\":\"\(session.state.rawValue)\",\"count\":\(session.selection.count)}\n\n")
                    if session.state != .picking { break }
                }
                // The session ended, was deleted or expired: so does its feed, and its grant here.
                state.grants.forget(sessionID)
                continuation.finish()
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: heartbeat)
                    continuation.yield(": keep-alive\n\n")
                }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
