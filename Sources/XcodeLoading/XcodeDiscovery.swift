import RippleCore

/// Finds the Xcode projects and workspaces of a tree (docs/DESIGN.md, rule 12).
public enum XcodeDiscovery {
  /// Every `*.xcodeproj` and `*.xcworkspace` folder holding a file of `files`, minus those under a `.build`
  /// or `.swiftpm` folder, workspaces inside a project (`project.xcworkspace`), and those matching
  /// `excludePackages` (the bundle or its folder). Sorted.
  public static func containers(in files: [String], excludePackages: [Glob]) -> (
    projects: [String], workspaces: [String]
  ) {
    var projects: Set<String> = []
    var workspaces: Set<String> = []
    for file in files {
      let parts = file.split(separator: "/")
      for (index, part) in parts.enumerated().dropLast() {
        if part == ".build" || part == ".swiftpm" { break }
        if part.hasSuffix(".xcodeproj") && part.count > 10 {
          projects.insert(parts[...index].joined(separator: "/"))
          break
        }
        if part.hasSuffix(".xcworkspace") && part.count > 12 {
          workspaces.insert(parts[...index].joined(separator: "/"))
          break
        }
      }
    }
    func kept(_ path: String) -> Bool {
      !excludePackages.contains { $0.matches(path) || $0.matches(RepoPath.parent(path)) }
    }
    return (projects.filter(kept).sorted(), workspaces.filter(kept).sorted())
  }

  /// The shared schemes of a project or workspace: `xcshareddata/xcschemes/*.xcscheme` (user schemes under
  /// `xcuserdata` are read only when it has none: `userSchemes`).
  public static func sharedSchemes(of container: String, in files: [String]) -> [String] {
    let folder = container + "/xcshareddata/xcschemes/"
    return files.filter {
      $0.hasPrefix(folder) && $0.hasSuffix(".xcscheme") && !$0.dropFirst(folder.count).contains("/")
    }
  }

  /// The personal schemes of a project or workspace (`xcuserdata/NAME.xcuserdatad/xcschemes/*.xcscheme`),
  /// every user's, sorted: what Xcode shows when the container shares no scheme.
  public static func userSchemes(of container: String, in files: [String]) -> [String] {
    let folder = container + "/xcuserdata/"
    return files.filter { file in
      guard file.hasPrefix(folder), file.hasSuffix(".xcscheme") else { return false }
      let parts = file.dropFirst(folder.count).split(separator: "/", omittingEmptySubsequences: false)
      return parts.count == 3 && parts[0].hasSuffix(".xcuserdatad") && parts[1] == "xcschemes"
    }.sorted()
  }

  /// The shared schemes of `container`, else (none shared) its users' schemes.
  public static func schemes(of container: String, in files: [String]) -> [String] {
    let shared = sharedSchemes(of: container, in: files)
    return shared.isEmpty ? userSchemes(of: container, in: files) : shared
  }
}
