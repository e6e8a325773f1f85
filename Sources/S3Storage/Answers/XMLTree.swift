import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML answer read into a small tree: S3's answers are a few levels of named elements with
/// text, which is all this keeps (no attributes, no mixed content).
///
/// External entities and DTDs are not resolved; the caller bounds the size before parsing.
struct XMLTree: Sendable {
    /// The element's name without namespace prefix.
    var name: String
    /// Its text, the concatenation of its character data (empty for an element with children).
    var text: String
    /// Its child elements, in order.
    var children: [XMLTree]

    /// The first child named `name`.
    func child(_ name: String) -> XMLTree? { children.first { $0.name == name } }

    /// Every child named `name`.
    func children(_ name: String) -> [XMLTree] { children.filter { $0.name == name } }

    /// The text of the first child named `name`.
    func text(_ name: String) -> String? { child(name)?.text }

    /// The tree of `data`, or `nil` when it is not well-formed XML.
    static func parse(_ data: Data) -> XMLTree? {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else { return nil }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLTree] = []
        var root: XMLTree?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(XMLTree(name: local, text: "", children: []))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard var element = stack.popLast() else { return }
            if !element.children.isEmpty { element.text = "" }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
