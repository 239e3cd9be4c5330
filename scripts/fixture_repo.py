#!/usr/bin/env python3
"""Generates a modular SwiftPM repository with git history, shaped like pointfreeco/isowords.

Used by `make demo` (small) and `make bench` (large). Layout:
  Package.swift               root package "App": features that use Core's products
  Packages/Core/Package.swift  shared package, linked with .package(path:)
  Packages/Server/...          server package, also uses Core, plus targets behind TEST_SERVER
Each library target has a test target. Feature i depends on feature i-1 and i//2 of its package,
so a change low in a package reaches many tests. A remote dependency on an unreachable URL proves
that nothing is fetched (`--no-remote` leaves it out, for a repository that builds). `--files N` pads the repository with N extra small files in Sources.
"""
import argparse
import os
import subprocess

PACKAGES = [(".", "App"), ("Packages/Core", "Core"), ("Packages/Server", "Server")]


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def target_name(prefix, i):
    return f"{prefix}Feature{i}"


def manifest(directory, name, features, remote=True):
    deps = []
    if name != "Core":
        rel = "Packages/Core" if directory == "." else "../Core"
        deps.append(f'.package(path: "{rel}")')
    if remote:
        deps.append('.package(url: "https://example.invalid/nowhere/swift-remote.git", from: "1.0.0")')
    targets = []
    for i in range(features):
        t = target_name(name, i)
        d = []
        if i > 0:
            d.append(f'"{target_name(name, i - 1)}"')
        if i > 1 and i // 2 != i - 1:
            d.append(f'"{target_name(name, i // 2)}"')
        if name != "Core" and i % 2 == 1:
            d.append(f'.product(name: "{target_name("Core", i % min(features, 10))}", package: "Core")')
        if i == 0 and remote:
            d.append('.product(name: "Remote", package: "swift-remote")')
        targets.append(f'    .target(name: "{t}", dependencies: [{", ".join(d)}]),')
        targets.append(f'    .testTarget(name: "{t}Tests", dependencies: ["{t}"]),')
    products = ", ".join(f'.library(name: "{target_name(name, i)}", targets: ["{target_name(name, i)}"])'
                         for i in range(min(features, 10)))
    extra = ""
    if name == "Server":
        extra = """
if ProcessInfo.processInfo.environment["TEST_SERVER"] != nil {
  package.targets.append(.testTarget(name: "ServerIntegrationTests", dependencies: ["ServerFeature0"]))
}
"""
    return f"""// swift-tools-version:5.9
import Foundation
import PackageDescription

let package = Package(
  name: "{name}",
  platforms: [.macOS(.v13)],
  products: [{products}],
  dependencies: [{", ".join(deps)}],
  targets: [
{chr(10).join(targets)}
  ]
)
{extra}"""


def generate(root, features, files, remote=True, test_ms=0):
    for directory, name in PACKAGES:
        write(root, os.path.join(directory, "Package.swift"), manifest(directory, name, features, remote))
        for i in range(features):
            t = target_name(name, i)
            write(root, os.path.join(directory, "Sources", t, f"{t}.swift"),
                  f"public struct {t} {{\n  public init() {{}}\n  public var id: Int {{ {i} }}\n}}\n")
            # `--test-ms` gives each test target some work, as snapshot and integration tests have.
            work = f"  try await Task.sleep(for: .milliseconds({test_ms}))\n" if test_ms else ""
            write(root, os.path.join(directory, "Tests", f"{t}Tests", f"{t}Tests.swift"),
                  f"import Testing\n@testable import {t}\n\n@Test func id() async throws {{\n{work}"
                  f"  #expect({t}().id == {i})\n}}\n")
    if files:
        per_target = max(1, files // (features * len(PACKAGES)))
        n = 0
        while n < files:
            for directory, name in PACKAGES:
                for i in range(features):
                    if n >= files:
                        break
                    t = target_name(name, i)
                    for k in range(per_target):
                        write(root, os.path.join(directory, "Sources", t, f"Extra{n}_{k}.swift"),
                              f"extension {t} {{\n  static let extra{n}_{k} = {n}\n}}\n")
                        n += 1
                        if n >= files:
                            break
    # The test target the server manifest declares only under TEST_SERVER needs its sources too.
    write(root, "Packages/Server/Tests/ServerIntegrationTests/ServerIntegrationTests.swift",
          "import Testing\n@testable import ServerFeature0\n\n@Test func integration() { #expect(ServerFeature0().id == 0) }\n")
    write(root, "Makefile", "bootstrap:\n\t@echo bootstrap\n")
    write(root, "README.md", "# Example\n")
    write(root, ".gitignore", ".build/\n")
    write(root, "ripple.yml", """selection:
  ignore: ["**/*.md"]
  global: ["Makefile"]
  manifestEnvironments:
    - {}
    - {TEST_SERVER: "1"}
""")


def git(root, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="Ripple Demo", GIT_AUTHOR_EMAIL="demo@example.invalid",
               GIT_COMMITTER_NAME="Ripple Demo", GIT_COMMITTER_EMAIL="demo@example.invalid")
    subprocess.run(["git", "-C", root, *args], check=True, env=env, stdout=subprocess.DEVNULL)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("root")
    p.add_argument("--features", type=int, default=4, help="library targets per package (each gets a test target)")
    p.add_argument("--files", type=int, default=0, help="extra source files to pad the tree with")
    p.add_argument("--no-remote", action="store_true", help="omit the unreachable remote dependency (to build)")
    p.add_argument("--test-ms", type=int, default=0, help="milliseconds each test target's test takes")
    args = p.parse_args()
    os.makedirs(args.root, exist_ok=True)
    git(args.root, "init", "-q", "-b", "main")
    generate(args.root, args.features, args.files, remote=not args.no_remote, test_ms=args.test_ms)
    git(args.root, "add", "-A")
    git(args.root, "commit", "-q", "-m", "Initial import")
    # Some history: a change to a leaf feature of each package.
    for directory, name in PACKAGES:
        t = target_name(name, args.features - 1)
        path = os.path.join(args.root, directory, "Sources", t, f"{t}.swift")
        with open(path, "a") as f:
            f.write(f"// tuned {name}\n")
        git(args.root, "commit", "-q", "-am", f"Tune {t}")


if __name__ == "__main__":
    main()
