/// The opaque `pageToken` of an item listing: where the next page starts.
struct PageToken: Equatable {
    let offset: Int

    init(offset: Int) {
        self.offset = offset
    }

    /// The token a client sent back, or an error naming it when it is not one this server gave.
    init(_ text: String) throws(APIError) {
        guard text.hasPrefix("p"), let offset = Int(text.dropFirst()), offset > 0 else {
            throw .badParameter("'pageToken' must be a nextPageToken this server gave; got '\(text)'.")
        }
        self.offset = offset
    }

    var text: String { "p\(offset)" }
}
