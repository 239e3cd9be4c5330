/// The objects of one `project.pbxproj` as read, before resolution: id → the object's fields.
public struct PBXDocument: Sendable {
  /// The repo-relative project bundle (`App/MyApp.xcodeproj`).
  public var projectPath: String
  /// "worktree" or a short sha, for error messages.
  public var revision: String
  /// The `objects` dictionary as read, each a `.dictionary` with an `isa` (checked by `init`): kept as
  /// read rather than copied into a table of its own, which cost more than parsing on a large project.
  public var objects: PlistDictionary
  public var rootObject: String
  public var objectVersion: String
  /// The ids of the folder-synchronised groups (`PBXFileSystemSynchronizedRootGroup`), sorted: found while
  /// `init` checks every object, so that resolving does not look at every object again for them.
  public private(set) var synchronizedGroups: [String]

  /// Checks the top level (`objects`, `rootObject` naming a `PBXProject`).
  public init(projectPath: String, revision: String, plist: PlistValue) throws(XcodeError) {
    self.projectPath = projectPath
    self.revision = revision
    let file = projectPath + "/project.pbxproj"
    guard let objects = plist["objects"]?.dictionary else {
      throw .malformedProject(path: file, revision: revision, reason: "it has no `objects` dictionary")
    }
    var groups: [String] = []
    for (id, value) in objects {
      guard case .dictionary(let fields) = value, case .string(let isa) = fields["isa"] else {
        throw .malformedProject(path: file, revision: revision, reason: "object \(id) has no `isa`")
      }
      if isa == "PBXFileSystemSynchronizedRootGroup" { groups.append(id) }
    }
    guard let root = plist["rootObject"]?.string else {
      throw .malformedProject(path: file, revision: revision, reason: "it has no `rootObject`")
    }
    guard objects[root]?["isa"]?.string == "PBXProject" else {
      throw .missingObject(path: file, revision: revision, id: root, referencedBy: "rootObject")
    }
    self.objects = objects
    self.rootObject = root
    self.objectVersion = plist["objectVersion"]?.string ?? ""
    self.synchronizedGroups = groups.sorted()
  }

  public var filePath: String { projectPath + "/project.pbxproj" }

  /// The object `id`, which must exist: a dangling reference is a `missingObject` naming who refers to it
  /// (`referrer` is only made then).
  public func object(_ id: String, from referrer: @autoclosure () -> String) throws(XcodeError) -> PlistDictionary {
    guard case .dictionary(let fields) = objects[id] else {
      throw .missingObject(path: filePath, revision: revision, id: id, referencedBy: referrer())
    }
    return fields
  }

  /// The fields of object `id`, nil when there is none.
  public func fields(_ id: String) -> PlistDictionary? { objects[id]?.dictionary }
}
