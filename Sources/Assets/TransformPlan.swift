import Foundation
import RippleConfig

/// One tool run: `argv` turns `input` (relative to the extracted tree) into `output` (relative to the
/// variant's staging folder).
struct TransformStep: Sendable, Hashable {
  var input: String
  var output: String
  var variantIndex: Int
  var argv: [String]
}

/// What a transform does to an extracted file set, worked out before anything runs (pure).
struct TransformPlan: Sendable, Hashable {
  var steps: [TransformStep]
  /// Files the transform does not apply to, copied as they are into every variant.
  var passthrough: [String]

  /// `inputRoot` and `stagingRoots` (one per variant, or one when there are none) are absolute.
  static func make(
    _ spec: TransformSpec, assetID: String, files: [String], inputRoot: String, stagingRoots: [String]
  ) throws -> TransformPlan {
    let variants = spec.variants.isEmpty ? [nil] : spec.variants.map { Optional($0) }
    var steps: [TransformStep] = []
    var passthrough: [String] = []
    var outputs = FileNameRegistry()
    for file in files {
      guard spec.files.isEmpty || spec.files.contains(where: { $0.matches(file) }) else {
        passthrough.append(file)
        if let conflict = outputs.insert(file) {
          throw AssetsError.nameCollision(asset: assetID, first: conflict.earlier, second: file)
        }
        continue
      }
      let name = PathParts.name(file)
      let stem = PathParts.stem(name)
      let directory = PathParts.parent(file)
      for (index, variant) in variants.enumerated() {
        var values = variant?.variables ?? [:]
        values["name"] = name
        values["stem"] = stem
        let outputName = substitute(spec.outputName, values)
        let output = directory.isEmpty ? outputName : directory + "/" + outputName
        if index == 0, let conflict = outputs.insert(output) {
          throw AssetsError.nameCollision(asset: assetID, first: conflict.earlier, second: output)
        }
        values["input"] = inputRoot + "/" + file
        values["output"] = stagingRoots[index] + "/" + output
        steps.append(
          TransformStep(
            input: file, output: output, variantIndex: index, argv: spec.command.map { substitute($0, values) }))
      }
    }
    return TransformPlan(steps: steps, passthrough: passthrough)
  }

  /// Replaces each `{key}` with its value; unknown tokens were rejected when the config was parsed.
  static func substitute(_ text: String, _ values: [String: String]) -> String {
    var result = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      result += rest[..<open]
      let after = rest[rest.index(after: open)...]
      if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
        result += value
        rest = after[after.index(after: close)...]
      } else {
        result += "{"
        rest = after
      }
    }
    return result + rest
  }
}

/// Finds executables on PATH the way `execvp` does.
enum ToolLocator {
  static func find(_ tool: String, path: String?) -> String? {
    if tool.contains("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
    let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    for directory in directories where !directory.isEmpty {
      let candidate = directory + "/" + tool
      if FileManager.default.isExecutableFile(atPath: candidate), !FileIO.isDirectory(candidate) { return candidate }
    }
    return nil
  }
}
