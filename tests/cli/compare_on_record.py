#!/usr/bin/env python3
"""`awb compare` keeps its parameters and provenance on record and never mixes two runs:
- one compare holds sliding-window@window=1, @window=3 and multi-head: three rows, three
  parameter sets (defaults filled in) in metrics.json and in the export's file names;
- metrics.json carries the awb version, each plugin's sha256 (equal to the file's), the input's
  sha256 (the same for the same problem, another for another) and the machine;
- an export into a folder of an earlier export of another problem leaves nothing of the old run;
  an export into a folder holding a user's file is refused ([export.usage], exit 2) and the
  folder is left as it was;
- a parameter set twice, a variant's own parameter it does not declare, and the same variant
  twice with the same values are usage errors (exit 2) naming their ids.
Usage: compare_on_record.py AWB PROBLEM_FILE
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

awb, problem = sys.argv[1], sys.argv[2]
failures = []


def check(ok, what):
    print(("ok   " if ok else "BAD  ") + what)
    if not ok:
        failures.append(what)


def compare(*args):
    return subprocess.run([awb, "compare", *args], capture_output=True, text=True)


three = ["--variant", "sliding-window@window=1", "--variant", "sliding-window@window=3",
         "--variant", "multi-head"]
with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    out = tmp / "export"
    r = compare("--problem", problem, *three, "--export", str(out), "--format", "json")
    check(r.returncode == 0, f"three variants: exit {r.returncode} {r.stderr.strip()}")
    doc = json.loads((out / "metrics.json").read_text())
    rows = {v["variant"]: v for v in doc["variants"]}
    check(sorted(rows) == ["multi-head", "sliding-window@window=1", "sliding-window@window=3"],
          f"three rows: {sorted(rows)}")
    check(rows["sliding-window@window=1"]["params"] == {"window": "1"} and
          rows["sliding-window@window=3"]["params"] == {"window": "3"} and
          rows["multi-head"]["params"] == {}, "each row's full parameter set")
    for label, v in rows.items():
        check(v["max_abs_error"] <= 1e-12, f"{label} against its own reference: "
              f"{v['max_abs_error']:.3g}")
        check((out / f"{label}.layer0.head0.A.npy").is_file(), f"{label}.layer0.head0.A.npy")
    check(doc["awb_version"] != "" and doc["machine"]["cpu_model"] != "",
          "awb version and machine recorded")
    plugins = {}
    listing = subprocess.run([awb, "plugins", "--format", "json"], capture_output=True,
                             text=True)
    if listing.returncode == 0:
        for p in json.loads(listing.stdout).get("plugins", []):
            for variant in p.get("variants", []):
                plugins[variant["id"]] = p["path"]
    for label, v in rows.items():
        path = plugins.get(v["id"])
        if path and os.path.isfile(path):
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            check(v["plugin_sha256"] == digest, f"{label}: plugin sha256 is the file's")
        else:
            check(len(v["plugin_sha256"]) == 64, f"{label}: plugin sha256 recorded")
    first_digest = doc["problem_sha256"]
    check(len(first_digest) == 64, "the input's sha256 recorded")

    # The same folder, another problem: the old run's files are gone, the new are there whole.
    r = compare("--exercise", "river-bank", "--variant", "qkv", "--export", str(out))
    check(r.returncode == 0, f"export over an earlier export: exit {r.returncode}")
    names = sorted(p.name for p in out.iterdir())
    check(not any("sliding-window" in n or "multi-head" in n for n in names),
          "nothing of the earlier run is left")
    check("qkv.layer0.head0.A.npy" in names, "the new run's files are there")
    again = json.loads((out / "metrics.json").read_text())
    check(again["problem_sha256"] != first_digest, "another problem, another input sha256")
    check(again.get("exercise") == "river-bank", "metrics.json is the new run's")
    # The fixture holds the journey example's numbers: the digest is of the input, not the file.
    r = compare("--example", "journey", "--variant", "multi-head", "--format", "json")
    check(json.loads(r.stdout)["problem_sha256"] == first_digest,
          "the journey example and the file of its numbers: the same input sha256")
    staging = [p.name for p in tmp.iterdir() if p.name != "export"]
    check(staging == [], f"no staging folder left beside it: {staging}")
    r = compare("--problem", problem, *three, "--format", "json")
    check(json.loads(r.stdout)["problem_sha256"] == first_digest,
          "the same problem, the same input sha256")

    # A folder with a user's file: refused, left as it was.
    mine = tmp / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes\n")
    r = compare("--problem", problem, *three, "--export", str(mine))
    check(r.returncode == 2 and "[export.usage]" in r.stderr,
          f"a folder with a user's file: exit {r.returncode}, {r.stderr.strip()}")
    check(sorted(p.name for p in mine.iterdir()) == ["notes.txt"] and
          (mine / "notes.txt").read_text() == "my notes\n", "the user's folder is untouched")

for args, error_id in (
        (["--variant", "sliding-window", "--param", "window=1", "--param", "window=3"],
         "param.usage"),
        (["--variant", "sliding-window@windw=2"], "param.usage"),
        (["--variant", "sliding-window@window=2", "--variant", "sliding-window@window=2.0"],
         "compare.usage"),
        (["--variant", "sliding-window@"], "param.syntax"),
        (["--variant", "multi-head", "--param", "temprature=2"], "param.usage")):
    r = compare("--problem", problem, *args)
    check(r.returncode == 2 and f"[{error_id}]" in r.stderr,
          f"{' '.join(args)}: exit {r.returncode}, {r.stderr.strip()}")

print("PASS" if not failures else f"FAIL: {len(failures)}")
sys.exit(1 if failures else 0)
