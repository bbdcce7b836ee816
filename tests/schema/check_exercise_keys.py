#!/usr/bin/env python3
"""check_exercise_keys.py: holds exercise.schema.json and FORMAT.md to the loader's key table.

Both are generated from that table (host/tools/exercise_format); this reads them back on its own,
so a generator that wrote the wrong thing is caught as well as a stale copy.

Usage: check_exercise_keys.py PRINT_PROGRAM SCHEMA FORMAT_MD

PRINT_PROGRAM prints the loader's table of exercise keys (section, key, type, required) and every
check definition's keys. For each section, the schema's properties must be the table's keys with
the same types, and its `required` the table's required keys; FORMAT.md's table of the section
must list the same keys and mark the same ones required. For checks, the schema's kind and
property/predicate words must be the registry's, and each definition's if/then block must allow
exactly the common keys, the selector and the definition's keys, require the definition's
required keys and type each as the definition does. Exits 0 when all agree, 1 otherwise.
"""
import json
import pathlib
import re
import subprocess
import sys

# Where each section's keys live in the schema.
SCHEMA_SECTIONS = {
    "top": "#",
    "variant": "#/properties/variant",
    "transforms": "#/properties/transforms",
    "parameters": "#/$defs/parameters",
    "limits": "#/$defs/limits",
    "case": "#/$defs/case",
    "layer": "#/$defs/layer",
    "weights": "#/$defs/weights",
    "check": "#/$defs/check",
    "question": "#/$defs/question",
}

# The heading above each section's table in FORMAT.md (the first table after it).
FORMAT_SECTIONS = {
    "top": "## Top level",
    "variant": "### `variant`",
    "transforms": "### `transforms`",
    "parameters": "### `parameters`",
    "limits": "### `limits`",
    "case": "### `cases`",
    "layer": "### `layers`",
    "weights": "### `weights` (one layer)",
    "check": "## Checks",
    "question": "## Questions (`questions:`)",
}

# Where the schema is stricter than the loader, on purpose (editors flag what awb would only
# catch later): an editor wants w_q, w_k and w_v in every weights mapping; the loader takes an
# empty one in a parameter-free stack and reports the missing three otherwise.
SCHEMA_ALSO_REQUIRES = {("weights", "w_q"), ("weights", "w_k"), ("weights", "w_v")}

# A check key's type as the schema writes it.
CHECK_KEY_TYPES = {
    "token": "integer|string",
    "token-list": "list",
    "count": "integer",
    "head": "integer",
    "number": "number",
    "vector": "list",
    "boolean": "boolean",
    "direction": "word",
    "outputs": "list",
    "abs-tolerance": "number",
    "tolerance": "mapping",
    "sweep": "mapping",
    "measure": "mapping",
}


def resolve(schema, node):
    while isinstance(node, dict) and "$ref" in node:
        node = pointer(schema, node["$ref"])
    return node


def pointer(schema, ref):
    node = schema
    for part in ref.lstrip("#").strip("/").split("/"):
        if part:
            node = node[part]
    return node


def atoms(schema, node):
    """The value forms a schema node takes, in the table's words."""
    node = resolve(schema, node)
    out = set()
    for alt in node.get("oneOf", []) + node.get("anyOf", []):
        out |= atoms(schema, alt)
    if "enum" in node:
        out |= {"word" if isinstance(v, str) else type_word(v) for v in node["enum"]}
    if "const" in node:
        out.add("word" if isinstance(node["const"], str) else type_word(node["const"]))
    kinds = node.get("type", [])
    for t in [kinds] if isinstance(kinds, str) else kinds:
        out.add({"array": "list", "object": "mapping"}.get(t, t))
    return out


def type_word(value):
    if isinstance(value, bool):
        return "boolean"
    return "integer" if isinstance(value, int) else "number"


def joined(forms):
    return "|".join(sorted(forms))


