import PackageModel
import RippleCore

/// Resolves a `PBXDocument` into an `XcodeProject` (docs/DESIGN.md, rule 12): the group tree into paths
/// (source trees `<group>`, `SOURCE_ROOT`, `<absolute>`; others such as `BUILT_PRODUCTS_DIR` are not files
/// of the repository), build phases into files, folder-synchronised groups and their membership
/// exceptions, Info.plist, entitlements and xcconfig files from build configurations, target and package
/// product dependencies, and test hosts.
public struct ProjectResolver {
  let document: PBXDocument
  /// The absolute repository root when known (the working tree): `<absolute>` paths under it count.
  let repositoryRoot: String?
  let sourceRoot: String
  /// Object id → repo-relative location (nil: not a file of the repository), for the group tree.
  private var locations: [String: String?] = [:]
  /// The ids of the file references met in the group tree (each once), whose locations are the project's
  /// files: kept while walking rather than looked for among every object afterwards.
  private var fileReferenceIDs: [String] = []
  /// Reads the xcconfig files of build configurations (nil: they are owned, not read).
  let xcconfigs: XcconfigReader?
  /// What the project's own configurations give each configuration of a target, by configuration name:
  /// the settings of the project's xcconfig and of the project (the levels under the target's).
  private var projectLevels: [String: [BuildSettingAssignment]] = [:]
  /// The project-level xcconfig files and their includes: every target's settings come from them.
  private var projectFiles: [String] = []
  /// Warnings of this project (unresolved variables), each once.
  private let warnings = Warnings()
  /// The project's app targets: the hosts a test bundle may have when its `TEST_HOST` cannot be resolved.
  private var appTargets: [String] = []

  /// `xcconfigs` reads the xcconfig files the configurations name (docs/DESIGN.md, rule 12); without
  /// one their settings are not read (the files are still owned).
  public static func resolve(
    _ document: PBXDocument, repositoryRoot: String? = nil, xcconfigs: XcconfigReader? = nil
  ) throws(XcodeError) -> XcodeProject {
    var resolver = try ProjectResolver(document: document, repositoryRoot: repositoryRoot, xcconfigs: xcconfigs)
    return try resolver.resolve()
  }

  private init(document: PBXDocument, repositoryRoot: String?, xcconfigs: XcconfigReader?) throws(XcodeError) {
    self.document = document
    self.repositoryRoot = repositoryRoot
    self.xcconfigs = xcconfigs
    let project = try document.object(document.rootObject, from: "rootObject")
    let projectDirectory = RepoPath.parent(document.projectPath)
    sourceRoot = FastPath.join(projectDirectory, project["projectDirPath"]?.string ?? "")
  }

  private mutating func resolve() throws(XcodeError) -> XcodeProject {
    let project = try document.object(document.rootObject, from: "rootObject")
    if let mainGroup = project["mainGroup"]?.string {
      locations.reserveCapacity(document.objects.count)
      try walk(mainGroup, from: "PBXProject.mainGroup", in: sourceRoot)
    }

    let packageReferences = try packages(of: project)
    let projectConfigurations = try configurations(project["buildConfigurationList"]?.string, owner: "PBXProject")
    for entry in projectConfigurations.entries {
      projectLevels[entry.name] = entry.assignments
    }
    projectFiles = projectConfigurations.files
    let targetIDs = project["targets"]?.strings ?? []
    var productOwners: [String: String] = [:]
    var names: [String: String] = [:]
    var productFiles: [String: String] = [:]
    for id in targetIDs {
      let target = try document.object(id, from: "PBXProject.targets")
      names[id] = target["name"]?.string ?? id
      if XcodeTarget.kind(ofProductType: target["productType"]?.string ?? "") == .app, let name = names[id] {
        appTargets.append(name)
      }
      if let product = target["productReference"]?.string {
        productOwners[product] = names[id]
        if let file = Self.productFile(document.objects[product]?.dictionary) { productFiles[file] = names[id] }
      }
    }
    let exceptions = membershipExceptions()
    let attributes = project["attributes"]?["TargetAttributes"]?.dictionary ?? [:]
    var targets: [XcodeTarget] = []
    for id in targetIDs {
      let object = try document.object(id, from: "PBXProject.targets")
      guard Self.targetKinds.contains(object["isa"]?.string ?? "") else { continue }
      targets.append(
        try target(
          id, object, names: names, productOwners: productOwners, productFiles: productFiles,
          exceptions: exceptions[id] ?? [],
          attributes: attributes[id], packages: packageReferences))
    }
    let fileReferences = fileReferenceIDs.compactMap { locations[$0] ?? nil }
    var resolved = XcodeProject(
      path: document.projectPath, name: Self.projectName(document.projectPath), sourceRoot: sourceRoot,
      fingerprint: try projectFingerprint(project, configurations: projectConfigurations), targets: targets,
      packageReferences: packageReferences, fileReferences: fileReferences.sorted())
    resolved.warnings = (xcconfigs?.warnings ?? []) + warnings.messages
    return resolved
  }

