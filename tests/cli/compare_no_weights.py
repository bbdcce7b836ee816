#!/usr/bin/env python3
"""`awb compare --no-weights` and `awb run --no-weights` ask for Z alone, so that the path a
variant takes without A (linear's and sliding-window's streaming kernels) is what is checked:
- multi-head, sliding-window@window=2 and linear on a problem file: Z within 1e-12 of each one's
  own reference, no weights requested (metrics.json says so);
- the split-path fixture, right with A and off by 1e-3 without it: within 1e-12 in a plain
  compare, 1e-3 with --no-weights (the check sees the path it claims to);
- `awb run --no-weights` prints no weights and the same Z as a run with them.
Usage: compare_no_weights.py AWB PROBLEM_FILE SPLIT_PATH_FIXTURE_DIR
"""
import json
import subprocess
import sys

awb, problem, split_dir = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(ok, what):
    print(("ok   " if ok else "BAD  ") + what)
    if not ok:
        failures.append(what)


def run_json(*args):
    r = subprocess.run([awb, *args, "--format", "json"], capture_output=True, text=True)
    if r.returncode != 0:
        check(False, f"{' '.join(args)}: exit {r.returncode} {r.stderr.strip()}")
        return None
    return json.loads(r.stdout)


doc = run_json("compare", "--problem", problem, "--variant", "multi-head", "--variant",
               "sliding-window@window=2", "--variant", "linear", "--no-weights")
if doc:
    check(doc["weights_requested"] is False, "metrics say Z alone was asked")
    for v in doc["variants"]:
        check(v["max_abs_error"] <= 1e-12,
              f"{v['variant']}: Z without A against its own reference: {v['max_abs_error']:.3g}")

for flags, low, high in (([], 0, 1e-12), (["--no-weights"], 0.9e-3, 1.1e-3)):
    doc = run_json("compare", "--problem", problem, "--plugin-dir", split_dir, "--variant",
                   "split-path", *flags)
    if doc:
        e = doc["variants"][0]["max_abs_error"]
        check(low <= e <= high, f"split-path {' '.join(flags) or '(with A)'}: max abs error "
              f"{e:.3g}, expected {low:g}..{high:g}")

with_a = run_json("run", "--problem", problem, "--variant", "linear")
without = run_json("run", "--problem", problem, "--variant", "linear", "--no-weights")
if with_a and without:
    la, lz = with_a["runs"][0]["layers"][0], without["runs"][0]["layers"][0]
    check(not lz.get("weights") and not lz.get("scores"), "run --no-weights prints no A or S")
    za, zz = la["z"], lz["z"]
    diff = max(abs(a - b) for ra, rb in zip(za, zz) for a, b in zip(ra, rb))
    check(len(za) == len(zz) and diff <= 1e-12, f"the same Z with and without A: {diff:.3g}")

print("PASS" if not failures else f"FAIL: {len(failures)}")
sys.exit(1 if failures else 0)
