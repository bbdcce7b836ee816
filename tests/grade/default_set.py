#!/usr/bin/env python3
"""`awb grade --variant V` without an assignment grades each bundled variant on the exercises that
are for it: full marks and exit 0 for every bundled variant, the other exercises listed once as
"not for this variant" (never ERROR, never counted). Runs every `awb grade --variant <bundled id>`
command the pages show (the instructor guide, the README), exactly as written, and the six
bundled variants; each page must show at least one.
Usage: default_set.py AWB PAGE...
"""
import re
import shlex
import subprocess
import sys

awb, pages = sys.argv[1], sys.argv[2:]
bundled = ["parameter-free", "qkv", "multi-head", "causal", "sliding-window", "linear"]

commands = []
for page in pages:
    shown = 0
    for line in open(page, encoding="utf-8"):
        m = re.match(r"^(?:build/\w+/bin/)?awb (grade --variant (\S+)[^#]*)", line.strip())
        if m and m.group(2) in bundled:
            commands.append(shlex.split(m.group(1)))
            shown += 1
    if not shown:
        print(f"FAIL: {page} shows no `awb grade --variant` command of a bundled variant")
        sys.exit(1)
commands += [["grade", "--variant", v] for v in bundled]

failed = 0
for args in commands:
    r = subprocess.run([awb, *args], capture_output=True, text=True)
    total = re.search(r"^Total: ([0-9.]+)/([0-9.]+) over (\d+) exercise", r.stdout, re.M)
    listed = re.search(r"^Not for this variant \(not graded, not counted\):\n((?:  .*\n)+)",
                       r.stdout, re.M)
    ok = (r.returncode == 0 and total and total.group(1) == total.group(2)
          and float(total.group(2)) > 0 and "ERROR" not in r.stdout)
    print(("ok  " if ok else "BAD ") + "awb " + " ".join(args) + ": "
          + (total.group(0) if total else "no total") + f", exit {r.returncode}, "
          + f"{len(listed.group(1).splitlines()) if listed else 0} not for it")
    if not ok:
        failed += 1
        print(r.stdout[-3000:], r.stderr[-2000:])

# Named exercises are graded as named: an exercise not for the variant is graded, not skipped.
r = subprocess.run([awb, "grade", "--variant", "qkv", "--exercise", "sliding-window"],
                   capture_output=True, text=True)
if r.returncode != 1 or "Not for this variant" in r.stdout:
    failed += 1
    print("BAD: a named exercise was skipped", r.stdout[-2000:], r.stderr[-1000:])
print("PASS" if failed == 0 else f"FAIL: {failed} command(s)")
sys.exit(1 if failed else 0)
