import Foundation
import RippleCore
import XcodeModel

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads `contents.xcworkspacedata` (XML, Foundation's `XMLParser`): the projects and package folders a
/// workspace holds.
public enum WorkspaceReader {
  /// `path` is the repo-relative `.xcworkspace` bundle.
  public static func workspace(_ bytes: [UInt8], path: String, revision: String) throws(XcodeError) -> XcodeWorkspace {
    let delegate = Delegate(base: RepoPath.parent(path))
    let parser = XMLParser(data: Data(bytes))
    parser.delegate = delegate
    guard parser.parse(), delegate.closedWorkspace else {
      throw .malformedWorkspace(
        path: path + "/contents.xcworkspacedata", revision: revision,
        reason: parser.parserError.map { "not valid XML: \(($0 as NSError).localizedDescription)" }
          ?? "no complete <Workspace> element")
    }
    return XcodeWorkspace(path: path, references: delegate.references)
  }

  private final class Delegate: NSObject, XMLParserDelegate {
    let base: String
    /// Set at `</Workspace>` with every group closed: false for a truncated file (libxml2 may not say).
    var closedWorkspace = false
    /// The folders of the enclosing groups; `group:` locations are relative to the innermost.
    var groups: [String]
    var references: [String] = []

    init(base: String) {
      self.base = base
      groups = [base]
    }

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      switch name {
      case "Group": groups.append(resolve(attributes["location"]) ?? groups.last ?? base)
      case "FileRef":
        if let location = resolve(attributes["location"]) { references.append(location) }
      default: break
      }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      if name == "Group", groups.count > 1 { groups.removeLast() }
      if name == "Workspace" { closedWorkspace = groups.count == 1 }
    }

    /// `group:X` (relative to the enclosing group) and `container:X` (to the workspace's folder); nil for
    /// `absolute:`, `self:` and locations outside the repository.
    private func resolve(_ location: String?) -> String? {
      guard let location else { return nil }
      let path: String
      if location.hasPrefix("group:") {
        path = RepoPath.join(groups.last ?? base, String(location.dropFirst(6)))
      } else if location.hasPrefix("container:") {
        path = RepoPath.join(base, String(location.dropFirst(10)))
      } else {
        return nil
      }
      return path == ".." || path.hasPrefix("../") ? nil : path
    }
  }
}
