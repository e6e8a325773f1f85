import AssetsKit
import Foundation
import Picker

/// A picker session as its client sees it.
struct SessionResource: Encodable, Sendable {
    struct PollingConfig: Encodable, Sendable {
        /// Seconds between polls of the session.
        let pollInterval: Double
    }

    let id: String
    let pickerUri: String
    let pollingConfig: PollingConfig
    let expireTime: Date
    let mediaItemsSet: Bool
    let state: PickerSessionState
    let maxItems: Int
    let mediaFilter: MediaFilter
    let order: PickOrder
    /// Preselected identifiers that were dropped (deleted since, unknown, other media, over the maximum).
    let droppedPreselected: [String]
    /// How many items the person picked, once ``mediaItemsSet``.
    let pickedCount: Int?

    init(_ session: PickerSession, pickerURI: String, pollInterval: Double) {
        id = session.id
        pickerUri = pickerURI
        pollingConfig = PollingConfig(pollInterval: pollInterval)
        expireTime = session.expireTime
        mediaItemsSet = session.mediaItemsSet
        state = session.state
        maxItems = session.settings.maxItems
        mediaFilter = session.settings.mediaFilter
        order = session.settings.order
        droppedPreselected = session.droppedPreselected
        pickedCount = session.mediaItemsSet ? session.pickedItems.count : nil
    }
}

/// The body of `POST /v1/sessions`; every key may be left out.
struct CreateSessionRequest: Decodable, Sendable {
    var maxItems: Int?
    var mediaFilter: MediaFilter?
    var order: PickOrder?
    /// Identifiers to start the selection with (a draft): local identifiers, UUIDs or legacy URLs.
    var preselected: [String]?
}
