import RippleConfig

/// The keys of a `runner: xcodebuild` run in `test.runs` (docs/DESIGN.md, "Test runs").
enum XcodebuildRunParser {
  static let keys = ["scheme", "project", "workspace", "destination", "configuration", "testPlan", "arguments"]

  /// Fills `run.xcodebuild` from the xcodebuild keys of its entry, or refuses them on a `swift` run.
  /// An xcodebuild run needs a scheme and a destination, names at most one container, and runs on macOS
  /// only (its default platform).
  static func complete(
    _ run: inout TestRunSpec, entries: [(key: String, value: YAMLValue)], element: YAMLValue, platformsGiven: Bool
  ) throws {
    guard run.runner == .xcodebuild else {
      if let (key, value) = entries.first {
        throw value.error(
          "`\(key)` is only for `runner: xcodebuild` (run `\(run.name)` uses `\(run.runner.rawValue)`)",
          hint: "add `runner: xcodebuild` or remove `\(key)`")
      }
      return
    }
    var values: [String: YAMLValue] = [:]
    for (key, value) in entries { values[key] = value }
    guard let scheme = try values["scheme"]?.string(), !scheme.isEmpty else {
      throw element.error(
        "the xcodebuild run `\(run.name)` needs a `scheme`", hint: "the name of a shared scheme, e.g. `scheme: MyApp`")
    }
    guard let destination = try values["destination"]?.string(), !destination.isEmpty else {
      throw element.error(
        "the xcodebuild run `\(run.name)` needs a `destination`",
        hint: "as xcodebuild takes it, e.g. `destination: \"platform=iOS Simulator,name=iPhone 16\"`")
    }
    var spec = XcodebuildRunSpec(scheme: scheme, destination: destination, location: element.location)
    if let value = values["project"] {
      spec.project = try container(value, suffix: ".xcodeproj")
    }
    if let value = values["workspace"] {
      if values["project"] != nil {
        throw value.error("a run names a `project` or a `workspace`, not both", hint: "keep the one xcodebuild builds")
      }
      spec.workspace = try container(value, suffix: ".xcworkspace")
    }
    spec.configuration = try values["configuration"]?.string()
    spec.testPlan = try values["testPlan"]?.string()
    spec.arguments = try values["arguments"]?.listElements().map { try $0.string() } ?? []
    if platformsGiven {
      if let linux = run.platforms.first(where: { $0 != .macos }) {
        throw element.error(
          "the xcodebuild run `\(run.name)` cannot run on \(linux.rawValue): xcodebuild exists only on macos",
          hint: "write `platforms: [macos]` or leave `platforms` out")
      }
    } else {
      run.platforms = [.macos]
    }
    run.xcodebuild = spec
  }

  /// A repo-relative path ending in `suffix` (a trailing `/` dropped).
  private static func container(_ value: YAMLValue, suffix: String) throws -> String {
    var path = try value.string()
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    guard path.hasSuffix(suffix), !path.hasPrefix("/") else {
      throw value.error("`\(path)` is not a repo-relative `*\(suffix)`", hint: "e.g. `App/MyApp\(suffix)`")
    }
    return path
  }
}
