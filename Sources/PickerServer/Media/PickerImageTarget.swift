/// The parts of a picker page's rendition request target,
/// `/picker/{session}/{token}/api/assets/{asset}/image?{query}`, read without decoding anything:
/// what ``RenditionFastPath`` answers. A target that would need decoding (`%` or `+` in the
/// query), repeats a parameter or has any other shape is not one; the router takes it.
struct PickerImageTarget {
    let session: Substring
    let token: Substring
    let asset: Substring
    /// The query's `name=value` pairs, in order.
    let parameters: [(name: Substring, value: Substring)]

    init?(_ target: String) {
        let text = Substring(target)
        let queryStart = text.utf8.firstIndex(of: UInt8(ascii: "?"))
        let path = queryStart.map { text[..<$0] } ?? text
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 8, parts[0].isEmpty, !parts[2].isEmpty, !parts[3].isEmpty,
              parts[1].elementsEqual("picker".utf8), parts[4].elementsEqual("api".utf8),
              parts[5].elementsEqual("assets".utf8), parts[7].elementsEqual("image".utf8) else { return nil }
        session = Substring(parts[2])
        token = Substring(parts[3])
        asset = Substring(parts[6])
        var parameters: [(name: Substring, value: Substring)] = []
        if let queryStart {
            let query = text[text.utf8.index(after: queryStart)...]
            for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")),
                      !pair.contains(UInt8(ascii: "%")), !pair.contains(UInt8(ascii: "+")) else { return nil }
                let name = Substring(pair[..<equals]), value = Substring(pair[pair.index(after: equals)...])
                guard !parameters.contains(where: { $0.name == name }) else { return nil }
                parameters.append((name, value))
            }
        }
        self.parameters = parameters
    }

    /// The value of the parameter `name`, if given.
    func value(_ name: String) -> Substring? {
        parameters.first { $0.name == name }?.value
    }
}