  /// The file name of a product reference: `Library.framework`.
  static func productFile(_ file: PlistDictionary?) -> String? {
    (file?["path"]?.string ?? file?["name"]?.string).flatMap { $0.split(separator: "/").last.map(String.init) }
  }

  static func projectName(_ path: String) -> String {
    let last = path.split(separator: "/").last.map(String.init) ?? path
    return last.hasSuffix(".xcodeproj") ? String(last.dropLast(10)) : last
  }

  // MARK: - Group tree

  /// Records the location of `id` and its children, `directory` being the parent group's folder.
  private mutating func walk(_ id: String, from referrer: @autoclosure () -> String, in directory: String?)
    throws(XcodeError)
  {
    let object = try document.object(id, from: referrer())
    let location = locate(object, parent: directory)
    if locations.updateValue(location, forKey: id) == nil, object["isa"]?.string == "PBXFileReference" {
      fileReferenceIDs.append(id)
    }
    for child in object["children"]?.strings ?? [] {
      try walk(child, from: "group \(id)", in: location)
    }
  }

  /// The repo-relative path of a file reference or group; nil when it is not a file of the repository.
  private func locate(_ object: PlistDictionary, parent: String?) -> String? {
    let path = object["path"]?.string
    switch object["sourceTree"]?.string ?? "<group>" {
    case "<group>":
      guard let parent else { return nil }
      return path.map { inside(FastPath.join(parent, $0)) } ?? parent
    case "SOURCE_ROOT":
      return path.map { inside(FastPath.join(sourceRoot, $0)) } ?? sourceRoot
    case "<absolute>":
      guard let path, let root = repositoryRoot, path.hasPrefix(root + "/") else { return nil }
      return RepoPath.normalize(String(path.dropFirst(root.count + 1)))
    default:
      return nil
    }
  }

  /// Nil for a path that leaves the repository.
  private func inside(_ path: String) -> String? {
    path == ".." || path.hasPrefix("../") ? nil : path
  }

  /// The location of an object, also one outside the main group (then relative to the source root).
  private func location(of id: String, from referrer: @autoclosure () -> String) throws(XcodeError) -> String? {
    if let known = locations[id] { return known }
    return locate(try document.object(id, from: referrer()), parent: sourceRoot)
  }

  /// The paths a build file's reference stands for: the file, or every file of a variant or version group.
  private func paths(of id: String, from referrer: @autoclosure () -> String) throws(XcodeError) -> [String] {
    let object = try document.object(id, from: referrer())
    var result: [String] = []
    if object["path"] != nil, let location = try location(of: id, from: referrer()) { result.append(location) }
    for child in object["children"]?.strings ?? [] { result += try paths(of: child, from: "group \(id)") }
    return result
  }

  // MARK: - Targets

