import Foundation

/// Refused sign-in attempts, counted per client address and in all over a window of time, so
/// that sign-in links cannot be guessed at the server's speed nor the log flooded: past
/// ``perAddress`` refusals from one address, or ``overall`` from all, in one ``window``, further
/// attempts are throttled (refused without their link being looked at) until the window ends.
struct SignInAttempts {
    /// Refusals one address may have in a window.
    static let perAddress = 10
    /// Refusals all addresses together may have in a window.
    static let overall = 100
    /// How long a window lasts, from its first refusal.
    static let window: TimeInterval = 60

    private var windowStart: Date?
    private var refusals: [String: Int] = [:]
    private var total = 0

    /// Whether an attempt from `address` at `time` is throttled.
    mutating func isThrottled(_ address: String, at time: Date) -> Bool {
        startWindowIfOver(at: time)
        return refusals[address, default: 0] >= Self.perAddress || total >= Self.overall
    }

    /// Counts a refused attempt from `address` at `time`.
    /// - Returns: Whether it is the first refusal of that address in the window (the one to report).
    mutating func refused(_ address: String, at time: Date) -> Bool {
        startWindowIfOver(at: time)
        if windowStart == nil { windowStart = time }
        refusals[address, default: 0] += 1
        total += 1
        return refusals[address] == 1
    }

    /// Seconds until the window ends (at least 1).
    func retryAfter(at time: Date) -> Int {
        guard let windowStart else { return 1 }
        return max(1, Int((windowStart.addingTimeInterval(Self.window).timeIntervalSince(time)).rounded(.up)))
    }

    private mutating func startWindowIfOver(at time: Date) {
        guard let start = windowStart, time.timeIntervalSince(start) >= Self.window else { return }
        windowStart = nil
        refusals = [:]
        total = 0
    }
}
