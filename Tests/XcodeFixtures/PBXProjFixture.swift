import Foundation

/// Builds an Xcode project in code and writes real `project.pbxproj` text (the old-style property list
/// Xcode writes: sections, quoting, trailing separators), with groups, files, folder references,
/// folder-synchronised groups and their exceptions, Swift package references and product dependencies,
/// native targets of each kind with build phases, target dependencies and test hosts.
public struct PBXProjFixture: Sendable {
  public enum ProductType: String, Sendable {
    case app = "com.apple.product-type.application"
    case appClip = "com.apple.product-type.application.on-demand-install-capable"
    case appExtension = "com.apple.product-type.app-extension"
    case framework = "com.apple.product-type.framework"
    case unitTest = "com.apple.product-type.bundle.unit-test"
    case uiTest = "com.apple.product-type.bundle.ui-testing"
    case staticLibrary = "com.apple.product-type.library.static"

    var fileExtension: String {
      switch self {
      case .app, .appClip: "app"
      case .appExtension: "appex"
      case .framework: "framework"
      case .unitTest, .uiTest: "xctest"
      case .staticLibrary: "a"
      }
    }

    /// The product's file name, as Xcode names it: `Name.framework`, `libName.a`.
    func productFile(_ name: String) -> String {
      self == .staticLibrary ? "lib\(name).a" : "\(name).\(fileExtension)"
    }
  }

  /// An object: its section (isa) and fields, written in insertion order.
  private struct Object: Sendable {
    var isa: String
    var fields: [(String, Value)]
    var comment: String
  }

  public indirect enum Value: Sendable {
    case string(String)
    case list([Value])
    case dictionary([(String, Value)])
  }

  private var objects: [(id: String, object: Object)] = []
  private var counter = 0
  public let projectID: String
  public let mainGroup: String
  private let productsGroup: String
  private var targetIDs: [String] = []
  private var packageIDs: [String] = []
  private var targetAttributes: [(String, Value)] = []
  /// Project-wide build settings (Debug).
  public var projectSettings: [String: String] = ["SWIFT_VERSION": "5.0"]
  /// The project's Debug configuration's xcconfig file (a file reference id).
  public var projectBaseConfiguration: String?

  public init() {
    projectID = "0000000000000000000000AA"
    mainGroup = "0000000000000000000000AB"
    productsGroup = "0000000000000000000000AC"
    counter = 0
    objects = [
      (
        mainGroup,
        Object(
          isa: "PBXGroup", fields: [("children", .list([.string(productsGroup)])), ("sourceTree", .string("<group>"))],
          comment: "")
      ),
      (
        productsGroup,
        Object(
          isa: "PBXGroup",
          fields: [("children", .list([])), ("name", .string("Products")), ("sourceTree", .string("<group>"))],
          comment: "Products")
      ),
    ]
  }

  private mutating func newID() -> String {
    counter += 1
    return String(format: "%024X", 0xA0_0000 + counter)
  }

  private mutating func add(_ isa: String, _ fields: [(String, Value)], comment: String = "", id: String? = nil)
    -> String
  {
    let id = id ?? newID()
    objects.append((id, Object(isa: isa, fields: fields, comment: comment)))
    return id
  }

  private mutating func append(child: String, to group: String) {
    guard let index = objects.firstIndex(where: { $0.id == group }) else { return }
    var fields = objects[index].object.fields
    if let c = fields.firstIndex(where: { $0.0 == "children" }), case .list(let items) = fields[c].1 {
      fields[c].1 = .list(items + [.string(child)])
    }
    objects[index].object.fields = fields
  }

  // MARK: - Groups and files

  /// A group (`path` nil: a group without folder) inside `parent` (the main group by default).
  public mutating func group(
    _ path: String?, name: String? = nil, in parent: String? = nil, sourceTree: String = "<group>"
  )
    -> String
  {
    var fields: [(String, Value)] = [("children", .list([]))]
    if let name { fields.append(("name", .string(name))) }
    if let path { fields.append(("path", .string(path))) }
    fields.append(("sourceTree", .string(sourceTree)))
    let id = add("PBXGroup", fields, comment: name ?? path ?? "")
    append(child: id, to: parent ?? mainGroup)
    return id
  }

