/// A message for an HTTP answer with every absolute file path in it cut to its last component:
/// errors from the library and the image pipeline name files by path, and the server's layout
/// is nobody's business but the operator's (the log keeps the whole message).
enum PathFreeMessage {
    /// `text` with each absolute path (a `/` that does not follow a letter, digit, `.`, `:`
    /// or `/`, then at least one more `/`) replaced by its last component.
    static func of(_ text: String) -> String {
        guard text.contains("/") else { return text }
        var result = "", index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let before = index == text.startIndex ? nil : text[text.index(before: index)]
            if character == "/", !(before.map(Self.continuesAWord) ?? false) {
                let end = text[index...].firstIndex(where: Self.endsAPath) ?? text.endIndex
                let path = text[index..<end]
                if path.dropFirst().contains("/") {
                    result += path.split(separator: "/").last.map(String.init) ?? ""
                    index = end
                    continue
                }
            }
            result.append(character)
            index = text.index(after: index)
        }
        return result
    }

    private static func continuesAWord(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "." || character == ":" || character == "/"
    }

    private static func endsAPath(_ character: Character) -> Bool {
        character.isWhitespace || character == "'" || character == "\"" || character == ")" || character == ","
            || character == ";" || character == "`"
    }
}
