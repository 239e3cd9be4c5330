/// Xcode's "Find Implicit Dependencies" (docs/DESIGN.md, rule 12): a target that links or embeds a product
/// (`Library.framework` in its Frameworks or Embed Frameworks phase, or named by its `OTHER_LDFLAGS`:
/// `-framework Library`) depends on the target that builds it,
/// in its own project or in another project of the same workspace, without a `PBXTargetDependency`.
///
/// Products are matched by file name. When several targets build a product of that name, each is an edge
/// (a missed test costs more than an extra one). A project's candidates are the projects of every
/// workspace that lists it, itself included; a project in no workspace sees every project of the tree.
public struct ImplicitDependencies: Sendable {
  /// One implicit edge: the target (`project`, `target`) that builds the linked `product`.
  public struct Edge: Sendable, Hashable {
    public var project: String
    public var target: String
    public var product: String
    /// The `OTHER_LDFLAGS` flag that names the product; nil when a build phase links or embeds it.
    public var flag: String?

    public init(project: String, target: String, product: String, flag: String? = nil) {
      self.project = project
      self.target = target
      self.product = product
      self.flag = flag
    }

    /// "links Library.framework, the product of Library/Library.xcodeproj:Library, implicitly", or with a
    /// flag "links Library.framework through OTHER_LDFLAGS (-framework Library), the product of …".
    public var reason: String {
      let through = flag.map { " through OTHER_LDFLAGS (\($0))" } ?? ""
      return "links \(product)\(through), the product of \(project):\(target), implicitly"
    }
  }

  /// Product file name → the targets building it, by project path.
  private let producers: [String: [(project: String, target: String)]]
  /// Project path → the projects it shares a workspace with (itself included); absent: in no workspace.
  private let neighbours: [String: Set<String>]

  public init(projects: [XcodeProject], workspaces: [XcodeWorkspace]) {
    var producers: [String: [(project: String, target: String)]] = [:]
    for project in projects {
      for target in project.targets {
        if let product = target.productFile { producers[product, default: []].append((project.path, target.name)) }
      }
    }
    self.producers = producers
    var neighbours: [String: Set<String>] = [:]
    let known = Set(projects.map(\.path))
    for workspace in workspaces {
      let members = Set(workspace.references.filter(known.contains))
      for member in members { neighbours[member, default: []].formUnion(members) }
    }
    self.neighbours = neighbours
  }

  /// Target name → its implicit edges (sorted), for the targets of `project` that have any.
  public func edges(of project: XcodeProject) -> [String: [Edge]] {
    var result: [String: [Edge]] = [:]
    let candidates = neighbours[project.path]
    for target in project.targets where !target.linkedProducts.isEmpty || !target.linkerFlagProducts.isEmpty {
      // One edge per producer: a build phase's first, else the first flag naming it.
      var edges: [String: Edge] = [:]
      let uses =
        target.linkedProducts.map { (product: $0, flag: String?.none) }
        + target.linkerFlagProducts.map { (product: $0.product, flag: Optional($0.flag)) }
      for use in uses {
        for producer in producers[use.product] ?? []
        where candidates?.contains(producer.project) ?? true
          && !(producer.project == project.path && producer.target == target.name)
        {
          let key = producer.project + ":" + producer.target
          if edges[key] == nil {
            edges[key] = Edge(project: producer.project, target: producer.target, product: use.product, flag: use.flag)
          }
        }
      }
      if !edges.isEmpty {
        result[target.name] = edges.values.sorted {
          ($0.project, $0.target, $0.product) < ($1.project, $1.target, $1.product)
        }
      }
    }
    return result
  }
}
