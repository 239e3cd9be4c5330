import ArgumentParser
import ConfigLoading
import Daemon
import DaemonSources
import DaemonSupport
import Foundation
import RippleConfig
import RippleCore

/// `rippled check-config`: validates rippled.yml, reads every secret file it names (as `serve` would) and
/// reaches every `remote:` it names, then prints the plan. Each failure is a line of its own on stderr,
/// naming rippled.yml's line where the setting is; with any failure there is no "ok" and the exit code is the
/// most severe failure's (2 a setting to fix, 3 the machine or the network).
struct CheckConfig: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check-config",
    abstract: "Validate the config file, read its secret files, reach its remotes and print what the service would do.")
  @OptionGroup var options: ConfigOption
  @Flag(
    help: """
      Do not reach the remotes (a package's own check of its example config, a machine without the network); \
      local paths are still checked.
      """)
  var offline = false

  /// How long a network remote has to answer ls-remote (at most; its `fetchTimeout` when shorter).
  static let remoteTimeout: Duration = .seconds(10)

  func run() async throws {
    let configuration = try DaemonConfigLoader.load(path: options.config)
    let lines = ConfigLines(path: options.config)
    var failures: [(line: String, category: ErrorCategory)] = []
    func fail(_ key: String, value: String?, _ message: String, _ category: ErrorCategory) {
      failures.append((lines.prefix(key: key, value: value) + message, category))
    }
    func failing(_ key: String, value: String?, _ body: () throws -> Void) {
      do {
        try body()
      } catch let error as RippleError {
        fail(key, value: value, "\(error)", error.category)
      } catch {
        fail(key, value: value, "\(error)", .environment)
      }
    }

    // The secret files, each read as `serve` reads it.
    var secrets: [(key: String, name: String, path: String?)] = [
      ("tokenFile", "http.tokenFile", configuration.http.tokenFile),
      ("webhookSecretFile", "http.webhookSecretFile", configuration.http.webhookSecretFile),
      ("readTokenFile", "records.readTokenFile", configuration.records.readTokenFile),
      ("writeTokenFile", "records.writeTokenFile", configuration.records.writeTokenFile),
    ]
    for repository in configuration.repositories {
      secrets.append(("tokenFile", "repository \(repository.name): status.tokenFile", repository.status?.tokenFile))
    }
    for (key, name, path) in secrets {
      guard let path else { continue }
      failing(key, value: path) { _ = try Rippled.secret(path, key: name) }
    }
    var signsAs: String?
    if let path = configuration.records.signingKeyFile {
      failing("signingKeyFile", value: path) {
        signsAs = try DaemonPassRecords.signingKeyPublicHalf(path)
      }
    }

    // Every remote answers; a working tree exists.
    for repository in configuration.repositories {
      switch repository.source {
      case .remote(let url):
        if offline && !RemoteProbe.isLocal(url) { continue }
        if let problem = RemoteProbe.problem(url: url, timeout: min(Self.remoteTimeout, repository.fetchTimeout)) {
          fail("remote", value: url, "repository \(repository.name): remote: \(problem)", .environment)
        }
      case .workingTree(let path):
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) || !isFolder.boolValue {
          fail("path", value: path, "repository \(repository.name): path: '\(path)' is not a folder", .usage)
        }
      }
    }

    let paths = DaemonPaths.resolve(configuration, environment: ProcessInfo.processInfo.environment)
    // `sandbox: required` without a working bwrap is an error of the config's, as for `serve`.
    var sandbox = ""
    do {
      sandbox = try await Rippled.sandboxSummary(configuration)
    } catch {
      fail("sandbox", value: nil, "\(error)", error.category)
    }

    guard failures.isEmpty else {
      for failure in failures { StandardError.write(failure.line + "\n") }
      let worst = failures.map(\.category).max { $0.rawValue < $1.rawValue } ?? .usage
      throw CheckConfigFailed(config: options.config, count: failures.count, category: worst)
    }
    print("\(options.config): ok")
    print("http: \(configuration.http.host):\(configuration.http.port)")
    print("state: \(paths.state)\ncache: \(paths.cache)\nlogs: \(paths.logs)")
    print(sandbox)
    if let signsAs {
      print("records: signed with the key in \(configuration.records.signingKeyFile ?? ""), public half \(signsAs)")
    }
    for repository in configuration.repositories {
      switch repository.source {
      case .remote(let url):
        let branches = repository.branches.map { $0.pattern + ($0.cancelRunning ? " (cancels running)" : "") }
        print("\(repository.name): fetch \(url) every \(repository.fetchInterval): \(branches.joined(separator: ", "))")
      case .workingTree(let path):
        print("\(repository.name): watch \(path) (\(repository.watch.rawValue), settle \(repository.settle))")
      }
    }
  }
}

/// `check-config` found problems (each already printed on its own line).
struct CheckConfigFailed: RippleError {
  var config: String
  var count: Int
  var category: ErrorCategory

  var description: String {
    "\(config): \(count) problem\(count == 1 ? "" : "s") (each above); the service would not work as configured"
  }
}

/// rippled.yml's lines, to name where a setting is (`rippled.yml:12: `): the first line setting `key` whose
/// value holds `value` (its file name, for a path the loader made absolute), else the first setting `key`.
struct ConfigLines {
  var path: String
  var lines: [Substring]

  init(path: String) {
    self.path = path
    lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(
      separator: "\n", omittingEmptySubsequences: false)
  }

  func prefix(key: String, value: String?) -> String {
    line(key: key, value: value).map { "\(path):\($0): " } ?? "\(path): "
  }

  func line(key: String, value: String?) -> Int? {
    let settingKey = lines.indices.filter { index in
      var text = lines[index].drop { $0 == " " }
      if text.hasPrefix("- ") { text = text.dropFirst(2).drop { $0 == " " } }
      return text.hasPrefix(key + ":")
    }
    let name = value.map { ($0 as NSString).lastPathComponent }
    if let name, !name.isEmpty, let index = settingKey.first(where: { lines[$0].contains(name) }) { return index + 1 }
    return settingKey.first.map { $0 + 1 }
  }
}
