#!/usr/bin/env python3
"""Validate every item of a Kubernetes List against Kubernetes' published JSON schemas.

Usage: validate.py [--kubernetes-version 1.34] [--quiet] [FILE]

Reads a JSON document from FILE (or standard input when FILE is absent or "-"): a List
(`{"apiVersion": "v1", "kind": "List", "items": [...]}`) or a single object. Each item is
validated with the `kubernetes-validate` package (see requirements.txt) against the strict
schemas of the requested Kubernetes version, so unknown fields are errors. If the package has
no schemas for exactly that version, the newest bundled version above it is used; the version
used is printed.

Exit status: 0 if every item is valid, 1 if any is not (each error is printed), 2 if the input
or the environment is unusable.
"""

import argparse
import functools
import json
import sys


def fail(message):
    print(f"validate.py: {message}", file=sys.stderr)
    sys.exit(2)


try:
    import kubernetes_validate
    import kubernetes_validate.utils as kv
except ImportError:
    fail("the kubernetes-validate package is missing: python3 -m pip install -r tests/validate/requirements.txt")

# Every item reads the same schema files: load each once.
kv.schema_contents = functools.lru_cache(maxsize=None)(kv.schema_contents)


def minor_of(version):
    """(major, minor) of '1.34' or '1.34.0'."""
    parts = version.lstrip("v").split(".")
    return int(parts[0]), int(parts[1])


def pick_version(wanted):
    """The bundled schema version to validate against, and whether it is an exact match."""
    bundled = sorted({minor_of(v): v for v in kv.all_versions()}.items())
    target = minor_of(wanted)
    for minor, version in bundled:
        if minor == target:
            return version, True
    newer = [version for minor, version in bundled if minor > target]
    if not newer:
        have = ", ".join(v for _, v in bundled)
        fail(f"kubernetes-validate {kubernetes_validate.__version__} has no schemas for {wanted} or newer (it has {have})")
    return newer[-1], False


def describe(index, item):
    if not isinstance(item, dict):
        return f"item {index}"
    meta = item.get("metadata") or {}
    name = meta.get("name", "?")
    if meta.get("namespace"):
        name = f"{meta['namespace']}/{name}"
    return f"item {index} ({item.get('kind', '?')} {name})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", "--kubernetes-version", default="1.34", help="Kubernetes version (default 1.34)")
    parser.add_argument("--quiet", action="store_true", help="print only errors")
    parser.add_argument("file", nargs="?", default="-", help="the JSON document (default: standard input)")
    args = parser.parse_args()

    try:
        if args.file == "-":
            document = json.load(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as f:
                document = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"cannot read {args.file}: {e}")

    if isinstance(document, dict) and document.get("kind") == "List":
        items = document.get("items")
        if not isinstance(items, list):
            fail("a List without an items array")
    else:
        items = [document]

    version, exact = pick_version(args.kubernetes_version)
    note = "" if exact else f" (no {args.kubernetes_version} schemas bundled; using the newest)"
    if not args.quiet or not exact:
        print(
            f"validating {len(items)} objects against the Kubernetes {version} strict schemas{note} "
            f"(kubernetes-validate {kubernetes_validate.__version__})"
        )

    errors = 0
    for index, item in enumerate(items):
        what = describe(index, item)
        if not isinstance(item, dict) or "apiVersion" not in item or "kind" not in item:
            print(f"ERROR {what}: not an object with apiVersion and kind")
            errors += 1
            continue
        try:
            used = kv.validate(item, version, strict=True)
            if minor_of(used) != minor_of(version):
                print(f"ERROR {what}: validated against {used}, not {version}")
                errors += 1
        except kv.ValidationError as e:
            path = ".".join(str(p) for p in e.path) or "(root)"
            print(f"ERROR {what}: {path}: {e.message}")
            errors += 1
        except kv.SchemaNotFoundError as e:
            print(f"ERROR {what}: {e.message}")
            errors += 1
        except (kv.InvalidSchemaError, kv.VersionNotSupportedError) as e:
            fail(getattr(e, "message", str(e)))

    if errors:
        print(f"{errors} of {len(items)} objects are invalid")
        return 1
    if not args.quiet:
        print(f"all {len(items)} objects are valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