  private func target(
    _ id: String, _ object: PlistDictionary, names: [String: String], productOwners: [String: String],
    productFiles: [String: String], exceptions: [(group: String, files: [String])], attributes: PlistValue?,
    packages: [XcodePackageReference]
  ) throws(XcodeError) -> XcodeTarget {
    let name = names[id] ?? id
    let productType = object["productType"]?.string ?? ""
    var paths: [String] = []
    var excluded: [String] = []
    var dependencies: [String] = []
    var products: [XcodeProductDependency] = []
    var foreign: [XcodeForeignDependency] = []
    var fingerprint: PlistDictionary = [
      "name": .string(name), "productType": .string(productType),
      "productName": object["productName"] ?? .string(""), "attributes": attributes ?? .string(""),
    ]

    // Build configurations: Info.plist, entitlements, xcconfig files, the test host, linker flags.
    let settings = try configurations(object["buildConfigurationList"]?.string, owner: "target \(name)")
    fingerprint["configurations"] = .dictionary(settings.fingerprints)
    paths += settings.files + projectFiles
    let levels = settings.entries.map { entry in
      BuildSettings(
        assignments: (projectLevels[entry.name] ?? []) + entry.assignments,
        builtins: builtins(target: name, configuration: entry.name))
    }
    let user = "`\(document.projectPath)` target \(name)"
    for configuration in levels {
      for key in ["INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS"] {
        paths += settingPaths(configuration.values(key), setting: "`\(key)`", user: user)
      }
    }
    var flagged: Set<LinkerFlags.Use> = []
    for configuration in levels {
      for value in configuration.values("OTHER_LDFLAGS") {
        flagged.formUnion(LinkerFlags.uses(in: BuildSettingWords.split(value.text)))
      }
    }

    // A legacy target runs an external tool (`make`) in a folder: what the folder holds may be its input.
    let isa = object["isa"]?.string ?? ""
    if isa == "PBXLegacyTarget" {
      var legacy: PlistDictionary = [:]
      for key in ["buildToolPath", "buildArgumentsString", "buildWorkingDirectory", "passBuildSettingsInEnvironment"] {
        legacy[key] = object[key]
      }
      fingerprint["legacy"] = .dictionary(legacy)
      let directory = object["buildWorkingDirectory"]?.string ?? ""
      let tool = object["buildToolPath"]?.string ?? ""
      for configuration in levels {
        paths +=
          directory.isEmpty
          ? [sourceRoot]
          : settingPaths(configuration.expand(directory), setting: "`buildWorkingDirectory`", user: user)
        // A tool of the repository (`$(SRCROOT)/scripts/build.sh`); a bare name is looked up in PATH.
        if tool.contains("/") {
          paths += settingPaths(configuration.expand(tool), setting: "`buildToolPath`", user: user)
        }
      }
    }

    // Build phases and their files.
    var phases: [PlistValue] = []
    var linked: [String] = []
    for phaseID in object["buildPhases"]?.strings ?? [] {
      let phase = try document.object(phaseID, from: "target \(name)")
      let links = Self.linkingPhases.contains(phase["isa"]?.string ?? "")
      var entry = phase
      var files: [PlistValue] = []
      for buildFileID in phase["files"]?.strings ?? [] {
        let buildFile = try document.object(buildFileID, from: "build phase \(phaseID)")
        if let ref = buildFile["fileRef"]?.string {
          if let producer = productOwners[ref] {
            dependencies.append(producer)
            files.append(.string("product of " + producer))
          } else if links, let product = try linkedProduct(ref, from: "build file \(buildFileID)") {
            // A product another target may build (Xcode's implicit dependencies): matched by name across
            // the workspace's projects when the graph is put together (XcodeGraphMapper).
            linked.append(product.name)
            if let path = product.path { paths.append(path) }
            files.append(.string("links " + product.name))
          } else {
            let found = try self.paths(of: ref, from: "build file \(buildFileID)")
            paths += found
            files += found.map(PlistValue.string)
          }
        }
        if let productRef = buildFile["productRef"]?.string {
          let product = try productDependency(productRef, from: "build file \(buildFileID)")
          products.append(product)
          files.append(.string("package product " + product.name))
        }
        if let fileSettings = buildFile["settings"] { files.append(fileSettings) }
      }
      for key in ["inputPaths", "inputFileListPaths"] {
        for value in phase[key]?.strings ?? [] {
          for configuration in levels {
            paths += settingPaths(configuration.expand(value), setting: "the script input `\(value)`", user: user)
          }
        }
      }
      entry["files"] = .array(files)
      phases.append(.dictionary(entry))
    }
    fingerprint["phases"] = .array(phases)

    // Folder-synchronised groups (Xcode 16): the folder minus this target's exceptions; exceptions on a
    // folder the target does not have add those files (an exception toggles membership).
    let synchronised = object["fileSystemSynchronizedGroups"]?.strings ?? []
    var folders: [PlistValue] = []
    for group in synchronised {
      guard let folder = try location(of: group, from: "target \(name)") else { continue }
      paths.append(folder)
      folders.append(.string(folder))
    }
    for exception in exceptions {
      guard let folder = try location(of: exception.group, from: "target \(name)") else { continue }
      let files = exception.files.map { FastPath.join(folder, $0) }
      if synchronised.contains(exception.group) { excluded += files } else { paths += files }
      folders.append(.string("exceptions \(folder): " + exception.files.sorted().joined(separator: ",")))
    }
    fingerprint["folders"] = .array(folders)

    // Dependencies: target dependencies (package plugins among them), package products.
    for dependencyID in object["dependencies"]?.strings ?? [] {
      let dependency = try document.object(dependencyID, from: "target \(name)")
      if let targetID = dependency["target"]?.string, let other = names[targetID] {
        dependencies.append(other)
      } else if let proxyID = dependency["targetProxy"]?.string,
        let proxy = document.objects[proxyID], let remote = proxy["remoteGlobalIDString"]?.string,
        let other = names[remote]
      {
        dependencies.append(other)
      } else if let proxyID = dependency["targetProxy"]?.string, let proxy = document.objects[proxyID],
        let portal = proxy["containerPortal"]?.string, portal != document.rootObject,
        let remote = proxy["remoteInfo"]?.string, !remote.isEmpty,
        let project = try location(of: portal, from: "target proxy \(proxyID)"), project.hasSuffix(".xcodeproj")
      {
        // A target of another project (a workspace's cross-project dependency); one outside the
        // repository has no location and is left out.
        foreign.append(XcodeForeignDependency(project: project, target: remote))
      }
      if let productRef = dependency["productRef"]?.string {
        products.append(try productDependency(productRef, from: "target dependency \(dependencyID)"))
      }
    }
    for productRef in object["packageProductDependencies"]?.strings ?? [] {
      products.append(try productDependency(productRef, from: "target \(name)"))
    }

    // The host app of a test bundle.
    var host: String?
    if let hostID = attributes?["TestTargetID"]?.string, let hostName = names[hostID] { host = hostName }
    var unresolvedHost = false
    for configuration in levels where host == nil {
      for value in configuration.values("TEST_TARGET_NAME") where host == nil && names.values.contains(value.text) {
        host = value.text
      }
      for value in configuration.values("TEST_HOST") where host == nil {
        if let app = Self.appName(inTestHost: value.text) {
          // The app's product (`MyApp.app`), else a target of that name.
          host = productFiles[app + ".app"] ?? (names.values.contains(app) ? app : nil)
        }
        if host == nil && !value.unresolved.isEmpty { unresolvedHost = true }
      }
    }
    if let host {
      dependencies.append(host)
    } else if unresolvedHost {
      // A host Ripple cannot name: every app of the project may be it (a missed test costs more).
      let apps = appTargets.filter { $0 != name }.sorted()
      dependencies += apps
      warnings.add(
        "\(user): `TEST_HOST` uses a build setting Ripple cannot resolve; every app of the project "
          + "(\(apps.joined(separator: ", "))) is taken as its host.")
    }

    var seen: Set<String> = []
    let dependencyNames = dependencies.filter { $0 != name && seen.insert($0).inserted }
    fingerprint["dependencies"] = .array(dependencyNames.sorted().map(PlistValue.string))
    fingerprint["products"] = .array(
      products.map { product in
        let package = product.packageReference.flatMap { id in packages.first { $0.id == id }?.identity } ?? ""
        return .string(product.name + "@" + package)
      }.sorted { $0.canonicalText < $1.canonicalText })
    let foreignDependencies = Array(Set(foreign)).sorted()
    if !foreignDependencies.isEmpty {
      fingerprint["foreignDependencies"] = .array(
        foreignDependencies.map { .string($0.project + ":" + $0.target) })
    }
    var target = XcodeTarget(
      id: id, name: name, productType: productType,
      kind: isa == "PBXNativeTarget" ? XcodeTarget.kind(ofProductType: productType) : .aggregate,
      paths: Self.unique(paths), excludedPaths: Self.unique(excluded), dependencies: dependencyNames, host: host,
      productDependencies: Array(Set(products)).sorted {
        ($0.name, $0.packageReference ?? "") < ($1.name, $1.packageReference ?? "")
      },
      fingerprint: PlistValue.dictionary(fingerprint).canonicalText)
    target.foreignDependencies = foreignDependencies
    target.linkedProducts = Self.unique(linked)
    target.linkerFlagProducts = flagged.sorted { ($0.product, $0.flag) < ($1.product, $1.flag) }
    if let product = object["productReference"]?.string {
      target.productFile = Self.productFile(document.objects[product]?.dictionary)
    }
    return target
  }

