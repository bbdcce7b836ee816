#!/usr/bin/env python3
"""check_exercise_schema.py: validates exercise files against exercises/exercise.schema.json.

Usage: check_exercise_schema.py SCHEMA EXERCISE_DIR [MALFORMED_DIR]

Every *.yaml / *.yml in EXERCISE_DIR must validate. With MALFORMED_DIR, the malformed fixtures
that a schema can tell apart (an unknown key, a bad word, a wrong type, ...) must FAIL it, so the
schema is known to reject what it should; the rest of that corpus is awb lint's business.
Exits 0 when every file behaves as expected, 1 otherwise, 2 on bad usage or a missing file.

YAML is read the way yaml-cpp (the loader) reads it, i.e. close to YAML 1.2's core schema:
`1e-9` is a float and only true/false are booleans (PyYAML's YAML 1.1 would read `1e-9` as a
string and `yes`, `no`, `on`, `off` as booleans).
"""
import json
import pathlib
import re
import sys

import jsonschema
import yaml

# Fixtures of the malformed corpus that the schema must reject.
SCHEMA_DETECTABLE = [
    "01-unknown-top-key.yaml",  # unknown key (additionalProperties)
    "02-unknown-check-key.yaml",  # unknown key in a reference check (propertyNames)
    "07-type-tokens-string.yaml",  # wrong type
    "09-value-kind-typo.yaml",  # a word not in the enum
    "10-value-visibility-typo.yaml",  # a word not in the enum
    "19-limit-heads.yaml",  # above the maximum
    "26-version.yaml",  # awb-exercise must be 1
    "38-value-bad-id.yaml",  # id outside [a-z0-9-]
    "44-missing-predicate-key.yaml",  # a predicate's required key
    "61-unknown-key-predicat.yaml",  # a misspelt predicate key
    "66-value-points-huge.yaml",  # points above the maximum
]


class CoreLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core-schema booleans and floats."""


CoreLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:float")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"))
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"""^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?
                |[-+]?\.(?:inf|Inf|INF)
                |\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."))


def construct_float(loader, node):
    # Integers written with an exponent or a point (`1e3`, `2.`) are floats, as in YAML 1.2.
    text = loader.construct_scalar(node).lower()
    if text.endswith(("inf", "nan")):
        return yaml.SafeLoader.construct_yaml_float(loader, node)
    return float(text)


CoreLoader.add_constructor("tag:yaml.org,2002:float", construct_float)


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=CoreLoader)


def problems(validator, path):
    """The schema's complaints about one file, or the YAML error, as lines."""
    try:
        doc = load(path)
    except yaml.YAMLError as e:
        return [f"yaml: {e}".replace("\n", " ")]
    out = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        where = "/".join(map(str, err.absolute_path)) or "(root)"
        out.append(f"{where}: {err.message}")
    return out


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    schema_path, exercise_dir = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    malformed_dir = pathlib.Path(argv[3]) if len(argv) == 4 else None
    for p in [schema_path, exercise_dir] + ([malformed_dir] if malformed_dir else []):
        if not p.exists():
            print(f"no such file or folder: {p}", file=sys.stderr)
            return 2
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)

    files = sorted(list(exercise_dir.glob("*.yaml")) + list(exercise_dir.glob("*.yml")))
    if not files:
        print(f"no exercise files in {exercise_dir}", file=sys.stderr)
        return 2
    failed = 0
    for f in files:
        found = problems(validator, f)
        if found:
            failed += 1
            print(f"FAIL  {f.name}: should validate")
            for line in found:
                print(f"      {line}")
        else:
            print(f"ok    {f.name}")

    if malformed_dir:
        for name in SCHEMA_DETECTABLE:
            f = malformed_dir / name
            if not f.exists():
                print(f"no such fixture: {f}", file=sys.stderr)
                return 2
            found = problems(validator, f)
            if found:
                print(f"ok    {name}: rejected ({found[0]})")
            else:
                failed += 1
                print(f"FAIL  {name}: should not validate")

    print(f"{failed} unexpected result(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
