import PackageModel
import RippleCore

/// A symbolic link of a tree. Git stores one as a blob of mode 120000 whose bytes are `destination`.
public struct SymbolicLink: Sendable, Hashable {
  /// Repo-relative path of the link itself.
  public var path: String
  /// The link's text as written: relative to the link's folder, or absolute.
  public var destination: String

  public init(path: String, destination: String) {
    self.path = path
    self.destination = destination
  }
}

/// What each target reaches through symbolic links in its directory (docs/DESIGN.md, rule 3). Pure.
///
/// SwiftPM lists a target's sources by walking its directory and follows every link it meets, to a folder
/// or a file, inside the package or out of it (Swift 6.3.1: `swift package describe` lists them, `swift
/// build` compiles them). So `Sources/PluginA/Shared -> ../../Shared` makes `Shared/X.swift` a source of
/// `PluginA`, and a change there must select it. Ripple follows the same links, in the repository only:
///
/// - a link leaving the repository (absolute, or climbing out with `..`) is not followed (git does not
///   hold what it reaches, so no change there is ever seen): a warning;
/// - a chain of links resolves through at most `maximumHops` links (Linux's limit), else it is a cycle:
///   a warning (SwiftPM ignores it as a broken link);
/// - a link to a folder holding it (SwiftPM descends into it until the path is too long) is not
///   followed: a warning;
/// - a dangling link (nothing there yet) still counts: a file added there becomes a source.
public struct LinkedSources: Sendable {
  static let maximumHops = 40

  /// Link path → its text.
  private let destinations: [String: String]
  /// Sorted by path.
  private let links: [SymbolicLink]

  public init(links: [SymbolicLink]) {
    self.links = links.sorted { $0.path < $1.path }
    destinations = Dictionary(links.map { ($0.path, $0.destination) }, uniquingKeysWith: { first, _ in first })
  }

  enum Resolution: Hashable {
    /// Repo-relative, every link along it followed.
    case inside(String)
    case outside
    /// More than `maximumHops` links: a cycle.
    case cycle
  }

  /// `path` with every link along it followed, component by component as the kernel does (a `..` after a
  /// link climbs from where the link leads, not from the link's folder).
  func resolve(_ path: String) -> Resolution {
    var resolved: [Substring] = []
    var remaining = Array(path.split(separator: "/").reversed())
    var hops = 0
    while let part = remaining.popLast() {
      if part == "." { continue }
      if part == ".." {
        guard !resolved.isEmpty else { return .outside }
        resolved.removeLast()
        continue
      }
      resolved.append(part)
      guard let destination = destinations[resolved.joined(separator: "/")] else { continue }
      hops += 1
      if hops > Self.maximumHops { return .cycle }
      if destination.hasPrefix("/") { return .outside }
      resolved.removeLast()
      remaining.append(contentsOf: destination.split(separator: "/").reversed())
    }
    return .inside(resolved.isEmpty ? "." : resolved.joined(separator: "/"))
  }

  /// The paths reached through links from `directory` (links in it, then links in what those reach), and a
  /// warning per link not followed, naming `owner`.
  func reached(from directory: String, owner: String) -> (paths: [LinkedPath], warnings: [String]) {
    var folders = [directory]
    var paths: [LinkedPath] = []
    var warnings: [String] = []
    var next = 0
    while next < folders.count {
      let folder = folders[next]
      next += 1
      for link in links where RepoPath.isInside(link.path, directory: folder) {
        let named = "the symbolic link \(link.path) (→ \(link.destination)) in \(owner)"
        switch resolve(link.path) {
        case .outside:
          warnings.append(
            "\(named) leads out of the repository: SwiftPM compiles what it reaches, but Ripple sees no change there.")
        case .cycle:
          warnings.append("\(named) does not resolve within \(Self.maximumHops) links (a cycle); not followed.")
        case .inside(let destination):
          if RepoPath.isInside(link.path, directory: destination) {
            warnings.append("\(named) leads to a folder holding it (a cycle); not followed.")
          } else if !folders.contains(where: { RepoPath.isInside(destination, directory: $0) }) {
            paths.append(LinkedPath(path: destination, link: link.path))
            folders.append(destination)
          }
        }
      }
    }
    return (paths, warnings)
  }

  /// `graph` with each SwiftPM target's `linkedPaths` set, and the warnings about links not followed
  /// (sorted, each once).
  public func attach(to graph: PackageGraph) -> (graph: PackageGraph, warnings: [String]) {
    guard !links.isEmpty else { return (graph, []) }
    var warnings: Set<String> = []
    var graph = graph
    for p in graph.packages.indices where graph.packages[p].origin == nil {
      let package = graph.packages[p]
      for t in package.targets.indices {
        let target = package.targets[t]
        let owner = package.path == "." ? target.name : "\(package.path):\(target.name)"
        let found = reached(from: target.directory, owner: owner)
        graph.packages[p].targets[t].linkedPaths = found.paths.isEmpty ? nil : found.paths
        warnings.formUnion(found.warnings)
      }
    }
    return (graph, warnings.sorted())
  }
}
