#!/usr/bin/env python3
"""Generates a large modular SwiftPM monorepo for `make bench`'s scale section (issue 11).

Layout: `--packages` local packages `Packages/PkgNN`, each with `--targets` library targets and as many
test targets. Package 0 is the shared base: every other package depends on it with `.package(path:)`,
and its first library target is used by the first library target of every other package. Library i
depends on library i-1 and i//2 of its package, so a change to `Pkg00Lib0` reaches every target (about
half of them tests) and a change to a test file of the last package reaches that test target only.
The tree is padded with small source files spread over the targets up to `--files` files in total.

Two commits: the import, then one edit (the one-file change, `--base HEAD~1 --head HEAD`). The bench
adds its own commits on top.
"""
import argparse
import os
import subprocess


def package_name(p):
    return f"Pkg{p:02d}"


def lib(p, i):
    return f"{package_name(p)}Lib{i}"


def manifest(p, targets):
    name = package_name(p)
    deps = [] if p == 0 else ['.package(path: "../Pkg00")']
    entries = []
    for i in range(targets):
        d = []
        if i > 0:
            d.append(f'"{lib(p, i - 1)}"')
        if i > 1 and i // 2 != i - 1:
            d.append(f'"{lib(p, i // 2)}"')
        if p != 0 and i == 0:
            d.append(f'.product(name: "{lib(0, 0)}", package: "Pkg00")')
        entries.append(f'    .target(name: "{lib(p, i)}", dependencies: [{", ".join(d)}]),')
        entries.append(f'    .testTarget(name: "{lib(p, i)}Tests", dependencies: ["{lib(p, i)}"]),')
    products = ", ".join(f'.library(name: "{lib(p, i)}", targets: ["{lib(p, i)}"])' for i in range(min(targets, 5)))
    return f"""// swift-tools-version:5.9
import PackageDescription

let package = Package(
  name: "{name}",
  products: [{products}],
  dependencies: [{", ".join(deps)}],
  targets: [
{chr(10).join(entries)}
  ]
)
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def generate(root, packages, targets, files):
    written = 0
    directories = []
    for p in range(packages):
        base = os.path.join(root, "Packages", package_name(p))
        write(os.path.join(base, "Package.swift"), manifest(p, targets))
        written += 1
        for i in range(targets):
            t = lib(p, i)
            source = os.path.join(base, "Sources", t)
            tests = os.path.join(base, "Tests", f"{t}Tests")
            write(os.path.join(source, f"{t}.swift"), f"public struct {t} {{\n  public init() {{}}\n}}\n")
            write(os.path.join(tests, f"{t}Tests.swift"), f"import Testing\n@testable import {t}\n\n@Test func make() {{\n  _ = {t}()\n}}\n")
            written += 2
            directories += [(source, t), (tests, f"{t}Tests")]
    write(os.path.join(root, "README.md"), "# Scale\n")
    write(os.path.join(root, ".gitignore"), ".build/\n")
    write(os.path.join(root, "ripple.yml"), "selection:\n  ignore: [\"**/*.md\"]\n")
    written += 3
    n = 0
    while written < files:
        directory, module = directories[n % len(directories)]
        write(os.path.join(directory, f"Extra{n}.swift"), f"extension {module.removesuffix('Tests')} {{}}\n"
              if not module.endswith("Tests") else f"// extra {n}\n")
        n += 1
        written += 1
    return written


def git(root, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="Ripple Bench", GIT_AUTHOR_EMAIL="bench@example.invalid",
               GIT_COMMITTER_NAME="Ripple Bench", GIT_COMMITTER_EMAIL="bench@example.invalid")
    subprocess.run(["git", "-C", root, *args], check=True, env=env, stdout=subprocess.DEVNULL)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("root")
    p.add_argument("--packages", type=int, default=40)
    p.add_argument("--targets", type=int, default=50, help="library targets per package (each gets a test target)")
    p.add_argument("--files", type=int, default=100000, help="files in the repository, at least")
    args = p.parse_args()
    os.makedirs(args.root, exist_ok=True)
    git(args.root, "init", "-q", "-b", "main")
    # No `git gc --auto`: after 100,000 new objects it would pack them in the background, on the cores the
    # bench is measuring with. The objects are packed once, below, as a real repository's are.
    git(args.root, "config", "gc.auto", "0")
    count = generate(args.root, args.packages, args.targets, args.files)
    git(args.root, "add", "-A")
    git(args.root, "commit", "-q", "-m", "Initial import")
    last = lib(args.packages - 1, args.targets - 1)
    path = os.path.join(args.root, "Packages", package_name(args.packages - 1), "Tests", f"{last}Tests",
                        f"{last}Tests.swift")
    with open(path, "a") as f:
        f.write("// one-file change\n")
    git(args.root, "commit", "-q", "-am", "One test file")
    git(args.root, "gc", "-q")
    print(count)


if __name__ == "__main__":
    main()
