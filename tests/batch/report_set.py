#!/usr/bin/env python3
"""report_set.py: does a RESULTS folder read as one whole report set? The one implementation of
the batch tests' checks: imported by report_faults.py, run as a command by report_set_check.sh.

  report_set.py whole-set RESULTS        exit 0, or 1 printing why not
  report_set.py state RESULTS OLD NEW    prints none, old, new or mixed
  report_set.py no-strays RESULTS        exit 0, or 1 printing what is left behind
"""
import hashlib
import os
import re
import sys

FAMILIAR = ["grades.csv", "junit.xml", "gradescope", "prairielearn", "roster.csv", "roster.meta.json"]
MANIFEST = "MANIFEST.sha256"


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _files(top):
    """Regular files under `top` (links not followed), relative paths, but any MANIFEST.sha256."""
    out = []
    for root, dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(root, name)
            if name != MANIFEST and os.path.isfile(path) and not os.path.islink(path):
                out.append(os.path.relpath(path, top))
    return sorted(out)


def whole_set(r):
    """None when `current` names a generation whose manifest verifies and lists every file in
    it, and the familiar paths lead into it (without `current`: none of them resolves); else
    why not."""
    current = os.path.join(r, "current")
    if not os.path.islink(current):
        for f in FAMILIAR:
            if os.path.exists(os.path.join(r, f)):
                return f"no current set, yet {r}/{f} exists"
        return None
    gen = os.readlink(current)
    if not re.fullmatch(r"reports\.[0-9]+", gen) or not os.path.isdir(os.path.join(r, gen)):
        return f"current -> '{gen}'"
    listed = []
    try:
        with open(os.path.join(current, MANIFEST), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        return f"{r}/{gen}: no manifest ({e.strerror})"
    for line in lines:
        m = re.fullmatch(r"([0-9a-f]{64})  (.+)", line)
        if not m:
            return f"{r}/{gen}: a malformed manifest line: {line!r}"
        path = os.path.join(current, m.group(2))
        try:
            if _sha256(path) != m.group(1):
                return f"{r}/{gen}: the manifest does not verify: {m.group(2)}"
        except OSError:
            return f"{r}/{gen}: the manifest does not verify: {m.group(2)} is missing"
        listed.append(m.group(2))
    present = _files(current)
    if sorted(listed) != present:
        return (f"{r}/{gen}: files and manifest differ: listed only "
                f"{sorted(set(listed) - set(present))}, present only "
                f"{sorted(set(present) - set(listed))}")
    for top in sorted(os.listdir(current)):
        if top == MANIFEST:
            continue
        link = os.path.join(r, top)
        if not os.path.islink(link) or os.readlink(link) != f"current/{top}":
            return f"{r}/{top} is not the link current/{top}"
    for top in FAMILIAR:
        if os.path.exists(os.path.join(r, top)) and not os.path.exists(os.path.join(current, top)):
            return f"{r}/{top} is not of the set"
    return None


def same_tree(a, b):
    """What `diff -r a b` calls no difference: the same names, files of the same bytes (links
    followed)."""
    try:
        names_a, names_b = sorted(os.listdir(a)), sorted(os.listdir(b))
    except OSError:
        return False
    if names_a != names_b:
        return False
    for name in names_a:
        pa, pb = os.path.join(a, name), os.path.join(b, name)
        if os.path.isdir(pa) or os.path.isdir(pb):
            if not (os.path.isdir(pa) and os.path.isdir(pb) and same_tree(pa, pb)):
                return False
            continue
        try:
            with open(pa, "rb") as fa, open(pb, "rb") as fb:
                if fa.read() != fb.read():
                    return False
        except OSError:
            return False
    return True


def set_state(r, old, new):
    """"none", "old" or "new": which reference set RESULTS holds (OLD, NEW: RESULTS folders of
    uninterrupted runs, or "none"); "mixed" when it is neither."""
    current = os.path.join(r, "current")
    if not os.path.islink(current):
        return "none"
    if new != "none" and same_tree(current, os.path.join(new, "current")):
        return "new"
    if old != "none" and same_tree(current, os.path.join(old, "current")):
        return "old"
    return "mixed"


def no_strays(r):
    """None when only awb's marker, the journal, the digest cache, the build cache (whole entries,
    no staging folder), one generation, `current` and the familiar links remain, and nothing
    hidden is inside the generation; else what is left behind."""
    gen = os.readlink(os.path.join(r, "current"))
    keep = {".awb-results", "journal.jsonl", "digests.tsv", "current", gen, "builds", *FAMILIAR}
    extra = sorted(set(os.listdir(r)) - keep)
    builds = os.path.join(r, "builds")  # the build cache: whole entries only, no staging left
    if os.path.isdir(builds):
        extra += [os.path.join("builds", n) for n in os.listdir(builds) if n.startswith(".")]
    if extra:
        return f"left behind in {r}: {' '.join(extra)}"
    hidden = []
    for root, dirs, files in os.walk(os.path.join(r, gen)):
        hidden += [os.path.join(root, n) for n in dirs + files if n.startswith(".")]
    if hidden:
        return f"left behind in {r}/{gen}: {' '.join(sorted(hidden))}"
    return None


def main(argv):
    if len(argv) == 3 and argv[1] == "whole-set":
        why = whole_set(argv[2])
    elif len(argv) == 3 and argv[1] == "no-strays":
        why = no_strays(argv[2])
    elif len(argv) == 5 and argv[1] == "state":
        print(set_state(argv[2], argv[3], argv[4]))
        return 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if why:
        print(why)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
