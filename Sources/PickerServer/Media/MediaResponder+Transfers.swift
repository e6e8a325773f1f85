import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

extension MediaResponder {
    /// Brings the original of `asset` to this machine for the picker page's large view
    /// (`POST …/api/assets/{id}/fetch`), telling the page how far it is as it comes: a
    /// `text/event-stream` of `progress` events (`{"received": bytes, "total": bytes}`), then one
    /// `done` (the original is here: its sharp image or its video needs no network now) or one
    /// `failed` (`{"error": {status, code, message}}`, as the API's errors).
    ///
    /// The fetch takes a place in `session`'s budget as a visible image does, and is shared with
    /// every other caller asking for the same original at once (``AssetsKit/OriginalFetching``).
    /// When the page lets go (it leaves the large view, or goes: the connection closes), the wait
    /// stops and so does the transfer, unless another caller waits for it. An original here
    /// already answers `done` at once. At most ``TransferEvents/steps`` progress events are sent,
    /// however the store reports, and a slow reader is sent only the latest.
    func transfer(of asset: Asset, session: String) -> Response {
        let departure = ClientDeparture.current
        let body = ResponseBody { [self] writer in
            let (updates, continuation) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(1))
            async let outcome = fetch(asset, session: session, departure: departure, reporting: continuation)
            // A write that fails (the page went) leaves this scope: the fetch is cancelled with it.
            // The first says the stream is open before any byte of the original has come.
            try await writer.write(ByteBuffer(string: ": fetching\n\n"))
            for await progress in updates {
                try await writer.write(ByteBuffer(string: TransferEvents.event("progress", progress)))
            }
            switch await outcome {
            case .success(let size):
                try await writer.write(ByteBuffer(string: TransferEvents.event("done", TransferProgress(received: size, total: size))))
            case .failure(let error):
                try await writer.write(ByteBuffer(string: TransferEvents.failed(error)))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store",
                                               HTTPField.Name("X-Accel-Buffering")!: "no"], body: body)
    }

    /// Fetches the original of `asset` in a place of `session`'s budget, telling `updates` the
    /// progress that reaches a new step (``TransferEvents/Steps``) and finishing it at the end;
    /// the original's size, or why not.
    private func fetch(_ asset: Asset, session: String, departure: ClientDeparture?,
                       reporting updates: AsyncStream<TransferProgress>.Continuation) async -> Result<Int64, APIError> {
        defer { updates.finish() }
        let steps = TransferEvents.Steps()
        do {
            let original = try await withinBudget(session: session, tier: .visibleFirst, departure: departure) { [self] in
                try await localOriginal(of: asset, departure: nil) { progress in
                    if steps.isNew(progress) { updates.yield(progress) }
                }
            }
            return .success(original.byteSize)
        } catch let error as APIError {
            return .failure(error)
        } catch {
            return .failure(Self.fetchFailed(asset, reason: "\(error)"))
        }
    }
}

/// The events of a transfer stream (``MediaResponder/transfer(of:session:)``), as text.
enum TransferEvents {
    /// The most progress events one transfer sends: one per thousandth of the original.
    static let steps = 1_000

    /// Lets through the progress that reaches a new thousandth of the total (and the first).
    final class Steps: Sendable {
        private let last = Mutex(-1)

        func isNew(_ progress: TransferProgress) -> Bool {
            let step = Int(progress.fraction * Double(TransferEvents.steps))
            return last.withLock { last in
                guard step > last else { return false }
                last = step
                return true
            }
        }
    }

    /// An event `name` with `progress` as its data.
    static func event(_ name: String, _ progress: TransferProgress) -> String {
        "event: \(name)\ndata: {\"received\":\(progress.received),\"total\":\(progress.total)}\n\n"
    }

    /// The `failed` event of `error`, its data as the API's error body.
    static func failed(_ error: APIError) -> String {
        struct Body: Encodable {
            struct Detail: Encodable {
                let status: Int
                let code: String
                let message: String
            }
            let error: Detail
        }
        let body = Body(error: .init(status: error.status.code, code: error.code, message: error.message))
        let data = (try? JSONEncoder().encode(body)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: failed\ndata: \(data)\n\n"
    }
}
