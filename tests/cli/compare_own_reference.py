#!/usr/bin/env python3
"""`awb compare` checks each variant against the reference of the family it computes, with its
parameters, whatever family the input is: multi-head, sliding-window (window=2) and linear on a
problem file (softmax), and sliding-window on the river-bank exercise, each within 1e-12 of its
own reference (before, sliding-window read 0.19 and linear 0.026 against softmax).
Usage: compare_own_reference.py AWB PROBLEM_FILE
"""
import json
import subprocess
import sys

awb, problem = sys.argv[1], sys.argv[2]
failed = 0
for args in (["--problem", problem, "--variant", "multi-head", "--variant", "sliding-window",
              "--variant", "linear", "--param", "window=2"],
             ["--exercise", "river-bank", "--variant", "sliding-window"]):
    r = subprocess.run([awb, "compare", *args, "--format", "json"], capture_output=True, text=True)
    if r.returncode != 0:
        print("BAD: exit", r.returncode, r.stderr)
        failed += 1
        continue
    for v in json.loads(r.stdout)["variants"]:
        ok = v["max_abs_error"] <= 1e-12
        print(("ok  " if ok else "BAD ") + f"{v['variant']}: max abs error {v['max_abs_error']:.3g}"
              + "".join(f"; {n}" for n in v["notes"]))
        failed += 0 if ok else 1
print("PASS" if failed == 0 else f"FAIL: {failed}")
sys.exit(1 if failed else 0)