  /// A file reference at `path` relative to its group (or as `sourceTree` says).
  public mutating func file(_ path: String, in group: String? = nil, sourceTree: String = "<group>") -> String {
    let type =
      path.hasSuffix(".swift")
      ? "sourcecode.swift"
      : path.hasSuffix(".plist") ? "text.plist.xml" : path.hasSuffix(".xcconfig") ? "text.xcconfig" : "file"
    let id = add(
      "PBXFileReference",
      [("lastKnownFileType", .string(type)), ("path", .string(path)), ("sourceTree", .string(sourceTree))],
      comment: path)
    append(child: id, to: group ?? mainGroup)
    return id
  }

  /// A reference to a product built elsewhere (`sourceTree = BUILT_PRODUCTS_DIR`), as Xcode adds one when a
  /// framework of another project of the workspace is linked: `Library.framework`.
  public mutating func builtProduct(_ name: String, in group: String? = nil) -> String {
    let type = name.hasSuffix(".framework") ? "wrapper.framework" : name.hasSuffix(".a") ? "archive.ar" : "file"
    let id = add(
      "PBXFileReference",
      [("explicitFileType", .string(type)), ("path", .string(name)), ("sourceTree", .string("BUILT_PRODUCTS_DIR"))],
      comment: name)
    append(child: id, to: group ?? mainGroup)
    return id
  }

  /// A folder reference (blue folder), also how older Xcode added a local Swift package.
  public mutating func folderReference(_ path: String, in group: String? = nil) -> String {
    let id = add(
      "PBXFileReference",
      [("lastKnownFileType", .string("wrapper")), ("path", .string(path)), ("sourceTree", .string("<group>"))],
      comment: path)
    append(child: id, to: group ?? mainGroup)
    return id
  }

  /// A variant group (localised file) with one child per language folder.
  public mutating func variantGroup(_ name: String, languages: [String], in group: String? = nil) -> String {
    let id = add(
      "PBXVariantGroup", [("children", .list([])), ("name", .string(name)), ("sourceTree", .string("<group>"))])
    append(child: id, to: group ?? mainGroup)
    for language in languages {
      let child = add(
        "PBXFileReference",
        [
          ("lastKnownFileType", .string("text.plist.strings")), ("name", .string(language)),
          ("path", .string("\(language).lproj/\(name)")), ("sourceTree", .string("<group>")),
        ])
      append(child: child, to: id)
    }
    return id
  }

  /// A folder-synchronised root group (Xcode 16).
  public mutating func synchronizedFolder(_ path: String, in group: String? = nil) -> String {
    let id = add(
      "PBXFileSystemSynchronizedRootGroup",
      [("exceptions", .list([])), ("path", .string(path)), ("sourceTree", .string("<group>"))], comment: path)
    append(child: id, to: group ?? mainGroup)
    return id
  }

  /// Files of a synchronised folder whose membership in `target` is the exception.
  public mutating func membershipException(folder: String, target: String, files: [String]) {
    let id = add(
      "PBXFileSystemSynchronizedBuildFileExceptionSet",
      [("membershipExceptions", .list(files.map(Value.string))), ("target", .string(target))])
    guard let index = objects.firstIndex(where: { $0.id == folder }),
      let c = objects[index].object.fields.firstIndex(where: { $0.0 == "exceptions" }),
      case .list(let items) = objects[index].object.fields[c].1
    else { return }
    objects[index].object.fields[c].1 = .list(items + [.string(id)])
  }

  // MARK: - Packages

  public mutating func localPackage(_ relativePath: String) -> String {
    let id = add("XCLocalSwiftPackageReference", [("relativePath", .string(relativePath))])
    packageIDs.append(id)
    return id
  }

  public mutating func remotePackage(_ url: String, minimumVersion: String) -> String {
    let id = add(
      "XCRemoteSwiftPackageReference",
      [
        ("repositoryURL", .string(url)),
        (
          "requirement",
          .dictionary([("kind", .string("upToNextMajorVersion")), ("minimumVersion", .string(minimumVersion))])
        ),
      ])
    packageIDs.append(id)
    return id
  }

  // MARK: - Targets

  /// A product of a Swift package a target uses; `package` nil for a folder-reference package.
  public struct ProductUse: Sendable {
    public var name: String
    public var package: String?
    public init(_ name: String, package: String?) {
      self.name = name
      self.package = package
    }
  }

