/// Who asked for an image of a session: the two principals.
enum ImageAsker: Sendable {
    /// The person's picker page: its images, thumbnail batches and prefetch, which stop when
    /// the session's last page goes.
    case page
    /// The client program, through its picks' baseUrls.
    case client
}
