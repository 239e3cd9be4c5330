import ConfigLoading
import RippleConfig
import Testing

/// Parses `text` (as `ripple.yml`) expecting a `ConfigError`, and returns it: a usage error naming the file.
func failure(_ text: String) throws -> ConfigError {
  do {
    _ = try ConfigLoader.parse(text, path: "ripple.yml")
  } catch let error as ConfigError {
    #expect(error.category == .usage)
    #expect(error.file == "ripple.yml")
    return error
  }
  Issue.record("expected a ConfigError for:\n\(text)")
  throw CancellationError()
}