  /// A native target. `sources`/`resources` are file reference ids; `host` a target id (unit tests:
  /// `TEST_HOST` + `TestTargetID`; UI tests: `TEST_TARGET_NAME`).
  @discardableResult
  public mutating func target(
    _ name: String, _ type: ProductType, sources: [String] = [], resources: [String] = [],
    synchronized: [String] = [], settings: [String: String] = [:], dependencies: [String] = [],
    products: [ProductUse] = [], host: String? = nil, id: String? = nil,
    foreignDependencies: [(portal: String, remoteID: String, name: String)] = [], linked: [String] = [],
    embedded: [String] = [], baseConfiguration: String? = nil
  ) -> String {
    let targetID = id ?? newID()
    func buildFiles(_ refs: [String]) -> [Value] {
      refs.map { ref in .string(add("PBXBuildFile", [("fileRef", .string(ref))])) }
    }
    let sourcesPhase = add(
      "PBXSourcesBuildPhase",
      [
        ("buildActionMask", .string("2147483647")), ("files", .list(buildFiles(sources))),
        ("runOnlyForDeploymentPostprocessing", .string("0")),
      ])
    let resourcesPhase = add(
      "PBXResourcesBuildPhase",
      [
        ("buildActionMask", .string("2147483647")), ("files", .list(buildFiles(resources))),
        ("runOnlyForDeploymentPostprocessing", .string("0")),
      ])
    var productDependencies: [Value] = []
    var frameworkFiles: [Value] = buildFiles(linked)
    for product in products {
      var fields: [(String, Value)] = []
      if let package = product.package { fields.append(("package", .string(package))) }
      fields.append(("productName", .string(product.name)))
      let dependency = add("XCSwiftPackageProductDependency", fields, comment: product.name)
      productDependencies.append(.string(dependency))
      frameworkFiles.append(.string(add("PBXBuildFile", [("productRef", .string(dependency))])))
    }
    let frameworksPhase = add(
      "PBXFrameworksBuildPhase",
      [
        ("buildActionMask", .string("2147483647")), ("files", .list(frameworkFiles)),
        ("runOnlyForDeploymentPostprocessing", .string("0")),
      ])
    var phases: [Value] = [.string(sourcesPhase), .string(frameworksPhase), .string(resourcesPhase)]
    if !embedded.isEmpty {
      let files: [Value] = embedded.map { ref in
        .string(
          add(
            "PBXBuildFile",
            [
              ("fileRef", .string(ref)),
              (
                "settings",
                .dictionary([("ATTRIBUTES", .list([.string("CodeSignOnCopy"), .string("RemoveHeadersOnCopy")]))])
              ),
            ]))
      }
      phases.append(
        .string(
          add(
            "PBXCopyFilesBuildPhase",
            [
              ("buildActionMask", .string("2147483647")), ("dstPath", .string("")),
              ("dstSubfolderSpec", .string("10")), ("files", .list(files)), ("name", .string("Embed Frameworks")),
              ("runOnlyForDeploymentPostprocessing", .string("0")),
            ], comment: "Embed Frameworks")))
    }
    var dependencyIDs: [Value] = []
    var allDependencies = dependencies
    var buildSettings = settings
    buildSettings["PRODUCT_NAME"] = buildSettings["PRODUCT_NAME"] ?? "$(TARGET_NAME)"
    if let host {
      let hostName = targetName(host) ?? "Host"
      if type == .uiTest {
        buildSettings["TEST_TARGET_NAME"] = hostName
      } else {
        buildSettings["TEST_HOST"] =
          "$(BUILT_PRODUCTS_DIR)/\(hostName).app/$(BUNDLE_EXECUTABLE_FOLDER_PATH)/\(hostName)"
        buildSettings["BUNDLE_LOADER"] = "$(TEST_HOST)"
        targetAttributes.append(
          (targetID, .dictionary([("CreatedOnToolsVersion", .string("16.0")), ("TestTargetID", .string(host))])))
      }
      if !allDependencies.contains(host) { allDependencies.append(host) }
    }
    for dependency in allDependencies {
      dependencyIDs.append(.string(targetDependency(on: dependency)))
    }
    // A target of another project: the proxy's container is that project's file reference.
    for foreign in foreignDependencies {
      let proxy = add(
        "PBXContainerItemProxy",
        [
          ("containerPortal", .string(foreign.portal)), ("proxyType", .string("1")),
          ("remoteGlobalIDString", .string(foreign.remoteID)), ("remoteInfo", .string(foreign.name)),
        ])
      dependencyIDs.append(
        .string(add("PBXTargetDependency", [("name", .string(foreign.name)), ("targetProxy", .string(proxy))])))
    }
    var configurationFields: [(String, Value)] = []
    if let baseConfiguration { configurationFields.append(("baseConfigurationReference", .string(baseConfiguration))) }
    configurationFields += [
      ("buildSettings", .dictionary(buildSettings.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
      ("name", .string("Debug")),
    ]
    let configuration = add("XCBuildConfiguration", configurationFields, comment: "Debug")
    let list = add(
      "XCConfigurationList",
      [
        ("buildConfigurations", .list([.string(configuration)])), ("defaultConfigurationIsVisible", .string("0")),
        ("defaultConfigurationName", .string("Debug")),
      ])
    let product = add(
      "PBXFileReference",
      [
        ("explicitFileType", .string(type == .staticLibrary ? "archive.ar" : "wrapper." + type.fileExtension)),
        ("includeInIndex", .string("0")),
        ("path", .string(type.productFile(name))), ("sourceTree", .string("BUILT_PRODUCTS_DIR")),
      ])
    append(child: product, to: productsGroup)
    var fields: [(String, Value)] = [
      ("buildConfigurationList", .string(list)),
      ("buildPhases", .list(phases)),
      ("buildRules", .list([])), ("dependencies", .list(dependencyIDs)),
    ]
    if !synchronized.isEmpty { fields.append(("fileSystemSynchronizedGroups", .list(synchronized.map(Value.string)))) }
    fields += [
      ("name", .string(name)), ("packageProductDependencies", .list(productDependencies)),
      ("productName", .string(name)), ("productReference", .string(product)), ("productType", .string(type.rawValue)),
    ]
    _ = add("PBXNativeTarget", fields, comment: name, id: targetID)
    targetIDs.append(targetID)
    return targetID
  }

  /// An aggregate target (`PBXAggregateTarget`) running a shell script whose inputs are `scriptInputs`.
  @discardableResult
  public mutating func aggregateTarget(_ name: String, scriptInputs: [String], dependencies: [String] = []) -> String {
    let script = add(
      "PBXShellScriptBuildPhase",
      [
        ("buildActionMask", .string("2147483647")), ("files", .list([])),
        ("inputPaths", .list(scriptInputs.map(Value.string))), ("outputPaths", .list([])),
        ("runOnlyForDeploymentPostprocessing", .string("0")), ("shellPath", .string("/bin/sh")),
        ("shellScript", .string("./generate.sh\n")),
      ])
    return otherTarget(
      "PBXAggregateTarget", name, fields: [("buildPhases", .list([.string(script)]))], dependencies: dependencies)
  }

  /// A legacy target (`PBXLegacyTarget`): `tool` run with `arguments` in `workingDirectory`.
  @discardableResult
  public mutating func legacyTarget(_ name: String, tool: String, arguments: String, workingDirectory: String)
    -> String
  {
    otherTarget(
      "PBXLegacyTarget", name,
      fields: [
        ("buildArgumentsString", .string(arguments)), ("buildPhases", .list([])), ("buildToolPath", .string(tool)),
        ("buildWorkingDirectory", .string(workingDirectory)), ("passBuildSettingsInEnvironment", .string("1")),
      ], dependencies: [])
  }

  private mutating func otherTarget(
    _ isa: String, _ name: String, fields extra: [(String, Value)], dependencies: [String]
  ) -> String {
    let targetID = newID()
    var dependencyIDs: [Value] = []
    for dependency in dependencies {
      dependencyIDs.append(.string(targetDependency(on: dependency)))
    }
    let configuration = add(
      "XCBuildConfiguration", [("buildSettings", .dictionary([])), ("name", .string("Debug"))], comment: "Debug")
    let list = add(
      "XCConfigurationList",
      [
        ("buildConfigurations", .list([.string(configuration)])), ("defaultConfigurationIsVisible", .string("0")),
        ("defaultConfigurationName", .string("Debug")),
      ])
    let fields: [(String, Value)] =
      [("buildConfigurationList", .string(list))] + extra + [
        ("dependencies", .list(dependencyIDs)), ("name", .string(name)), ("productName", .string(name)),
      ]
    _ = add(isa, fields, comment: name, id: targetID)
    targetIDs.append(targetID)
    return targetID
  }

  /// A `PBXTargetDependency` on a target of this project, through its `PBXContainerItemProxy`.
  private mutating func targetDependency(on dependency: String) -> String {
    let proxy = add(
      "PBXContainerItemProxy",
      [
        ("containerPortal", .string(projectID)), ("proxyType", .string("1")),
        ("remoteGlobalIDString", .string(dependency)), ("remoteInfo", .string(targetName(dependency) ?? "")),
      ])
    return add("PBXTargetDependency", [("target", .string(dependency)), ("targetProxy", .string(proxy))])
  }

  private func targetName(_ id: String) -> String? {
    guard let object = objects.first(where: { $0.id == id })?.object else { return nil }
    for (key, value) in object.fields where key == "name" { if case .string(let s) = value { return s } }
    return nil
  }

  // MARK: - Text

  /// The `project.pbxproj` text.
  public func text() -> String {
    var all = objects
    let projectConfiguration = "0000000000000000000000AD"
    let projectList = "0000000000000000000000AE"
    all.append(
      (
        projectConfiguration,
        Object(
          isa: "XCBuildConfiguration",
          fields: (projectBaseConfiguration.map { [("baseConfigurationReference", Value.string($0))] } ?? []) + [
            (
              "buildSettings",
              .dictionary(projectSettings.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
            ),
            ("name", .string("Debug")),
          ], comment: "Debug")
      ))
    all.append(
      (
        projectList,
        Object(
          isa: "XCConfigurationList",
          fields: [
            ("buildConfigurations", .list([.string(projectConfiguration)])),
            ("defaultConfigurationIsVisible", .string("0")), ("defaultConfigurationName", .string("Debug")),
          ], comment: "")
      ))
    all.append(
      (
        projectID,
        Object(
          isa: "PBXProject",
          fields: [
            (
              "attributes",
              .dictionary([
                ("BuildIndependentTargetsInParallel", .string("1")), ("LastSwiftUpdateCheck", .string("1600")),
                ("LastUpgradeCheck", .string("1600")), ("TargetAttributes", .dictionary(targetAttributes)),
              ])
            ),
            ("buildConfigurationList", .string(projectList)), ("developmentRegion", .string("en")),
            ("hasScannedForEncodings", .string("0")), ("knownRegions", .list([.string("en"), .string("Base")])),
            ("mainGroup", .string(mainGroup)), ("minimizedProjectReferenceProxies", .string("1")),
            ("packageReferences", .list(packageIDs.map(Value.string))),
            ("preferredProjectObjectVersion", .string("77")),
            ("productRefGroup", .string(productsGroup)), ("projectDirPath", .string("")), ("projectRoot", .string("")),
            ("targets", .list(targetIDs.map(Value.string))),
          ], comment: "Project object")
      ))
    var sections: [String: [(String, Object)]] = [:]
    for (id, object) in all { sections[object.isa, default: []].append((id, object)) }
    var text = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 77;\n\tobjects = {\n"
    for isa in sections.keys.sorted() {
      text += "\n/* Begin \(isa) section */\n"
      for (id, object) in sections[isa]!.sorted(by: { $0.0 < $1.0 }) {
        let comment = object.comment.isEmpty ? "" : " /* \(object.comment) */"
        let fields = [("isa", Value.string(object.isa))] + object.fields
        let single = isa == "PBXBuildFile" || isa == "PBXFileReference"
        if single {
          text += "\t\t\(id)\(comment) = {" + fields.map { "\($0.0) = \(render($0.1, indent: "")); " }.joined() + "};\n"
        } else {
          text += "\t\t\(id)\(comment) = {\n"
          for (key, value) in fields { text += "\t\t\t\(key) = \(render(value, indent: "\t\t\t"));\n" }
          text += "\t\t};\n"
        }
      }
      text += "/* End \(isa) section */\n"
    }
    text += "\t};\n\trootObject = \(projectID) /* Project object */;\n}\n"
    return text
  }

  private func render(_ value: Value, indent: String) -> String {
    switch value {
    case .string(let s): return Self.quote(s)
    case .list(let items):
      if items.isEmpty { return "(\n\(indent))" }
      return "(\n" + items.map { "\(indent)\t\(render($0, indent: indent + "\t")),\n" }.joined() + "\(indent))"
    case .dictionary(let fields):
      return "{\n"
        + fields.map { "\(indent)\t\(Self.quote($0.0)) = \(render($0.1, indent: indent + "\t"));\n" }.joined()
        + "\(indent)}"
    }
  }

  /// Xcode leaves plain words unquoted and quotes the rest.
  static func quote(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "_./".unicodeScalars.contains($0) }
    if plain { return text }
    return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }
}
