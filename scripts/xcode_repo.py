#!/usr/bin/env python3
"""Generates an Xcode app repository with git history for `make bench`'s xcode section.

Layout (`--frameworks N --files M`):
  App.xcworkspace              lists App.xcodeproj
  App.xcodeproj/project.pbxproj
      App        an app linking and embedding every framework (BUILT_PRODUCTS_DIR references: Xcode's
                 implicit dependencies), AppTests hosted in it
      ModuleI    a framework of M Swift files in Modules/ModuleI/, ModuleITests its test bundle
  Modules/ModuleI/FileJ.swift, Modules/ModuleITests/ModuleITests.swift, App/App.swift
With 200 frameworks of 60 files the project file is about 4 MiB, the size of a large production app.
`--into DIR` adds the project under DIR of an existing repository (the isowords-shaped case) instead of
creating one. Prints the size of project.pbxproj in bytes.
"""
import argparse
import os
import subprocess


class Project:
    def __init__(self):
        self.counter = 0
        self.sections = {}

    def new_id(self):
        self.counter += 1
        return f"{0xB0000000 + self.counter:024X}"

    def add(self, isa, fields, comment="", oneline=False, id=None):
        id = id or self.new_id()
        self.sections.setdefault(isa, []).append((id, comment, [("isa", isa)] + fields, oneline))
        return id

    @staticmethod
    def quote(text):
        if text and all(c.isalnum() or c in "_./" for c in text):
            return text
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def render(self, value, indent):
        if isinstance(value, list):
            if not value:
                return "(\n" + indent + ")"
            return "(\n" + "".join(f"{indent}\t{self.render(v, indent + chr(9))},\n" for v in value) + indent + ")"
        if isinstance(value, dict):
            return "{\n" + "".join(f"{indent}\t{self.quote(k)} = {self.render(v, indent + chr(9))};\n"
                                   for k, v in value.items()) + indent + "}"
        return self.quote(value)

    def text(self, root):
        out = ["// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 77;\n\tobjects = {\n"]
        for isa in sorted(self.sections):
            out.append(f"\n/* Begin {isa} section */\n")
            for id, comment, fields, oneline in self.sections[isa]:
                note = f" /* {comment} */" if comment else ""
                if oneline:
                    out.append(f"\t\t{id}{note} = {{" + "".join(f"{k} = {self.render(v, '')}; " for k, v in fields)
                               + "};\n")
                else:
                    out.append(f"\t\t{id}{note} = {{\n")
                    out.extend(f"\t\t\t{k} = {self.render(v, chr(9) * 3)};\n" for k, v in fields)
                    out.append("\t\t};\n")
            out.append(f"/* End {isa} section */\n")
        out.append(f"\t}};\n\trootObject = {root} /* Project object */;\n}}\n")
        return "".join(out)


def configuration_list(p, settings):
    debug = p.add("XCBuildConfiguration", [("buildSettings", settings), ("name", "Debug")], "Debug")
    release = p.add("XCBuildConfiguration", [("buildSettings", settings), ("name", "Release")], "Release")
    return p.add("XCConfigurationList", [("buildConfigurations", [debug, release]),
                                         ("defaultConfigurationIsVisible", "0"), ("defaultConfigurationName", "Release")])


def phase(p, isa, files, extra=()):
    return p.add(isa, [("buildActionMask", "2147483647"), ("files", files), *extra,
                       ("runOnlyForDeploymentPostprocessing", "0")])


def build_file(p, ref, name, settings=None, id=None):
    fields = [("fileRef", ref)] + ([("settings", settings)] if settings else [])
    return p.add("PBXBuildFile", fields, f"{name} in Sources", oneline=True, id=id)


def file_ref(p, path, kind="sourcecode.swift", tree="<group>", id=None):
    return p.add("PBXFileReference", [("lastKnownFileType", kind), ("path", path), ("sourceTree", tree)], path,
                 oneline=True, id=id)


