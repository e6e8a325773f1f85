import Foundation
import Synchronization

/// Sign-in links and browsers kept in this process's memory: the store of a server that runs
/// alone (the default), gone when the process ends.
public final class MemorySignInStore: SignInStoring {
    private struct Entry {
        let digest: [UInt8]
        let expires: Date
    }

    private struct State {
        var links: [String: Entry] = [:]
        var browsers: [String: Entry] = [:]
    }

    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    /// An empty store whose clock is `now`.
    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    public func keepLink(id: String, digest: [UInt8], lifetime: Duration, capacity: Int, unlessOneIsLive: Bool) -> Bool {
        let time = now()
        return state.withLock { state in
            Self.dropExpired(from: &state.links, at: time)
            if unlessOneIsLive, !state.links.isEmpty { return false }
            Self.insert(Entry(digest: digest, expires: time.addingTimeInterval(lifetime.seconds)), id: id, into: &state.links, capacity: capacity)
            return true
        }
    }

    public func takeLink(id: String, digest: [UInt8]) -> Bool {
        let time = now()
        return state.withLock { state in
            guard let entry = state.links[id], entry.digest == digest else { return false }
            state.links[id] = nil
            return entry.expires > time
        }
    }

    public func keepBrowser(id: String, digest: [UInt8], lifetime: Duration, capacity: Int) -> Date {
        let time = now()
        let expires = time.addingTimeInterval(lifetime.seconds)
        state.withLock { state in
            Self.dropExpired(from: &state.browsers, at: time)
            Self.insert(Entry(digest: digest, expires: expires), id: id, into: &state.browsers, capacity: capacity)
        }
        return expires
    }

    public func browsers(ids: [String]) -> [String: (digest: [UInt8], expires: Date)] {
        let time = now()
        return state.withLock { state in
            var found: [String: (digest: [UInt8], expires: Date)] = [:]
            for id in ids {
                guard let entry = state.browsers[id] else { continue }
                guard entry.expires > time else {
                    state.browsers[id] = nil
                    continue
                }
                found[id] = (entry.digest, entry.expires)
            }
            return found
        }
    }

    private static func dropExpired(from entries: inout [String: Entry], at time: Date) {
        entries = entries.filter { $0.value.expires > time }
    }

    /// Inserts `entry`, first dropping those that expire soonest while `capacity` are kept.
    private static func insert(_ entry: Entry, id: String, into entries: inout [String: Entry], capacity: Int) {
        while entries.count >= capacity, let first = entries.min(by: { $0.value.expires < $1.value.expires }) {
            entries[first.key] = nil
        }
        entries[id] = entry
    }
}
