import Foundation

/// A small YAML document for the generated CI pipelines, written in block style.
///
/// Every string value is written as a JSON string, which is also a YAML double-quoted scalar: nothing a
/// reason or a path holds (`:`, `#`, `*`, quotes, `yes`, a leading digit) can change what a CI system
/// reads. Keys are written plain when they are plain identifiers and quoted otherwise.
enum PipelineYAML: Sendable {
  case string(String)
  case list([PipelineYAML])
  case map([(key: String, value: PipelineYAML)])

  /// The document: `comments` as `#` lines, then the value, newline-terminated.
  func render(comments: [String]) -> String {
    let header = comments.map { "# " + $0.replacingOccurrences(of: "\n", with: " ") }
    return (header + lines(indent: 0)).joined(separator: "\n") + "\n"
  }

  private func lines(indent: Int) -> [String] {
    let pad = String(repeating: " ", count: indent)
    switch self {
    case .string(let text):
      return [pad + Self.quoted(text)]
    case .list(let items):
      guard !items.isEmpty else { return [pad + "[]"] }
      return items.flatMap { item -> [String] in
        var lines = item.lines(indent: indent + 2)
        // "- " takes the place of the first line's indentation.
        lines[0] = pad + "- " + lines[0].dropFirst(indent + 2)
        return lines
      }
    case .map(let entries):
      guard !entries.isEmpty else { return [pad + "{}"] }
      return entries.flatMap { entry -> [String] in
        let key = pad + Self.key(entry.key) + ":"
        switch entry.value {
        case .string(let text): return [key + " " + Self.quoted(text)]
        case .list(let items) where items.isEmpty: return [key + " []"]
        case .map(let items) where items.isEmpty: return [key + " {}"]
        case .list, .map: return [key] + entry.value.lines(indent: indent + 2)
        }
      }
    }
  }

  private static func key(_ text: String) -> String {
    let plain =
      text.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } ?? false
      && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    return plain ? text : quoted(text)
  }

  static func quoted(_ text: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    // Encoding a string cannot fail.
    return String(decoding: try! encoder.encode(text), as: UTF8.self)
  }
}
