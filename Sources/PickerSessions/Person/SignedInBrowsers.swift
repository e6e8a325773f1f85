import Foundation

/// The signed-in browsers this process has seen: the secret each presented (after it matched the
/// store's digest, or when this process signed it in) and when it stops being signed in, so that
/// a request that cannot wait for the store (the event loop's fast path) is answered from
/// memory. At most ``capacity`` are kept; beyond that the ones that expire first go.
struct SignedInBrowsers {
    /// Browsers kept at most.
    let capacity: Int

    private struct Entry {
        let secret: String
        let expires: Date
    }

    private var entries: [TokenID: Entry] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Remembers browser `id` with `secret` until `expires`.
    mutating func remember(_ id: TokenID, secret: String, expires: Date, at time: Date) {
        entries = entries.filter { $0.value.expires > time }
        while entries.count >= capacity, let first = entries.min(by: { $0.value.expires < $1.value.expires }) {
            entries[first.key] = nil
        }
        entries[id] = Entry(secret: secret, expires: expires)
    }

    /// Whether browser `id` is remembered, live at `time`, with `secret` (compared in constant time).
    mutating func matches(_ id: TokenID, secret: Substring.UTF8View.SubSequence, at time: Date) -> Bool {
        guard let entry = entries[id] else { return false }
        guard entry.expires > time else {
            entries[id] = nil
            return false
        }
        return SecretToken.matches(secret, entry.secret.utf8)
    }
}
