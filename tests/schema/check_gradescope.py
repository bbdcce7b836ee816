#!/usr/bin/env python3
"""check_gradescope.py: validates results.json files (Gradescope's, PrairieLearn's) against a
JSON Schema.

Usage: check_gradescope.py SCHEMA [--expect-invalid] PATH...

Each PATH is a JSON file or a folder whose *.json files are all checked. Without
--expect-invalid every file must validate; with it every file must FAIL (negative cases, so
the schema is known to reject what it should). Exits 0 when all files behave as expected,
1 otherwise, 2 on bad usage, a missing path, or no file found (an empty folder must not pass
quietly).
"""
import json
import pathlib
import sys

import jsonschema


def reject_constant(name):
    # Python's json accepts NaN and Infinity; JSON does not, and neither does Gradescope.
    raise ValueError(f"not JSON: {name}")


def describe(error):
    """Where in the document and why: a schema error, or the text of a parse error."""
    if isinstance(error, jsonschema.ValidationError):
        where = "/".join(map(str, error.absolute_path)) or "(root)"
        return f"{where}: {error.message}"
    return str(error)


def collect(paths):
    files = []
    for p in map(pathlib.Path, paths):
        files.extend(sorted(p.glob("*.json")) if p.is_dir() else [p])
    return files


def main(argv):
    args = argv[1:]
    expect_invalid = "--expect-invalid" in args
    args = [a for a in args if a != "--expect-invalid"]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.loads(pathlib.Path(args[0]).read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)

    missing = [a for a in args[1:] if not pathlib.Path(a).exists()]
    if missing:
        print(f"no such file or folder: {' '.join(missing)}", file=sys.stderr)
        return 2
    files = collect(args[1:])
    if not files:
        print(f"no JSON files in {' '.join(args[1:])}", file=sys.stderr)
        return 2
    bad = 0
    for f in files:
        try:
            doc = json.loads(f.read_text(encoding="utf-8"), parse_constant=reject_constant)
            errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        except (ValueError, UnicodeDecodeError) as e:
            errors = [e]
        if expect_invalid:
            if errors:
                print(f"ok (rejected) {f.name}: {describe(errors[0])}")
            else:
                print(f"FAIL {f}: the schema accepted a document it should reject")
                bad += 1
        else:
            if errors:
                bad += 1
                for e in errors:
                    print(f"FAIL {f}: {describe(e)}")
            else:
                print(f"ok {f.name}")
    print(f"{len(files) - bad}/{len(files)} file(s) as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