  /// The targets that are nodes of the graph: native ones, and aggregate and legacy ones (kind `aggregate`).
  static let targetKinds: Set<String> = ["PBXNativeTarget", "PBXAggregateTarget", "PBXLegacyTarget"]

  /// The phases whose files Xcode's "Find Implicit Dependencies" looks at: linked and embedded products.
  static let linkingPhases: Set<String> = ["PBXFrameworksBuildPhase", "PBXCopyFilesBuildPhase"]

  /// The file extensions of products a target builds and another links or embeds.
  static let productExtensions: Set<String> = [
    "framework", "a", "dylib", "so", "app", "appex", "bundle", "xpc", "xctest", "tbd",
  ]

  /// A linked or embedded file that may be another target's product: a `BUILT_PRODUCTS_DIR` reference or
  /// a reference proxy (a product of a referenced project), else any reference whose name has a product's
  /// extension (matched by name, like Xcode). `path` is its location when it is a file of the repository.
  private func linkedProduct(_ id: String, from referrer: @autoclosure () -> String) throws(XcodeError) -> (
    name: String, path: String?
  )? {
    let object = try document.object(id, from: referrer())
    guard let isa = object["isa"]?.string, isa == "PBXFileReference" || isa == "PBXReferenceProxy",
      let written = object["path"]?.string ?? object["name"]?.string,
      let name = written.split(separator: "/").last.map(String.init)
    else { return nil }
    let builtProduct = object["sourceTree"]?.string == "BUILT_PRODUCTS_DIR" || isa == "PBXReferenceProxy"
    let suffix = name.split(separator: ".").last.map(String.init) ?? ""
    guard builtProduct || (name.contains(".") && Self.productExtensions.contains(suffix)) else { return nil }
    return (name, builtProduct ? nil : try location(of: id, from: referrer()))
  }

