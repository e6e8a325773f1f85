import AssetsKit
import PickerSessions

/// The body of `POST /v1/sessions`: the Google Photos Picker API's `{}` or
/// `{"pickingConfig": {"maxItemCount": "3"}}`, plus this server's optional extras. Every key may
/// be left out, none may be `null` or unknown (a misspelt key is an error, not a silently
/// ignored setting, as Google's API answers too).
struct CreateSessionRequest: Decodable, Sendable {
    /// `pickingConfig.maxItemCount`: an int64 string as Google writes it (a JSON number is taken too).
    var maxItemCount: Int?
    var mediaFilter: MediaFilter?
    var order: PickOrder?
    /// Identifiers to start the selection with (a draft): local identifiers, UUIDs or legacy URLs;
    /// those that name nothing the person could pick are dropped without a word to the client.
    var preselected: [String]?

    /// The body `{}`: every setting at its default.
    init() {}

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case pickingConfig, mediaFilter, order, preselected
    }

    private enum PickingConfigKeys: String, CodingKey, CaseIterable {
        case maxItemCount
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        try Self.refuseUnknownKeys(in: decoder.container(keyedBy: AnyKey.self), known: CodingKeys.allCases.map(\.stringValue), at: "The body")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // `decode`, not `decodeIfPresent`: a key that is present must hold a value, not null.
        func value<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
            container.contains(key) ? try container.decode(type, forKey: key) : nil
        }
        if container.contains(.pickingConfig) {
            let config = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .pickingConfig)
            try Self.refuseUnknownKeys(in: config, known: PickingConfigKeys.allCases.map(\.stringValue), at: "'pickingConfig'")
            if let key = config.allKeys.first {
                maxItemCount = try Self.wholeNumber(in: config, key)
            }
        }
        /// One of a fixed set of names; another is refused naming the ones taken.
        func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ key: CodingKeys) throws -> T? where T.RawValue == String {
            guard let name = try value(String.self, key) else { return nil }
            guard let chosen = T(rawValue: name) else {
                throw APIError.badParameter("'\(key.stringValue)' takes \(T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")); got \"\(name.echoed)\".")
            }
            return chosen
        }
        mediaFilter = try choice(MediaFilter.self, .mediaFilter)
        order = try choice(PickOrder.self, .order)
        preselected = try value([String].self, .preselected)
    }

    private static func refuseUnknownKeys(in container: KeyedDecodingContainer<AnyKey>, known: [String], at place: String) throws {
        if let unknown = container.allKeys.map(\.stringValue).first(where: { !known.contains($0) }) {
            throw APIError.badParameter("\(place) has no key '\(unknown.echoed)'; it takes \(known.joined(separator: ", ")).")
        }
    }

    /// An int64 written as a string (`"3"`), as the Google APIs write them, or as a whole JSON number.
    private static func wholeNumber(in container: KeyedDecodingContainer<AnyKey>, _ key: AnyKey) throws -> Int {
        if let text = try? container.decode(String.self, forKey: key) {
            // Decimal digits only, as Google writes an int64: no sign, space or leading zero.
            guard let number = DecimalText.wholeNumber(text) else {
                throw APIError.badParameter("'pickingConfig.maxItemCount' must be a whole number; got '\(text.echoed)'.")
            }
            return number
        }
        // Read as a number: Foundation reports a fraction where an Int belongs as malformed JSON.
        guard let number = try? container.decode(Double.self, forKey: key) else {
            throw APIError.badParameter("'pickingConfig.maxItemCount' must be a whole number, e.g. \"3\".")
        }
        guard let whole = Int(exactly: number) else { throw APIError.badParameter("'pickingConfig.maxItemCount' must be a whole number; got \(number).") }
        return whole
    }
}
