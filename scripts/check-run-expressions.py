#!/usr/bin/env python3
"""No `run:` of a GitHub workflow or composite action embeds an expression of data from outside the script.

GitHub pastes `${{ … }}` into the script text before bash reads it, so `${{ steps.x.outputs.targets }}`
with a target named `X$(touch p)Tests` runs `touch p`. Outputs of steps, jobs (needs) and matrices,
inputs, and the event's own fields must reach a script through `env:` instead.
  scripts/check-run-expressions.py FILE...   exit 1 naming each file, step and expression found
"""
import re
import sys

try:
    import yaml

    def load(f):
        return yaml.safe_load(f)

except ImportError:  # check-jsonschema brings ruamel.yaml
    from ruamel.yaml import YAML

    def load(f):
        return YAML(typ="safe").load(f)

UNSAFE = re.compile(r"\$\{\{[^}]*?\b(steps|matrix|needs|inputs|github\.event|github\.head_ref)\b[^}]*\}\}")


def runs(node, where):
    """Every string under a `run` key, with where it is (job and step names, or indexes)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "run" and isinstance(value, str):
                yield where, value
            else:
                name = value.get("name") or value.get("id") if isinstance(value, dict) else None
                yield from runs(value, where + [str(name or key)])
    elif isinstance(node, list):
        for index, value in enumerate(node):
            name = (value.get("name") or value.get("id")) if isinstance(value, dict) else None
            yield from runs(value, where + [name or f"#{index + 1}"])


def main(paths):
    problems = []
    for path in paths:
        with open(path) as f:
            document = load(f)
        for where, script in runs(document, []):
            for match in UNSAFE.finditer(script):
                problems.append(f"{path}: {' > '.join(where)}: run: embeds {match.group(0)} (pass it through env:)")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
