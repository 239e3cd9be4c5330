/// The list form of unit ids (`package:Name`, `package:*`) that `ripple test --targets` takes and the
/// generated pipelines write: ids joined by commas, with a comma or backslash inside an id escaped by a
/// backslash. A package folder may be named `Net,Tools` (and an Xcode target `A, B`): a plain split on
/// commas would turn one id into two that match nothing.
public enum TargetIDList {
  /// `["Packages/Net,Tools:NetTests", ".:AppTests"]` → `Packages/Net\,Tools:NetTests,.:AppTests`.
  public static func join(_ ids: [String]) -> String {
    ids.map { id in
      var escaped = ""
      for character in id {
        if character == "\\" || character == "," { escaped.append("\\") }
        escaped.append(character)
      }
      return escaped
    }.joined(separator: ",")
  }

  /// The ids of one `--targets` value: split on unescaped commas, escapes removed, surrounding
  /// whitespace trimmed, empty items dropped. A trailing lone backslash is kept as a character.
  public static func split(_ text: String) -> [String] {
    var ids: [String] = []
    var current = ""
    var escaping = false
    for character in text {
      if escaping {
        current.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "," {
        ids.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    if escaping { current.append("\\") }
    ids.append(current)
    return ids.map(trimmed).filter { !$0.isEmpty }
  }

  private static func trimmed(_ text: String) -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else {
      return ""
    }
    return String(text[first...last])
  }
}
