import RippleConfig

/// `records:` of rippled.yml (`RecordsSettings`).
enum DaemonRecordsParser {
  static let keys = ["readTokenFile", "writeTokenFile", "signingKeyFile", "maxSize"]

  static func parse(_ value: YAMLValue) throws -> RecordsSettings {
    var settings = RecordsSettings()
    settings.enabled = true
    for (key, child) in try value.mappingEntries(allowedKeys: keys) {
      switch key {
      case "readTokenFile": settings.readTokenFile = try child.optionalPath()
      case "writeTokenFile": settings.writeTokenFile = try child.optionalPath()
      case "signingKeyFile": settings.signingKeyFile = try child.optionalPath()
      default: settings.maxBytes = Int64(try child.byteSize())
      }
    }
    return settings
  }
}
