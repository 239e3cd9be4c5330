import RippleCore

/// A problem with `ripple.yml`: where it is (file, line, column, key path), what is wrong, and a hint.
public struct ConfigError: RippleError, Equatable {
  /// The config file as the user named it or as it was found.
  public var file: String
  /// 1-based line and column, when the problem has a position in the file.
  public var line: Int?
  public var column: Int?
  /// Dotted path of the offending key, e.g. `selection.unowned` or `selection.inputs.Net[1]`.
  public var keyPath: String?
  public var message: String
  public var hint: String?

  public init(
    file: String, line: Int? = nil, column: Int? = nil, keyPath: String? = nil, message: String,
    hint: String? = nil
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.keyPath = keyPath
    self.message = message
    self.hint = hint
  }

  public var category: ErrorCategory { .usage }

  /// `ripple.yml:3:12: selection.unowned: `sometimes` is not a valid value (expected one of: all, ignore)`.
  public var description: String {
    var location = file
    if let line {
      location += ":\(line)"
      if let column { location += ":\(column)" }
    }
    var text = "\(location): "
    if let keyPath, !keyPath.isEmpty { text += "\(keyPath): " }
    text += message
    if let hint { text += " (\(hint))" }
    return text
  }
}