  /// `MyApp` from `$(BUILT_PRODUCTS_DIR)/MyApp.app/$(BUNDLE_EXECUTABLE_FOLDER_PATH)/MyApp`.
  static func appName(inTestHost value: String) -> String? {
    for part in value.split(separator: "/") where part.hasSuffix(".app") && part.count > 4 {
      return String(part.dropLast(4))
    }
    return nil
  }

  private func productDependency(_ id: String, from referrer: @autoclosure () -> String) throws(XcodeError)
    -> XcodeProductDependency
  {
    let object = try document.object(id, from: referrer())
    var name = object["productName"]?.string ?? ""
    // Build-tool plugins are written `plugin:Name`.
    if name.hasPrefix("plugin:") { name.removeFirst(7) }
    return XcodeProductDependency(name: name, packageReference: object["package"]?.string)
  }

  // MARK: - Build settings

  private struct Configurations {
    /// Per configuration: its name and its assignments (its xcconfig's, then its own settings).
    var entries: [(name: String, assignments: [BuildSettingAssignment])] = []
    /// The xcconfig files (and their includes).
    var files: [String] = []
    var fingerprints: PlistDictionary = [:]
  }

  private func configurations(_ listID: String?, owner: @autoclosure () -> String) throws(XcodeError) -> Configurations
  {
    var result = Configurations()
    guard let listID else { return result }
    let list = try document.object(listID, from: owner())
    for id in list["buildConfigurations"]?.strings ?? [] {
      let configuration = try document.object(id, from: "configuration list \(listID)")
      let settings = configuration["buildSettings"]?.dictionary ?? [:]
      let name = configuration["name"]?.string ?? id
      var fingerprint: PlistDictionary = ["settings": .dictionary(settings)]
      var base: String?
      if let reference = configuration["baseConfigurationReference"]?.string,
        let path = try location(of: reference, from: "configuration \(id)")
      {
        base = path
      }
      if let anchor = configuration["baseConfigurationReferenceAnchor"]?.string,
        let relative = configuration["baseConfigurationReferenceRelativePath"]?.string,
        let folder = try location(of: anchor, from: "configuration \(id)")
      {
        base = FastPath.join(folder, relative)
      }
      var assignments: [BuildSettingAssignment] = []
      if let base {
        result.files.append(base)
        fingerprint["base"] = .string(base)
        if let xcconfigs {
          let who = owner() == "PBXProject" ? "project" : owner()
          let read = xcconfigs.settings(of: base, user: "`\(document.projectPath)` \(who), configuration \(name)")
          assignments = read.assignments
          result.files += read.files
        }
      }
      result.entries.append((name, assignments + BuildSettingAssignment.assignments(of: settings)))
      result.fingerprints[name] = .dictionary(fingerprint)
    }
    return result
  }