def target(p, name, product_type, product, phases, dependencies=(), settings=None):
    return p.add("PBXNativeTarget", [
        ("buildConfigurationList", configuration_list(p, settings or {"PRODUCT_NAME": "$(TARGET_NAME)"})),
        ("buildPhases", phases), ("buildRules", []), ("dependencies", list(dependencies)), ("name", name),
        ("productName", name), ("productReference", product), ("productType", product_type)], name)


def dependency(p, project, target_id, name):
    proxy = p.add("PBXContainerItemProxy", [("containerPortal", project), ("proxyType", "1"),
                                            ("remoteGlobalIDString", target_id), ("remoteInfo", name)])
    return p.add("PBXTargetDependency", [("target", target_id), ("targetProxy", proxy)])


def generate(root, folder, frameworks, files, extra_file=None):
    """Writes `folder`/App.xcodeproj and its sources; returns the project file's path."""
    p = Project()
    project_id = p.new_id()
    main_children, product_children, framework_children = [], [], []
    products_group = p.add("PBXGroup", [("children", product_children), ("name", "Products"),
                                        ("sourceTree", "<group>")], "Products")
    frameworks_group = p.add("PBXGroup", [("children", framework_children), ("name", "Frameworks"),
                                          ("sourceTree", "<group>")], "Frameworks")
    modules_children = []
    modules_group = p.add("PBXGroup", [("children", modules_children), ("path", "Modules"),
                                       ("sourceTree", "<group>")], "Modules")
    main_group = p.add("PBXGroup", [("children", main_children), ("sourceTree", "<group>")])
    targets, attributes, linked = [], {}, []
    for i in range(frameworks):
        name = f"Module{i}"
        children = []
        modules_children.append(p.add("PBXGroup", [("children", children), ("path", name),
                                                   ("sourceTree", "<group>")], name))
        sources = []
        count = files + (1 if extra_file == i else 0)
        for j in range(count):
            # The added file takes ids of its own, as Xcode gives new objects: the others keep theirs.
            extra = j == files
            ref = file_ref(p, f"File{j}.swift", id=f"{0xC0000001:024X}" if extra else None)
            children.append(ref)
            sources.append(build_file(p, ref, f"File{j}.swift", id=f"{0xC0000002:024X}" if extra else None))
            write(root, f"{folder}/Modules/{name}/File{j}.swift", f"public func f{i}_{j}() -> Int {{ {j} }}\n")
        product = file_ref(p, f"{name}.framework", "wrapper.framework", "BUILT_PRODUCTS_DIR")
        product_children.append(product)
        framework = target(p, name, "com.apple.product-type.framework", product, [
            phase(p, "PBXSourcesBuildPhase", sources), phase(p, "PBXFrameworksBuildPhase", []),
            phase(p, "PBXHeadersBuildPhase", [])])
        targets.append(framework)
        # The test bundle: one source file, a target dependency on its framework.
        test_children = []
        modules_children.append(p.add("PBXGroup", [("children", test_children), ("path", f"{name}Tests"),
                                                   ("sourceTree", "<group>")], f"{name}Tests"))
        test_ref = file_ref(p, f"{name}Tests.swift")
        test_children.append(test_ref)
        write(root, f"{folder}/Modules/{name}Tests/{name}Tests.swift", f"import {name}\n")
        test_product = file_ref(p, f"{name}Tests.xctest", "wrapper.cfbundle", "BUILT_PRODUCTS_DIR")
        product_children.append(test_product)
        targets.append(target(p, f"{name}Tests", "com.apple.product-type.bundle.unit-test", test_product, [
            phase(p, "PBXSourcesBuildPhase", [build_file(p, test_ref, f"{name}Tests.swift")]),
            phase(p, "PBXFrameworksBuildPhase", [])], [dependency(p, project_id, framework, name)]))
        # The app links and embeds the framework by a reference of its own (no target dependency).
        reference = file_ref(p, f"{name}.framework", "wrapper.framework", "BUILT_PRODUCTS_DIR")
        framework_children.append(reference)
        linked.append(reference)
    app_ref = file_ref(p, "App.swift")
    app_group = p.add("PBXGroup", [("children", [app_ref]), ("path", "App"), ("sourceTree", "<group>")], "App")
    write(root, f"{folder}/App/App.swift", "@main struct App { static func main() {} }\n")
    app_product = file_ref(p, "App.app", "wrapper.application", "BUILT_PRODUCTS_DIR")
    product_children.append(app_product)
    app = target(p, "App", "com.apple.product-type.application", app_product, [
        phase(p, "PBXSourcesBuildPhase", [build_file(p, app_ref, "App.swift")]),
        phase(p, "PBXFrameworksBuildPhase", [build_file(p, r, "framework") for r in linked]),
        phase(p, "PBXCopyFilesBuildPhase",
              [build_file(p, r, "framework", {"ATTRIBUTES": ["CodeSignOnCopy", "RemoveHeadersOnCopy"]}) for r in linked],
              [("dstPath", ""), ("dstSubfolderSpec", "10"), ("name", "Embed Frameworks")])])
    targets.append(app)
    tests_ref = file_ref(p, "AppTests.swift")
    tests_group = p.add("PBXGroup", [("children", [tests_ref]), ("path", "AppTests"), ("sourceTree", "<group>")])
    write(root, f"{folder}/AppTests/AppTests.swift", "import App\n")
    tests_product = file_ref(p, "AppTests.xctest", "wrapper.cfbundle", "BUILT_PRODUCTS_DIR")
    product_children.append(tests_product)
    app_tests = target(p, "AppTests", "com.apple.product-type.bundle.unit-test", tests_product, [
        phase(p, "PBXSourcesBuildPhase", [build_file(p, tests_ref, "AppTests.swift")])],
        [dependency(p, project_id, app, "App")],
        {"PRODUCT_NAME": "$(TARGET_NAME)", "TEST_HOST": "$(BUILT_PRODUCTS_DIR)/App.app/App",
         "BUNDLE_LOADER": "$(TEST_HOST)"})
    targets.append(app_tests)
    attributes[app_tests] = {"CreatedOnToolsVersion": "16.0", "TestTargetID": app}
    main_children.extend([app_group, tests_group, modules_group, frameworks_group, products_group])
    p.add("PBXProject", [
        ("attributes", {"BuildIndependentTargetsInParallel": "1", "LastUpgradeCheck": "1600",
                        "TargetAttributes": attributes}),
        ("buildConfigurationList", configuration_list(p, {"SWIFT_VERSION": "5.0"})),
        ("developmentRegion", "en"), ("hasScannedForEncodings", "0"), ("knownRegions", ["en", "Base"]),
        ("mainGroup", main_group), ("productRefGroup", products_group), ("projectDirPath", ""),
        ("projectRoot", ""), ("targets", targets)], "Project object", id=project_id)
    path = f"{folder}/App.xcodeproj/project.pbxproj".lstrip("/")
    write(root, path, p.text(project_id))
    write(root, f"{folder}/App.xcworkspace/contents.xcworkspacedata".lstrip("/"),
          '<?xml version="1.0" encoding="UTF-8"?>\n<Workspace\n   version = "1.0">\n   <FileRef\n'
          '      location = "group:App.xcodeproj">\n   </FileRef>\n</Workspace>\n')
    return os.path.join(root, path)


def write(root, path, text):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def git(root, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b",
               GIT_COMMITTER_EMAIL="b@b")
    subprocess.run(["git", "-C", root, *args], check=True, env=env, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--frameworks", type=int, default=200)
    parser.add_argument("--files", type=int, default=60)
    parser.add_argument("--into", default=None, help="folder of an existing repository to add the project to")
    parser.add_argument("--extra-file", type=int, default=None,
                        help="rewrite the project with one more file in this framework (the project edit)")
    args = parser.parse_args()
    folder = args.into or ""
    path = generate(args.root, folder, args.frameworks, args.files, args.extra_file)
    if args.extra_file is None and args.into is None:
        git(args.root, "init", "-q", "-b", "main")
        git(args.root, "add", "-A")
        git(args.root, "commit", "-q", "-m", "App")
    print(os.path.getsize(path))


if __name__ == "__main__":
    main()
