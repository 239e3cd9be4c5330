import Foundation
import RippleConfig
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The parts of a `generate:` entry's run worked out without running it: its up-to-date key, its input
// files, and the checks on what its command wrote. The runner is GenerateRunner.swift; the rules are in
// docs/DESIGN.md, section 4 (`generate:`).

/// Everything that decides a generated entry's outputs; a receipt with another value is stale.
enum GenerateKey {
  /// SHA-256 over the command, the destination, each declared variable (`NAME=value` or `NAME unset`),
  /// each input's path and bytes (outputs of earlier entries included: they are inputs by then) and the
  /// toolchain command's output. Values are hashed, never stored.
  static func fingerprint(
    _ spec: GenerateSpec, inputs: [(path: String, sha256: String)], environment: [String: String],
    toolchainOutput: String?
  ) -> String {
    var parts = ["generate-v1", spec.destination, "\(spec.command.count)"] + spec.command
    parts += spec.outputs.map { "output " + $0 }
    for name in spec.environment.sorted() {
      parts.append(environment[name].map { "\(name)=\($0)" } ?? "\(name) unset")
    }
    for input in inputs.sorted(by: { $0.path < $1.path }) { parts += ["input", input.path, input.sha256] }
    if let toolchain = spec.toolchain { parts += ["toolchain"] + toolchain + [toolchainOutput ?? ""] }
    return FileHasher.sha256(of: Data(parts.joined(separator: "\u{1F}").utf8))
  }
}

/// Finds the repository files an input glob matches, on disk (generated and ignored files count: an
/// input may be an earlier entry's output).
enum InputMatcher {
  /// The folder names never searched: git's folder and Ripple's state and staging.
  static func skipped(_ name: String) -> Bool {
    name == ".git" || name == ".build" || ProtectedPaths.temporaryPrefixes.contains { name.hasPrefix($0) }
  }

  /// The leading segments of `glob` without wildcards: where the search starts (`""` for the root).
  static func literalPrefix(_ glob: Glob) -> String {
    var pattern = glob.pattern
    while pattern.hasPrefix("./") { pattern.removeFirst(2) }
    var parts: [Substring] = []
    for part in pattern.split(separator: "/") {
      if part.contains(where: { "*?[".contains($0) }) { break }
      parts.append(part)
    }
    return parts.joined(separator: "/")
  }

  /// Whether files written into `destination` could match `glob` (its literal prefix and the folder
  /// overlap): such an input may be missing until the entry that writes it has run.
  static func mayMatch(_ glob: Glob, under destination: String) -> Bool {
    let prefix = literalPrefix(glob)
    return prefix.isEmpty || RepoPath.isInside(prefix, directory: destination)
      || RepoPath.isInside(destination, directory: prefix)
  }

  /// Repo-relative files matching `glob`, sorted; symlinks are listed (the caller checks where they lead).
  static func files(matching glob: Glob, root: String) -> [String] {
    let prefix = literalPrefix(glob)
    let start = prefix.isEmpty ? root : root + "/" + prefix
    if FileIO.exists(start) && !FileIO.isDirectory(start) { return glob.matches(prefix) ? [prefix] : [] }
    var found: [String] = []
    var pending = [prefix]
    while let folder = pending.popLast() {
      let absolute = folder.isEmpty ? root : root + "/" + folder
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: absolute) else { continue }
      for name in names where !skipped(name) {
        let relative = folder.isEmpty ? name : folder + "/" + name
        if FileIO.isDirectory(root + "/" + relative) {
          pending.append(relative)
        } else if glob.matches(relative) {
          found.append(relative)
        }
      }
    }
    return found.sorted()
  }
}

/// What a command left in its staging folder, checked before anything is installed.
enum OutputCheck {
  /// `wrapper` holds only `output` (a write to `$RIPPLE_OUTPUT_DIR/..` lands beside it); every entry
  /// under `output` is a folder, a regular file, or a relative symlink that stays inside `output`.
  static func problems(wrapper: String, output: String) -> [(path: String, reason: String)] {
    var problems: [(path: String, reason: String)] = []
    let outputName = PathParts.name(output)
    for name in ((try? FileManager.default.contentsOfDirectory(atPath: wrapper)) ?? []).sorted()
    where name != outputName {
      problems.append(("$RIPPLE_OUTPUT_DIR/../\(name)", "the command wrote outside $RIPPLE_OUTPUT_DIR (through `..`)"))
    }
    guard let enumerator = FileManager.default.enumerator(atPath: output) else { return problems }
    while let relative = enumerator.nextObject() as? String {
      let path = output + "/" + relative
      if FileIO.isSymlink(path) {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
        if !staysInside(link: relative, target: target) {
          problems.append((relative, "it is a symlink to `\(target)`, outside $RIPPLE_OUTPUT_DIR"))
        }
      } else if !FileIO.isDirectory(path) && !isRegularFile(path) {
        problems.append((relative, "it is not a regular file, folder or symlink"))
      }
    }
    return problems
  }

  /// Whether a relative link target, read from the link's folder, stays inside the output folder.
  static func staysInside(link: String, target: String) -> Bool {
    guard !target.isEmpty, !target.hasPrefix("/") else { return false }
    var parts = link.split(separator: "/").dropLast().map(String.init)
    for part in target.split(separator: "/") where part != "." {
      if part == ".." {
        guard !parts.isEmpty else { return false }
        parts.removeLast()
      } else {
        parts.append(String(part))
      }
    }
    return !parts.isEmpty
  }

  private static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// Makes every regular file under `output` Ripple's own before it is installed: a file with other hard
  /// links (say, to a file outside the repository) is replaced by a private copy of its bytes, so the
  /// install never moves or shares that inode; setuid, setgid and sticky bits are dropped.
  static func makePrivate(_ output: String) throws {
    guard let enumerator = FileManager.default.enumerator(atPath: output) else { return }
    while let relative = enumerator.nextObject() as? String {
      let path = output + "/" + relative
      var info = stat()
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
      let mode = info.st_mode & 0o777
      if info.st_nlink > 1 {
        let copy = path + ".ripple-copy"
        try? FileIO.remove(copy)
        do {
          try FileManager.default.copyItem(atPath: path, toPath: copy)
        } catch {
          throw AssetsError.fileSystem(operation: "copy", path: path, reason: error.localizedDescription)
        }
        try FileIO.rename(copy, path)
      }
      guard chmod(path, mode) == 0 else { throw FileIO.failure("set the permissions of", path) }
    }
  }

  /// The declared outputs the command did not write.
  static func missing(_ expected: [String], in output: String) -> [String] {
    expected.filter { !FileIO.exists(output + "/" + $0) }
  }
}