  /// What Xcode defines itself for a target's configuration. The source root is a marker that
  /// `settingPaths` turns into the project's folder.
  private func builtins(target: String, configuration: String) -> [String: String] {
    let project = Self.projectName(document.projectPath)
    var values = [
      "TARGET_NAME": target, "TARGETNAME": target, "PRODUCT_NAME": target, "PROJECT_NAME": project,
      "PROJECT": project, "CONFIGURATION": configuration,
    ]
    for root in ["SRCROOT", "PROJECT_DIR", "SOURCE_ROOT"] { values[root] = Self.sourceRootMarker }
    return values
  }

  static let sourceRootMarker = "\u{1}"

  /// Settings that point into the build folders or the toolchain, never at a file of the repository: a
  /// path starting with one is left out without a warning.
  static let buildLocations: Set<String> = [
    "BUILT_PRODUCTS_DIR", "TARGET_BUILD_DIR", "CONFIGURATION_BUILD_DIR", "BUILD_DIR", "BUILD_ROOT", "SYMROOT",
    "OBJROOT", "DERIVED_FILE_DIR", "DERIVED_FILES_DIR", "DERIVED_SOURCES_DIR", "DERIVED_DATA_DIR",
    "SHARED_DERIVED_FILE_DIR", "PROJECT_TEMP_DIR", "TARGET_TEMP_DIR", "TEMP_DIR", "TEMP_FILES_DIR",
    "CONFIGURATION_TEMP_DIR", "OBJECT_FILE_DIR", "SDKROOT", "SDK_DIR", "DEVELOPER_DIR", "PLATFORM_DIR",
    "TOOLCHAIN_DIR", "DT_TOOLCHAIN_DIR", "HOME", "INSTALL_DIR", "DSTROOT", "CACHE_ROOT", "SCRIPT_OUTPUT_FILE_0",
    "UNLOCALIZED_RESOURCES_FOLDER_PATH", "CONTENTS_FOLDER_PATH", "EXECUTABLE_PATH", "WRAPPER_NAME",
  ]

