import AssetsKit
import Foundation
import PickerSessions

/// A picker session as its client sees it: the Google Photos Picker API's `PickingSession`,
/// with this server's extras (`state`, `mediaFilter`, `order`, `pickedCount`) beside it. It says
/// nothing of how a preselection was resolved: which of a client's identifiers name something in
/// the library is the person's to know.
struct SessionResource: Encodable, Sendable {
    struct PollingConfig: Encodable, Sendable {
        /// How long to wait between polls, as a Duration string (`"2s"`).
        let pollInterval: String
        /// How long polling may go on: the time left until the session expires (`"1799.5s"`).
        let timeoutIn: String
    }

    struct PickingConfig: Encodable, Sendable {
        /// The most items the person may pick, as an int64 string (`"2000"`).
        let maxItemCount: String
    }

    let id: String
    let pickerUri: String
    let pollingConfig: PollingConfig
    let expireTime: Date
    let mediaItemsSet: Bool
    let pickingConfig: PickingConfig
    let state: PickerSessionState
    let mediaFilter: MediaFilter
    let order: PickOrder
    /// How many items the person picked, once ``mediaItemsSet``.
    let pickedCount: Int?

    /// - Parameters:
    ///   - now: The server's time, from which `timeoutIn` counts.
    ///   - pickedCount: How many picks the client can still receive, once ``mediaItemsSet``.
    init(_ session: PickerSession, pickerURI: String, pollInterval: Double, now: Date, pickedCount: Int?) {
        id = session.id
        pickerUri = pickerURI
        pollingConfig = PollingConfig(pollInterval: DurationText.string(seconds: pollInterval),
                                      timeoutIn: DurationText.string(seconds: session.expireTime.timeIntervalSince(now)))
        expireTime = session.expireTime
        mediaItemsSet = session.mediaItemsSet
        pickingConfig = PickingConfig(maxItemCount: String(session.settings.maxItems))
        state = session.state
        mediaFilter = session.settings.mediaFilter
        order = session.settings.order
        self.pickedCount = pickedCount
    }
}
