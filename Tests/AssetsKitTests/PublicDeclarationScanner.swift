import Foundation

/// Finds the public declarations of Swift source that have no `///` doc comment.
///
/// A declaration counts as public when it says `public` or `open`, or when it stands directly
/// in a public protocol (a requirement) or a public enum (a case). Its doc comment is the line
/// above it, past any attribute lines (`@discardableResult`). The scan follows braces line by
/// line, which is enough for the plain layout of AssetsKit: one declaration to a line, no braces
/// in string literals.
struct PublicDeclarationScanner {
    /// An undocumented declaration: where it is and its first line.
    struct Finding: CustomStringConvertible, Equatable {
        let file: String
        let line: Int
        let text: String
        var description: String { "\(file):\(line): \(text)" }
    }

    private enum Scope { case publicProtocol, publicEnum, other }

    private static let keywords: Set<String> = [
        "func", "init", "var", "let", "struct", "enum", "protocol", "class", "actor", "typealias",
        "subscript", "case", "associatedtype", "extension",
    ]
    private static let modifiers: Set<String> = [
        "public", "open", "static", "final", "mutating", "nonmutating", "indirect", "override",
        "convenience", "required", "nonisolated", "private(set)", "fileprivate(set)", "internal(set)",
    ]

    /// The public declarations of `source` (named `file` in the findings) without a doc comment.
    static func undocumented(in source: String, file: String) -> [Finding] {
        let lines = source.components(separatedBy: "\n")
        var scopes: [Scope] = []
        var findings: [Finding] = []
        for (index, line) in lines.enumerated() {
            let words = declarationWords(line)
            let keyword = words.first { keywords.contains($0) }
            let modifiersBefore = words.prefix { !keywords.contains($0) }
            let isDeclaration = keyword != nil && modifiersBefore.allSatisfy { modifiers.contains($0) }
            let saysPublic = modifiersBefore.contains("public") || modifiersBefore.contains("open")
            let inside = scopes.last
            let isPublic = isDeclaration && keyword != "extension"
                && (saysPublic || (inside == .publicProtocol && keyword != "case") || (inside == .publicEnum && keyword == "case"))
            if isPublic, !isDocumented(lineAt: index, in: lines) {
                findings.append(Finding(file: file, line: index + 1, text: line.trimmingCharacters(in: .whitespaces)))
            }
            let opened: Scope = saysPublic && keyword == "protocol" ? .publicProtocol
                : saysPublic && keyword == "enum" ? .publicEnum : .other
            // The line's first brace opens the declaration's own body; any later one, a closure's.
            var isFirstBrace = true
            for character in code(of: line) {
                if character == "{" {
                    scopes.append(isFirstBrace ? opened : .other)
                    isFirstBrace = false
                }
                if character == "}" { _ = scopes.popLast() }
            }
        }
        return findings
    }

    /// The line without comments and string literals.
    private static func code(of line: String) -> String {
        var result = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if !inString, character == "/", previous == "/" { result.removeLast(); break }
            if character == "\"" { inString.toggle() } else if !inString { result.append(character) }
            previous = character
        }
        return result
    }

    /// The words of a line up to its first parenthesis, colon or brace, attributes left out.
    private static func declarationWords(_ line: String) -> [String] {
        var text = code(of: line).trimmingCharacters(in: .whitespaces)
        while text.hasPrefix("@") {
            guard let space = text.firstIndex(of: " ") else { return [] }
            text = String(text[space...]).trimmingCharacters(in: .whitespaces)
        }
        // `private(set)` is one modifier: keep its parentheses.
        text = text.replacingOccurrences(of: "(set)", with: "\u{1}")
        let head = text.prefix { !"(:{<=".contains($0) }
        return head.split(separator: " ").map {
            $0.replacingOccurrences(of: "\u{1}", with: "(set)").trimmingCharacters(in: CharacterSet(charactersIn: "?!"))
        }
    }

    private static func isDocumented(lineAt index: Int, in lines: [String]) -> Bool {
        var above = index - 1
        while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
        return above >= 0 && lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///")
    }
}
