import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Parses a page or picture as XML (the pages are XHTML-parsable on purpose) and answers XPath questions.
struct XML {
  let document: XMLDocument

  init(_ text: String) throws {
    document = try XMLDocument(data: Data(text.utf8), options: [])
  }

  /// Elements by local name, optionally with a class token, in document order.
  func elements(_ name: String, class token: String? = nil) throws -> [XMLElement] {
    var path = "//*[local-name()='\(name)']"
    if let token { path += "[contains(concat(' ', normalize-space(@class), ' '), ' \(token) ')]" }
    return try document.nodes(forXPath: path).compactMap { $0 as? XMLElement }
  }

  /// All text of the document (escapes resolved).
  var text: String { document.rootElement()?.stringValue ?? "" }
}

extension XMLElement {
  /// (`attribute(forName:)` misses attributes of namespaced elements in swift-corelibs-foundation.)
  func attribute(_ name: String) -> String? {
    (attributes ?? []).first { $0.name == name || $0.localName == name }?.stringValue
  }
  func number(_ name: String) -> Double { Double(attribute(name) ?? "") ?? .nan }
  func children(named name: String) -> [XMLElement] {
    (children ?? []).compactMap { $0 as? XMLElement }.filter { $0.localName == name || $0.name == name }
  }
}
