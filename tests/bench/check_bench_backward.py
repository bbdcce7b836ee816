#!/usr/bin/env python3
"""check_bench_backward.py: `awb bench --backward` times a training step, forward then backward.

usage: check_bench_backward.py AWB

On tiny points (T = 33 and 100, not multiples of any tile) of qkv, multi-head with W_o and
causal, forward only and then with --backward: every point says "backward", the trainable
variants are measured and linear (which has no backward pass) is skipped saying why, a step's
FLOPs are 3.5 times the forward's (the backward counted as 2.5 forwards), its inputs and outputs
count the gradients, the table marks fwd+bwd rows, and --save / --compare keep forward and
training points apart. Nothing here depends on how fast the machine is.
"""
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(awb, *args, env=None):
    p = subprocess.run([awb, "bench", *args], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail(f"awb bench {' '.join(args)} exited {p.returncode}:\n{p.stderr}")
    return p.stdout


def points(awb, *extra, env=None):
    base = ["--reps", "2", "--warmup", "0", "--threads", "1", "-T", "33,100", "-d", "8",
            "--heads", "2", "--w-o", "on", "--variant", "multi-head", "--variant", "causal",
            "--variant", "linear", "--causal", "on"]
    doc = json.loads(run(awb, *base, "--format", "json", *extra, env=env))
    return {(p["variant"], p["tokens"]): p for p in doc["points"]}, doc


def main():
    awb = sys.argv[1]
    forward, _ = points(awb)
    step, doc = points(awb, "--backward")
    if "backward" not in doc["flop_count"] or "3.5" not in doc["flop_count"]:
        fail(f"flop_count does not say how a step is counted: {doc['flop_count']!r}")
    for key, p in step.items():
        if p["backward"] is not True:
            fail(f"{key}: backward is {p['backward']!r}")
        if forward[key]["backward"] is not False:
            fail(f"{key}: a forward point says backward {forward[key]['backward']!r}")
        if key[0] == "linear":
            if p["status"] != "skipped" or "no backward pass" not in p.get("note", ""):
                fail(f"{key}: linear should be skipped for its missing backward, got {p}")
            continue
        if p["status"] != "ok":
            fail(f"{key}: {p['status']}: {p.get('note')}")
        f = forward[key]
        if not (p["flops"] > 0 and abs(p["flops"] - 3.5 * f["flops"]) <= 1e-9 * p["flops"]):
            fail(f"{key}: a step's FLOPs {p['flops']} are not 3.5 x the forward's {f['flops']}")
        if abs(p["gflops"] - p["flops"] / (p["median_ms"] * 1e6)) > 1e-6 * p["gflops"]:
            fail(f"{key}: GFLOP/s {p['gflops']} is not flops / median")
        if not p["io_bytes"] == 2 * f["io_bytes"]:
            fail(f"{key}: a step's io_bytes {p['io_bytes']} are not twice the forward's "
                 f"{f['io_bytes']} (dZ and one gradient per input)")
    print(f"{len(step)} points: fwd+bwd FLOPs 3.5x the forward's; linear skipped")

    table = run(awb, "--reps", "1", "--warmup", "0", "-T", "33", "-d", "8", "--variant", "qkv",
                "--backward")
    rows = [line for line in table.splitlines() if line.startswith("qkv ")]
    if not rows or not all("fwd+bwd" in line for line in rows):
        fail(f"the table does not mark the step rows fwd+bwd:\n{table}")

    # The goals preset's training step stays one (on parameter-free, whose goal points these
    # are: the multi-head ones are skipped for its single head).
    goals = json.loads(run(awb, "--preset", "goals", "--variant", "parameter-free", "--reps", "1",
                           "--warmup", "0", "--threads", "1", "--format", "json"))
    steps = [p for p in goals["points"] if p["backward"] and p["status"] == "ok"]
    if len(steps) != 1 or steps[0]["tokens"] != 4096 or "fwd+bwd" not in steps[0]["goal"]:
        fail(f"the goals preset's training step: {steps}")
    if any("fwd+bwd" in p["goal"] for p in goals["points"] if not p["backward"]):
        fail("a goals point about fwd+bwd was timed as a forward")

    # Saved and compared: a training step never matches a forward point of the same shape.
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=home)
        points(awb, "--save", "fwd", env=env)
        p = subprocess.run([awb, "bench", "--reps", "2", "--warmup", "0", "--threads", "1",
                            "-T", "33", "-d", "8", "--variant", "qkv", "--backward",
                            "--compare", "fwd"], capture_output=True, text=True, env=env)
        text = p.stdout + p.stderr
        unmatched = [line for line in text.splitlines() if line.startswith("not in the baseline")]
        if not unmatched or not all("fwd+bwd" in line for line in unmatched):
            fail(f"--compare matched a step with a forward point:\n{text}")
    print("PASS")


if __name__ == "__main__":
    main()