def format_table(text, heading):
    """(key, required) rows of the first table after `heading` in FORMAT.md."""
    lines = text.splitlines()
    start = lines.index(heading)
    rows, header = [], None
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        if not line.startswith("|"):
            if header:
                break
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if header is None:
            header = cells
            continue
        if set(line) <= set("|-: "):
            continue
        key = re.fullmatch(r"`([^`]+)`", cells[0])
        if not key:
            continue
        default = cells[header.index("default")] if "default" in header else ""
        rows.append((key.group(1), default == "required" or default.startswith("required,")))
    if header is None:
        raise ValueError(f"no table after {heading!r}")
    return rows


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    printed = subprocess.run([argv[1]], check=True, capture_output=True, text=True).stdout
    schema = json.loads(pathlib.Path(argv[2]).read_text(encoding="utf-8"))
    format_md = pathlib.Path(argv[3]).read_text(encoding="utf-8")

    table, kinds, checks = {}, {}, {}
    for line in printed.splitlines():
        f = line.split("\t")
        if f[0] == "key":
            table.setdefault(f[1], []).append((f[2], f[3], f[4] == "required"))
        elif f[0] == "kind":
            kinds[f[1]] = None if f[2] == "-" else f[2]
        elif f[0] == "check":
            checks[(f[1], f[2])] = []
        elif f[0] == "check-key":
            checks[(f[1], f[2])].append((f[3], f[4], f[5] == "required"))

    problems = []

    def expect(what, got, want):
        if got != want:
            problems.append(f"{what}: {got} where the loader has {want}")

    for section, keys in table.items():
        names = [k for k, _, _ in keys]
        required = {k for k, _, r in keys if r}
        node = resolve(schema, pointer(schema, SCHEMA_SECTIONS[section]))
        props = node.get("properties", {})
        if section != "check":
            expect(f"schema {section} keys", sorted(props), sorted(names))
        for name, kind, _ in keys:
            if name in props:
                expect(f"schema {section}.{name} type", joined(atoms(schema, props[name])), kind)
        expect(f"schema {section} required",
               sorted(set(node.get("required", [])) - {k for s, k in SCHEMA_ALSO_REQUIRES
                                                       if s == section}),
               sorted(required))
        rows = format_table(format_md, FORMAT_SECTIONS[section])
        expect(f"FORMAT.md {section} keys", sorted(k for k, _ in rows), sorted(names))
        expect(f"FORMAT.md {section} required", sorted(k for k, r in rows if r), sorted(required))

    # Checks: the kinds, the selectors' words, and each definition's block.
    check_def = pointer(schema, "#/$defs/check")
    props = check_def["properties"]
    common = [k for k, _, _ in table["check"]]
    expect("schema check kinds", sorted(props["kind"]["enum"]), sorted(kinds))
    for kind, selector in kinds.items():
        if selector:
            expect(f"schema {selector} words", sorted(props[selector]["enum"]),
                   sorted(n for k, n in checks if k == kind))
    all_keys = set(common) | {s for s in kinds.values() if s}
    for keys in checks.values():
        all_keys |= {k for k, _, _ in keys}
    expect("schema check keys", sorted(props), sorted(all_keys))
    expect("schema check propertyNames", sorted(check_def["propertyNames"]["enum"]),
           sorted(all_keys))
    blocks = {}
    for block in check_def.get("allOf", []):
        cond = block["if"]["properties"]
        kind = cond["kind"]["const"]
        selector = kinds.get(kind)
        # A block on the kind alone holds for each of its definitions (the properties take no
        # keys of their own) unless it only asks for the selector (expect's "needs a predicate").
        name = cond[selector]["const"] if selector in cond else None if selector else kind
        blocks[(kind, name)] = block["then"]
    for (kind, name), keys in checks.items():
        kind_wide = blocks.get((kind, None), {})
        then = blocks.get((kind, name), kind_wide if "propertyNames" in kind_wide else None)
        if then is None:
            problems.append(f"schema: no if/then block for {kind} {name}")
            continue
        selector = kinds[kind]
        allowed = common + ([selector] if selector else []) + [k for k, _, _ in keys]
        expect(f"schema {kind} {name} keys", sorted(then["propertyNames"]["enum"]), sorted(allowed))
        expect(f"schema {kind} {name} required",
               sorted(set(then.get("required", [])) - {selector}),
               sorted(k for k, _, r in keys if r))
        for key, kind_word, _ in keys:
            node = then.get("properties", {}).get(key, props[key])
            expect(f"schema {kind} {name} {key} type", joined(atoms(schema, node)),
                   CHECK_KEY_TYPES[kind_word])
    for kind, name in blocks:
        if name is not None and (kind, name) not in checks:
            problems.append(f"schema: an if/then block for {kind} {name}, which is no check")

    # FORMAT.md's property and predicate tables name every definition.
    for kind, heading, column in (("property", "### `property`", "property"),
                                  ("expect", "### `expect`", "predicate")):
        section = format_md[format_md.index(heading):]
        section = section[:section.index("\n#", 1)]
        listed = re.findall(rf"^\| `([a-z_]+)` \|", section, re.M)
        expect(f"FORMAT.md {column} table", sorted(listed),
               sorted(n for k, n in checks if k == kind))

    for p in problems:
        print(f"FAIL  {p}")
    print(f"{len(table)} sections, {sum(map(len, table.values()))} keys, {len(checks)} checks; "
          f"{len(problems)} disagreement(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
