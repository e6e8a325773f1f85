/// The opaque `pageToken` of an item listing: where the next page starts.
struct PageToken: Equatable {
    let offset: Int

    init(offset: Int) {
        self.offset = offset
    }

    /// The token a client sent back, or an error naming it when it is not one this server gave.
    init(_ text: String) throws(APIError) {
        // Exactly the form `text` writes: `p`, then a positive number without sign or leading zero.
        let digits = text.utf8.dropFirst()
        guard text.hasPrefix("p"), (1...18).contains(digits.count), digits.first != UInt8(ascii: "0"),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let offset = Int(text.dropFirst()) else {
            throw .badParameter("'pageToken' must be a nextPageToken this server gave; got '\(text.echoed)'.")
        }
        self.offset = offset
    }

    var text: String { "p\(offset)" }
}
