#!/usr/bin/env python3
"""check_bench_identity.py: bench points are known by their values, not by how they were typed.

usage: check_bench_identity.py AWB TEMPERED_FIXTURE_DIR

On the tempered fixture (one float parameter, temperature, default 1):
- a run saved with temperature=0.5 and compared with temperature=0.50: every point matched,
  each with a verdict;
- a run saved without the parameter (the default) and compared with the default written out
  (temperature=1.0): every point matched;
- every row carries the variant's full parameter set, defaults filled in;
- one run holds a variant without parameters beside one swept (parameter-free with
  tempered --param temperature=0.5,2) and the same variant at two values
  (tempered@temperature=0.5, tempered@temperature=2);
- a parameter set twice is a usage error.
Nothing here depends on how fast the machine is.
"""
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def main():
    awb, fixture = sys.argv[1], sys.argv[2]
    base = [awb, "bench", "--plugin-dir", fixture, "--reps", "3", "--warmup", "0",
            "--threads", "1", "-d", "8", "-T", "40,50"]

    def bench(*args, ok=True):
        r = subprocess.run(base + list(args), capture_output=True, text=True)
        if ok and r.returncode != 0:
            fail(f"awb bench {' '.join(args)} exited {r.returncode}: {r.stderr}")
        return r

    def matched(out, expected):
        lines = [l for l in out.splitlines() if l.startswith("tempered ")]
        verdicts = [l for l in lines if "not in" not in l and
                    ("slower" in l or "faster" in l or "no significant change" in l)]
        if "not in " in out or len(verdicts) != expected:
            fail(f"points not all matched ({len(verdicts)} of {expected}):\n{out}")
        return verdicts

    with tempfile.TemporaryDirectory() as tmp:
        half = os.path.join(tmp, "half.json")
        bench("--variant", "tempered", "--param", "temperature=0.5", "--save", half)
        doc = json.load(open(half))
        params = [p["params"] for p in doc["points"]]
        if params != [{"temperature": "0.5"}] * 2:
            fail(f"saved parameters {params}")
        r = bench("--variant", "tempered", "--param", "temperature=0.50", "--compare", half)
        for line in matched(r.stdout, 2):
            print("matched:", line)

        default = os.path.join(tmp, "default.json")
        bench("--variant", "tempered", "--save", default)
        params = [p["params"] for p in json.load(open(default))["points"]]
        if params != [{"temperature": "1"}] * 2:
            fail(f"the default is not on record: {params}")
        r = bench("--variant", "tempered", "--param", "temperature=1.0", "--compare", default)
        for line in matched(r.stdout, 2):
            print("matched:", line)

    r = bench("--variant", "parameter-free", "--variant", "tempered", "--param",
              "temperature=0.5,2", "--format", "json")
    rows = [(p["variant"], p["params"].get("temperature")) for p in json.loads(r.stdout)["points"]]
    want = [("parameter-free", None)] * 2 + [("tempered", "0.5")] * 2 + [("tempered", "2")] * 2
    if sorted(rows, key=str) != sorted(want, key=str):
        fail(f"a variant without the parameter beside one swept: {rows}")
    print("mixed:", rows)
    r = bench("--variant", "tempered@temperature=0.5", "--variant", "tempered@temperature=2",
              "--format", "json")
    rows = [p["params"]["temperature"] for p in json.loads(r.stdout)["points"]]
    if rows != ["0.5", "0.5", "2", "2"]:
        fail(f"one variant at two values: {rows}")
    print("one variant at two values:", rows)
    r = bench("--variant", "tempered", "--param", "temperature=1", "--param", "temperature=2",
              ok=False)
    if r.returncode != 2 or "[param.usage]" not in r.stderr:
        fail(f"a parameter set twice: exit {r.returncode}, {r.stderr}")
    print("PASS")


main()
