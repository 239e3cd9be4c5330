/// The objects of one `project.pbxproj` as read, before resolution: id → the object's fields.
public struct PBXDocument: Sendable {
  /// The repo-relative project bundle (`App/MyApp.xcodeproj`).
  public var projectPath: String
  /// "worktree" or a short sha, for error messages.
  public var revision: String
  public var objects: [String: [String: PlistValue]]
  public var rootObject: String
  public var objectVersion: String

  /// Checks the top level (`objects`, `rootObject` naming a `PBXProject`).
  public init(projectPath: String, revision: String, plist: PlistValue) throws(XcodeError) {
    self.projectPath = projectPath
    self.revision = revision
    let file = projectPath + "/project.pbxproj"
    guard let objects = plist["objects"]?.dictionary else {
      throw .malformedProject(path: file, revision: revision, reason: "it has no `objects` dictionary")
    }
    var table: [String: [String: PlistValue]] = [:]
    for (id, value) in objects {
      guard let fields = value.dictionary, fields["isa"]?.string != nil else {
        throw .malformedProject(path: file, revision: revision, reason: "object \(id) has no `isa`")
      }
      table[id] = fields
    }
    guard let root = plist["rootObject"]?.string else {
      throw .malformedProject(path: file, revision: revision, reason: "it has no `rootObject`")
    }
    guard table[root]?["isa"]?.string == "PBXProject" else {
      throw .missingObject(path: file, revision: revision, id: root, referencedBy: "rootObject")
    }
    self.objects = table
    self.rootObject = root
    self.objectVersion = plist["objectVersion"]?.string ?? ""
  }

  public var filePath: String { projectPath + "/project.pbxproj" }

  /// The object `id`, which must exist: a dangling reference is a `missingObject` naming who refers to it.
  public func object(_ id: String, from referrer: String) throws(XcodeError) -> [String: PlistValue] {
    guard let object = objects[id] else {
      throw .missingObject(path: filePath, revision: revision, id: id, referencedBy: referrer)
    }
    return object
  }
}
