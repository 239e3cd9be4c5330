import PackageLoading
import PackageModel
import RippleCore
import XcodeModel

/// The Xcode side of one revision: its projects, shared schemes and the test plans they use.
public struct XcodeSnapshot: Sendable {
  public var projects: [XcodeProject] = []
  public var workspaces: [XcodeWorkspace] = []
  public var schemes: [XcodeScheme] = []
  /// By repo-relative path.
  public var testPlans: [String: XcodeTestPlan] = [:]
  /// Every project and workspace found, sorted.
  public var containers: [String] = []
  /// One error per project, scheme or test plan that could not be read.
  public var failures: [XcodeError] = []
  /// The projects left out because their `project.pbxproj` could not be read.
  public var failedProjects: [String] = []

  public var projectsByPath: [String: XcodeProject] {
    Dictionary(projects.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
  }
}

/// Reads the Xcode projects of a tree (docs/DESIGN.md, rule 12) and adds them to its package graph.
public enum XcodeLoader {
  /// Discovers and reads every project, shared scheme and referenced test plan of `tree`. A file that
  /// cannot be read is listed in `failures`, the rest is still read.
  public static func load(_ tree: TreeSnapshot, excludePackages: [Glob]) -> XcodeSnapshot {
    load(tree, files: (try? tree.files()) ?? [], excludePackages: excludePackages)
  }

  /// As `load(_:excludePackages:)`, with the tree's file list already made.
  public static func load(_ tree: TreeSnapshot, files: [String], excludePackages: [Glob]) -> XcodeSnapshot {
    var snapshot = XcodeSnapshot()
    let found = XcodeDiscovery.containers(in: files, excludePackages: excludePackages)
    snapshot.containers = (found.projects + found.workspaces).sorted()
    for path in found.projects {
      do throws(XcodeError) {
        let bytes = try read(path + "/project.pbxproj", in: tree) {
          .malformedProject(path: $0, revision: tree.label, reason: $1)
        }
        let document = try ProjectFileReader.document(bytes, projectPath: path, revision: tree.label)
        snapshot.projects.append(try ProjectResolver.resolve(document, repositoryRoot: tree.workingDirectoryRoot))
      } catch {
        snapshot.failures.append(error)
        snapshot.failedProjects.append(path)
      }
    }
    for path in found.workspaces where files.contains(path + "/contents.xcworkspacedata") {
      do throws(XcodeError) {
        let bytes = try read(path + "/contents.xcworkspacedata", in: tree) {
          .malformedWorkspace(path: $0, revision: tree.label, reason: $1)
        }
        snapshot.workspaces.append(try WorkspaceReader.workspace(bytes, path: path, revision: tree.label))
      } catch {
        snapshot.failures.append(error)
      }
    }
    for container in snapshot.containers {
      for path in XcodeDiscovery.sharedSchemes(of: container, in: files) {
        do throws(XcodeError) {
          let bytes = try read(path, in: tree) { .malformedScheme(path: $0, revision: tree.label, reason: $1) }
          let scheme = try SchemeReader.scheme(bytes, path: path, container: container, revision: tree.label)
          snapshot.schemes.append(scheme)
          let base = XcodeScheme.referenceBase(ofContainer: container)
          for reference in scheme.testPlans where snapshot.testPlans[reference.path] == nil {
            // A plan the scheme names but the tree lacks is reported by `--format xcodebuild`, which needs it.
            guard let planBytes = try? tree.read(reference.path) else { continue }
            snapshot.testPlans[reference.path] = try TestPlanFile.plan(
              planBytes, path: reference.path, base: base, revision: tree.label)
          }
        } catch {
          snapshot.failures.append(error)
        }
      }
    }
    return snapshot
  }

  /// `graph` with the snapshot's projects added as packages of origin `.xcodeProject`.
  public static func merge(_ snapshot: XcodeSnapshot, into graph: PackageGraph, files: [String]) -> PackageGraph {
    guard !snapshot.projects.isEmpty || !snapshot.schemes.isEmpty || !snapshot.workspaces.isEmpty else { return graph }
    return XcodeGraphMapper.merge(
      snapshot.projects, workspaces: snapshot.workspaces, schemes: snapshot.schemes, testPlans: snapshot.testPlans,
      into: graph, files: Set(files))
  }

  /// The bytes of `path`, which must exist; `makeError` builds the error from the path and a reason.
  public static func read(
    _ path: String, in tree: TreeSnapshot, error makeError: (String, String) -> XcodeError
  ) throws(XcodeError) -> [UInt8] {
    let bytes: [UInt8]?
    do {
      bytes = try tree.read(path)
    } catch {
      throw makeError(path, "\(error)")
    }
    guard let bytes else { throw makeError(path, "the file is missing") }
    return bytes
  }
}
