import AssetsKit
import Foundation
import Picker

/// A picker session as its client sees it. It says nothing of how a preselection was resolved:
/// which of a client's identifiers name something in the library is the person's to know.
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
    /// How many items the person picked, once ``mediaItemsSet``.
    let pickedCount: Int?

    /// - Parameter pickedCount: How many picks the client can still receive, once ``mediaItemsSet``.
    init(_ session: PickerSession, pickerURI: String, pollInterval: Double, pickedCount: Int?) {
        id = session.id
        pickerUri = pickerURI
        pollingConfig = PollingConfig(pollInterval: pollInterval)
        expireTime = session.expireTime
        mediaItemsSet = session.mediaItemsSet
        state = session.state
        maxItems = session.settings.maxItems
        mediaFilter = session.settings.mediaFilter
        order = session.settings.order
        self.pickedCount = pickedCount
    }
}

/// The body of `POST /v1/sessions`; every key may be left out, none may be `null` or unknown
/// (a misspelt key is an error, not a silently ignored setting).
struct CreateSessionRequest: Decodable, Sendable {
    var maxItems: Int?
    var mediaFilter: MediaFilter?
    var order: PickOrder?
    /// Identifiers to start the selection with (a draft): local identifiers, UUIDs or legacy URLs;
    /// those that name nothing the person could pick are dropped without a word to the client.
    var preselected: [String]?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case maxItems, mediaFilter, order, preselected
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = keys.first(where: { CodingKeys(stringValue: $0) == nil }) {
            let known = CodingKeys.allCases.map(\.stringValue).joined(separator: ", ")
            throw APIError.badParameter("The body has no key '\(unknown)'; it takes \(known).")
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // `decode`, not `decodeIfPresent`: a key that is present must hold a value, not null.
        func value<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
            container.contains(key) ? try container.decode(type, forKey: key) : nil
        }
        // Read as a number first: Foundation reports a fraction where an Int belongs as malformed JSON.
        maxItems = try value(Double.self, .maxItems).map { number throws(APIError) in
            guard let whole = Int(exactly: number) else { throw .badParameter("'maxItems' must be a whole number; got \(number).") }
            return whole
        }
        mediaFilter = try value(MediaFilter.self, .mediaFilter)
        order = try value(PickOrder.self, .order)
        preselected = try value([String].self, .preselected)
    }
}