  /// The repository paths the values of a path setting name, relative to the source root. A value using
  /// a variable Ripple cannot resolve is left out with a warning (a change to that file then counts as
  /// unowned), unless it starts in a build folder (`$(BUILT_PRODUCTS_DIR)/…`: not a repository file).
  func settingPaths(_ values: [BuildSettings.Value], setting: String, user: String) -> [String] {
    var paths: [String] = []
    for value in values {
      if let unresolved = value.unresolved.first {
        guard !Self.buildLocations.contains(unresolved) else { continue }
        warnings.add(
          "\(user): \(setting) uses `$(\(unresolved))`, which no build setting or xcconfig file Ripple read "
            + "defines; that path is not owned by the target (a change to it counts as unowned).")
        continue
      }
      if let path = settingPath(value.text) { paths.append(path) }
    }
    return paths
  }

  /// A path from an expanded setting: under the source root marker or relative, in the source root; an
  /// absolute one only under the repository root.
  func settingPath(_ text: String) -> String? {
    var text = text
    var fromRoot = false
    if text.hasPrefix(Self.sourceRootMarker) {
      text.removeFirst(Self.sourceRootMarker.count)
      fromRoot = true
      while text.hasPrefix("/") { text.removeFirst() }
    }
    guard !text.isEmpty || fromRoot, !text.contains(Self.sourceRootMarker) else { return nil }
    if text.hasPrefix("/") {
      guard let root = repositoryRoot, text.hasPrefix(root + "/") else { return nil }
      return RepoPath.normalize(String(text.dropFirst(root.count + 1)))
    }
    return text.isEmpty ? sourceRoot : inside(FastPath.join(sourceRoot, text))
  }

  // MARK: - Project-wide

  /// Synchronised-folder membership exceptions per target id: (folder group id, files relative to it).
  private func membershipExceptions() -> [String: [(group: String, files: [String])]] {
    var result: [String: [(group: String, files: [String])]] = [:]
    // The synchronised groups, by id (a stable order), as the document found them.
    for groupID in document.synchronizedGroups {
      let group = document.objects[groupID]
      for exceptionID in group?["exceptions"]?.strings ?? [] {
        guard let exception = document.objects[exceptionID],
          exception["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet",
          let target = exception["target"]?.string
        else { continue }
        result[target, default: []].append((groupID, exception["membershipExceptions"]?.strings ?? []))
      }
    }
    return result
  }

  private func packages(of project: PlistDictionary) throws(XcodeError) -> [XcodePackageReference] {
    var result: [XcodePackageReference] = []
    for id in project["packageReferences"]?.strings ?? [] {
      let object = try document.object(id, from: "PBXProject.packageReferences")
      if let url = object["repositoryURL"]?.string {
        result.append(
          XcodePackageReference(
            id: id, location: .remote(url), identity: XcodePackageReference.identity(ofLocation: url),
            fingerprint: (object["requirement"] ?? .string("")).canonicalText))
      } else if let relative = object["relativePath"]?.string {
        let path = relative.hasPrefix("/") ? nil : inside(FastPath.join(sourceRoot, relative))
        result.append(
          XcodePackageReference(
            id: id, location: .local(path: path), identity: XcodePackageReference.identity(ofLocation: relative),
            fingerprint: relative))
      }
    }
    return result
  }

  private func projectFingerprint(_ project: PlistDictionary, configurations settings: Configurations)
    throws(XcodeError) -> String
  {
    var fields = project
    for key in ["targets", "mainGroup", "productRefGroup", "packageReferences", "buildConfigurationList"] {
      fields[key] = nil
    }
    if var attributes = fields["attributes"]?.dictionary {
      attributes["TargetAttributes"] = nil
      fields["attributes"] = .dictionary(attributes)
    }
    fields["configurations"] = .dictionary(settings.fingerprints)
    fields["objectVersion"] = .string(document.objectVersion)
    return PlistValue.dictionary(fields).canonicalText
  }

  private static func unique(_ paths: [String]) -> [String] { Array(Set(paths)).sorted() }
}

/// Messages collected while resolving, each once, in the order met.
final class Warnings {
  private(set) var messages: [String] = []
  private var seen: Set<String> = []

  func add(_ message: String) {
    if seen.insert(message).inserted { messages.append(message) }
  }
}
