#!/usr/bin/env python3
"""check_bench_quick.py: `awb bench --quick` does what its help says.

usage: check_bench_quick.py AWB

Without a sweep list --quick sweeps tiny shapes (T = 33,100, d = 16, causal and A off and on);
with one (-T 64 here) the lists not given keep their defaults: d = 64, causal off, A off.
"""
import json
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def points(awb, args):
    r = subprocess.run([awb, "bench", "--format", "json", "--variant", "parameter-free",
                        "--reps", "1", "--warmup", "0"] + args, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"awb bench exited {r.returncode}: {r.stderr}")
    doc = json.loads(r.stdout)
    if doc["quick"] is not True:
        fail("the document does not say quick")
    return doc["points"]


def main():
    awb = sys.argv[1]
    help_text = subprocess.run([awb, "bench", "--help"], capture_output=True, text=True).stdout
    for words in ("T = 33,100, d = 16, causal off,on, A off,on", "keep their defaults",
                  "(default 64)", "off, on or off,on (default off)"):
        if words not in " ".join(help_text.split()):
            fail(f"the help does not say '{words}'")

    with_list = points(awb, ["--quick", "-T", "64"])
    shapes = {(p["tokens"], p["d"], p["causal"], p["want_a"]) for p in with_list}
    if shapes != {(64, 64, False, False)}:
        fail(f"--quick -T 64 swept {sorted(shapes)}, not T = 64, d = 64, causal off, A off")

    tiny = points(awb, ["--quick"])
    shapes = {(p["tokens"], p["d"], p["causal"], p["want_a"]) for p in tiny}
    want = {(t, 16, c, a) for t in (33, 100) for c in (False, True) for a in (False, True)}
    if shapes != want:
        fail(f"--quick alone swept {sorted(shapes)}")
    print(f"PASS: --quick -T 64 is {len(with_list)} point at d = 64; --quick alone {len(tiny)}")


if __name__ == "__main__":
    main()
