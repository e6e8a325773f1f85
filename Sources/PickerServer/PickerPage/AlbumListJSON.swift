import NIOCore

/// The body of `GET api/albums`, `{"albums":[…]}`, written in one pass.
///
/// It is the first thing the picker page asks, and a library of twenty years of day folders lists
/// thousands of albums: Foundation's encoder, which builds a tree of boxed values before writing,
/// took about 14 ms for 2,005 of them, half of the answer. The bytes are the ones ``JSONResponse``'s
/// encoder writes for `["albums": albums]`: keys sorted, a poster or smart kind left out when there is none.
enum AlbumListJSON {
    static func body(_ albums: [AlbumResource]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(64 + albums.count * 160)
        buffer.writeStaticString(#"{"albums":["#)
        for (index, album) in albums.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            buffer.writeStaticString(#"{"count":"#)
            buffer.writeJSONNumber(album.count)
            buffer.writeStaticString(#","id":"#)
            buffer.writeJSONString(album.id)
            buffer.writeStaticString(#","kind":"#)
            buffer.writeJSONString(album.kind.rawValue)
            if let parent = album.parentId {
                buffer.writeStaticString(#","parentId":"#)
                buffer.writeJSONString(parent)
            }
            if let poster = album.posterId {
                buffer.writeStaticString(#","posterId":"#)
                buffer.writeJSONString(poster)
            }
            if let smartKind = album.smartKind {
                buffer.writeStaticString(#","smartKind":"#)
                buffer.writeJSONString(smartKind.rawValue)
            }
            buffer.writeStaticString(#","title":"#)
            buffer.writeJSONString(album.title)
            buffer.writeInteger(UInt8(ascii: "}"))
        }
        buffer.writeStaticString("]}")
        return buffer
    }
}
