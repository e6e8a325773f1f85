/// Which of a session store's places a new session takes.
///
/// The last places of a store's capacity are kept for the person's own sessions (the one a
/// server makes at start and those the demo client page creates), which client programs never
/// take: clients cannot lock the person out, and the person's page, bounded by its own count,
/// cannot lock clients out.
public enum SessionPlace: Sendable, Hashable {
    /// One of the places client programs share: the capacity less the places kept for own sessions.
    case shared
    /// One of the person's own: any free place, as long as fewer than the store's own-session
    /// count are alive. ``SessionStoring/isOwn(_:)`` names such a session.
    case own
}
