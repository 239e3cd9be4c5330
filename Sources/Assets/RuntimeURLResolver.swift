import AssetFetch
import Foundation
import RippleConfig
import RippleCore
import SystemClients

/// Resolves a `urlEnv` / `urlCommand` source into its URL (docs/DESIGN.md, section 4).
///
/// The URL is a secret (a pre-signed link): it is returned to the caller only, and every reason given
/// for not having one names the variable or the command, never the value. No URL means no access:
/// placeholders, or exit 3 with `--require-private`.
struct RuntimeURLResolver: Sendable {
  var environment: [String: String]
  var process: ProcessClient
  /// A command that prints a URL should answer within this (`heroku config:get` takes a second or two).
  var timeout: Duration = .seconds(60)

  /// Why no URL is available, in words that never contain it.
  struct Unavailable: Error, Hashable {
    var reason: String
  }

  func resolve(_ source: RuntimeURL) async -> Result<String, Unavailable> {
    switch source {
    case .environment(let variable):
      guard let value = environment[variable] else { return .failure(.init(reason: "$\(variable) is not set")) }
      let url = value.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !url.isEmpty else { return .failure(.init(reason: "$\(variable) is empty")) }
      return Self.checked(url, from: "$\(variable) holds")
    case .command(let argv):
      let shown = source.description
      guard let tool = ToolLocator.find(argv[0], path: environment["PATH"]) else {
        return .failure(.init(reason: "`\(argv[0])` (the urlCommand) is not on PATH"))
      }
      let result: ProcessResult
      do {
        result = try await process.run(ProcessRequest(tool, Array(argv.dropFirst()), timeout: timeout))
      } catch {
        return .failure(.init(reason: "\(shown) could not run: \(Redaction.text("\(error)"))"))
      }
      guard result.succeeded else {
        let last = result.errorString.split(separator: "\n").last.map { ": " + Redaction.text(String($0)) } ?? ""
        return .failure(.init(reason: "\(shown) exited with status \(result.exitStatus)\(last)"))
      }
      let url = result.outputString.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !url.isEmpty else { return .failure(.init(reason: "\(shown) printed no URL")) }
      return Self.checked(url, from: "\(shown) printed")
    }
  }

  /// One http(s) URL on one line; anything else is described without being quoted.
  private static func checked(_ url: String, from what: String) -> Result<String, Unavailable> {
    let lowered = url.lowercased()
    guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"), !url.contains(where: \.isWhitespace),
      URLComponents(string: url)?.host?.isEmpty == false
    else {
      return .failure(.init(reason: "\(what) something that is not an http(s) URL (not shown)"))
    }
    return .success(url)
  }
}

extension Bootstrapper {
  /// The asset with its run-time URL resolved (once per run), where that URL came from (`$VAR`, the command:
  /// the fetcher shows that instead of the secret URL), and whether its source can be read.
  func accessCheck(_ spec: AssetSpec, access: AccessAnswers) async -> (
    spec: AssetSpec, link: String?, status: AccessStatus
  ) {
    var spec = spec
    var link: String?
    if case .runtimeURL(let source) = spec.source {
      let resolver = RuntimeURLResolver(environment: options.environment, process: process)
      switch await access.url(source, { await resolver.resolve(source) }) {
      case .success(let url):
        spec.source = .https(urls: [url])
        link = source.description
      case .failure(let unavailable): return (spec, nil, .missingCredentials(unavailable.reason))
      }
    }
    let request = spec.accessRequest(link: link)
    return (spec, link, await access.answer(spec.id, { await fetcher.checkAccess(request) }))
  }
}
