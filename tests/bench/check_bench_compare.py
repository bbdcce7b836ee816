#!/usr/bin/env python3
"""check_bench_compare.py: `awb bench --save`, `--from` and `--compare`, without timing in the way.

usage: check_bench_compare.py AWB

One real run is saved by name (under a temporary XDG_DATA_HOME) to get a genuine document; its
samples are then replaced by made-up ones, and baselines are written beside it whose samples are
the same, or 10 % faster (so the run is 10 % slower than them). `--from run --compare base`
compares the two files without measuring anything, so the verdicts are fixed: "slower (+10.0 %,
p < 0.001)" against the faster baseline, "no significant change" against the equal one; a point
missing from the baseline is listed, and a baseline from another CPU is warned about.
`--fail-on-slower` exits 1 against the faster baseline and 0 against the equal one.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(awb, args, env):
    r = subprocess.run([awb, "bench"] + args, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        fail(f"awb bench {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return r


def main():
    awb = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp)
        run(awb, ["--variant", "parameter-free", "--tokens", "40,50", "--reps", "3", "--warmup",
                  "0", "--save", "real"], env)
        saved = os.path.join(tmp, "awb", "bench", "real.json")
        if not os.path.exists(saved):
            fail(f"--save real did not write {saved}")
        doc = json.load(open(saved))
        machine = doc.get("machine", {})
        for key in ("cpu_model", "isa", "logical_cpus", "compiler", "build_type", "flags"):
            if key not in machine:
                fail(f"the baseline's machine has no '{key}'")
        if not isinstance(machine["isa"], list):
            fail("the ISA is not a list of flags")
        points = doc["points"]
        if len(points) != 2:
            fail(f"expected 2 points, got {len(points)}")
        for p in points:
            for key in ("mode", "samples_ms", "params", "plugin_sha256", "plugin_file"):
                if key not in p:
                    fail(f"a saved point has no '{key}'")
            if p["mode"] != "in-process":
                fail(f"a bundled plugin ran as {p['mode']}")
            if len(p["samples_ms"]) != 3:
                fail("a point saved other than its 3 samples")

        # Made-up samples: 1.000 ... 1.019 ms, and the same 10 % faster.
        samples = [1.0 + 0.001 * i for i in range(20)]
        current = copy.deepcopy(doc)
        for p in current["points"]:
            p["samples_ms"] = samples
        same = copy.deepcopy(current)
        faster = copy.deepcopy(current)
        for p in faster["points"]:
            p["samples_ms"] = [s / 1.1 for s in samples]
        faster["points"] = faster["points"][:1]  # the second point is missing from it
        faster["machine"]["cpu_model"] = "Another CPU"
        files = {}
        for name, d in (("current", current), ("same", same), ("faster", faster)):
            files[name] = os.path.join(tmp, name + ".json")
            json.dump(d, open(files[name], "w"))

        out = run(awb, ["--from", files["current"], "--compare", files["faster"]], env).stdout
        print(out)
        slower = [l for l in out.splitlines() if "T=40" in l and "slower" in l]
        if len(slower) != 1 or "slower (+10.0 %, p < 0.001)" not in slower[0]:
            fail("the 10 % slowdown is not flagged as 'slower (+10.0 %, p < 0.001)'")
        if "not in the baseline: parameter-free in-process f32 T=50" not in out:
            fail("the point missing from the baseline is not listed")
        if "warning: the machine or build differs from the baseline's: CPU:" not in out:
            fail("no warning about the other CPU")

        out = run(awb, ["--from", files["current"], "--compare", files["same"]], env).stdout
        print(out)
        verdicts = [l for l in out.splitlines() if "in-process f32 T=" in l and "p =" in l]
        if len(verdicts) != 2:
            fail("expected a verdict on both points against the equal baseline")
        for l in verdicts:
            if "no significant change (+0.0 %, p = 1.000)" not in l:
                fail(f"an unchanged point is flagged: {l}")
        if "warning" in out:
            fail("a warning against a baseline from this very machine")

        # JSON stays one document on stdout; the comparison goes to stderr.
        r = run(awb, ["--from", files["current"], "--compare", files["faster"], "--format",
                      "json"], env)
        json.loads(r.stdout)
        if "slower (+10.0 %" not in r.stderr:
            fail("with --format json the comparison is not on stderr")

        # --fail-on-slower: exit 1 and say how many points, only when one is slower.
        r = subprocess.run([awb, "bench", "--from", files["current"], "--compare",
                            files["faster"], "--fail-on-slower"], capture_output=True, text=True,
                           env=env)
        if r.returncode != 1 or "1 point(s) slower than baseline" not in r.stderr:
            fail(f"--fail-on-slower on a slowdown: exit {r.returncode}, {r.stderr}")
        run(awb, ["--from", files["current"], "--compare", files["same"], "--fail-on-slower"], env)

        # A baseline that is not there fails before anything is measured.
        r = subprocess.run([awb, "bench", "--compare", "no-such-baseline"], capture_output=True,
                           text=True, env=env)
        if r.returncode == 0 or "no-such-baseline" not in r.stderr:
            fail(f"a missing baseline is not an error naming it: {r.returncode} {r.stderr}")
    print("PASS: save, from, compare")


if __name__ == "__main__":
    main()
