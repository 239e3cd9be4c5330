#!/usr/bin/env python3
"""Every module's imports and its Package.swift dependencies agree.

SwiftPM lets a target import any module that is built before it, declared or not (a dependency's
dependency is on the search path), so Package.swift drifts from the code: a module imports what it
never declared, or declares what it no longer imports. This check reads the manifest as SwiftPM does
(`swift package dump-package`, also for each checked-out dependency to learn which modules a product
provides) and the `import` lines of every source file, and fails on either kind of drift.

usage: scripts/check-imports.py [--package-path DIR] [--checkouts DIR]
       scripts/check-imports.py --self-test   (a package with both kinds of drift must fail)
Exit 0: they agree; 1: drift (each line names the target, the module and the file); 2: usage or a
manifest that does not evaluate.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

# Modules of the toolchain and the platform: always on the search path, never declared.
TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
    "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin", "Android", "WinSDK", "Bionic", "XCTest",
    "Testing", "Synchronization", "Observation", "RegexBuilder", "Swift", "SwiftShims", "_Concurrency",
    "_StringProcessing", "os", "CryptoKit", "Distributed", "ucrt", "SwiftGlibc",
}

# `import X`, `@testable import X`, `public import X`, `import struct X.Y`, `@preconcurrency import X`.
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
)
CAN_IMPORT = re.compile(r"^\s*#(?:if|elseif)\b.*canImport\(([A-Za-z_][A-Za-z0-9_]*)")


def dump(path):
    result = subprocess.run(
        ["swift", "package", "dump-package", "--package-path", path], capture_output=True, text=True
    )
    if result.returncode != 0:
        sys.exit(f"check-imports: `swift package dump-package --package-path {path}` failed:\n{result.stderr}")
    return json.loads(result.stdout)


def product_modules(checkouts, identities):
    """{(package identity, product name): {module names}} for the dependencies that are checked out."""
    folders = {}
    if os.path.isdir(checkouts):
        for name in os.listdir(checkouts):
            folders[name.lower().removesuffix(".git")] = os.path.join(checkouts, name)
    missing = [identity for identity in identities if identity not in folders]
    if missing:
        sys.exit(f"check-imports: no checkout of {', '.join(missing)} in {checkouts}: build (or resolve) first.")
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        manifests = dict(zip(identities, pool.map(lambda i: dump(folders[i]), identities)))
    modules = {}
    for identity, manifest in manifests.items():
        for product in manifest["products"]:
            modules[(identity, product["name"])] = set(product["targets"])
    return modules


def target_folder(root, target):
    if target.get("path"):
        return os.path.join(root, target["path"])
    parent = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(root, parent, target["name"])


def imports_of(folder):
    """{module: first file:line importing it}, minus modules only imported under `#if canImport(M)`."""
    found = {}
    for directory, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            guarded = set()
            in_string = False  # inside a multi-line string literal (fixture manifests, scripts)
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    quotes = line.count('"""')
                    if in_string or quotes:
                        in_string = in_string != (quotes % 2 == 1)
                        continue
                    guard = CAN_IMPORT.match(line)
                    if guard:
                        guarded.add(guard.group(1))
                    match = IMPORT.match(line)
                    if match and match.group(1) not in guarded:
                        found.setdefault(match.group(1), f"{path}:{number}")
    return found


SELF_TEST_MANIFEST = """// swift-tools-version:5.9
import PackageDescription

let package = Package(
  name: "Drift",
  targets: [
    .target(name: "A"),
    .target(name: "B"),
    .target(name: "C", dependencies: ["A", "B"]),
  ]
)
"""

SELF_TEST_SOURCES = {
    "Sources/A/A.swift": "import Foundation\npublic let a = 1\n",
    "Sources/B/B.swift": "import A  // not declared\nlet text = \"\"\"\nimport Nowhere\n\"\"\"\n",
    "Sources/C/C.swift": "import A\n#if canImport(Glibc)\nimport Glibc\n#endif\n",  # B declared, not imported
}


def self_test():
    """The checker must find both kinds of drift in a small package, and nothing else."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="check-imports-") as folder:
        with open(os.path.join(folder, "Package.swift"), "w") as handle:
            handle.write(SELF_TEST_MANIFEST)
        for relative, text in SELF_TEST_SOURCES.items():
            os.makedirs(os.path.dirname(os.path.join(folder, relative)), exist_ok=True)
            with open(os.path.join(folder, relative), "w") as handle:
                handle.write(text)
        env = dict(os.environ, TMPDIR=folder)
        result = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--package-path", folder],
            capture_output=True, text=True, env=env,
        )
    lines = [line for line in result.stderr.splitlines() if not line.startswith("check-imports:")]
    expected = ["B imports A, which", "C declares B but imports none"]
    if result.returncode != 1 or len(lines) != 2 or not all(any(e in l for l in lines) for e in expected):
        print(f"check-imports --self-test: expected exit 1 naming {expected}, got {result.returncode}:", file=sys.stderr)
        print(result.stderr, file=sys.stderr)
        return 1
    print("check-imports --self-test: both kinds of drift are found")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package-path", default=".")
    parser.add_argument("--checkouts", help="SwiftPM's checkouts folder (default <package>/.build/checkouts)")
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    if arguments.self_test:
        return self_test()
    root = os.path.abspath(arguments.package_path)
    manifest = dump(root)
    identities = sorted(
        kind[0]["identity"] for dependency in manifest["dependencies"] for kind in dependency.values()
    )
    modules = product_modules(arguments.checkouts or os.path.join(root, ".build", "checkouts"), identities)
    local = {target["name"] for target in manifest["targets"]}

    problems = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        declared = {}  # module -> how Package.swift names the dependency
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            if kind in ("target", "byName"):
                name = value[0]
                # A name that is not a local target is a product of a dependency with the same name.
                products = [m for (package, product), m in modules.items() if product == name]
                provided = {name} if name in local or not products else set().union(*products)
                declared[name] = set(provided)
            elif kind == "product":
                name, package = value[0], (value[1] or "").lower()
                provided = modules.get((package, name))
                if provided is None:
                    problems.append(f"{target['name']}: product {name} of {package} is not in that package's manifest")
                    continue
                declared[f"{package}/{name}"] = provided
        available = set().union(*declared.values()) if declared else set()
        used = imports_of(target_folder(root, target))
        for module, where in sorted(used.items()):
            if module in TOOLCHAIN or module == target["name"] or module in available:
                continue
            problems.append(f"{where}: {target['name']} imports {module}, which its Package.swift entry does not declare")
        for label, provided in sorted(declared.items()):
            if not provided & set(used):
                problems.append(
                    f"Package.swift: {target['name']} declares {label} but imports none of its modules ({', '.join(sorted(provided))})"
                )

    if problems:
        print("\n".join(problems), file=sys.stderr)
        print(f"check-imports: {len(problems)} disagreement(s) between imports and Package.swift", file=sys.stderr)
        return 1
    print(f"check-imports: the imports of {len(manifest['targets'])} targets agree with Package.swift")
    return 0


if __name__ == "__main__":
    sys.exit(main())
