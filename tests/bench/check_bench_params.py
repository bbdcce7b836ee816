#!/usr/bin/env python3
"""check_bench_params.py: `awb bench --param` sweeps and cost models, on the banded fixture.

usage: check_bench_params.py AWB FIXTURE_DIR

The fixture's variants take one parameter, window; `banded` has an honest cost model (4*d per
visible pair), `banded-uncosted` none, `banded-inflated` one that claims 1e18 FLOPs a pass. Checks
one row per parameter value with the value shown (JSON, CSV, table), FLOPs recomputed here from
the shape, GFLOP/s = flops / median, empty figures and the note without a cost model or above
the FMA peak, --save/--compare keyed by the values, and the errors of an undeclared parameter
(exit 5) and of a bad list (exit 2). Nothing here depends on how fast the machine is.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def band_pairs(tokens, window, causal):
    return sum(min(t, window) + (0 if causal else min(tokens - 1 - t, window)) + 1
               for t in range(tokens))


def main():
    awb, fixture = sys.argv[1], sys.argv[2]
    base = [awb, "bench", "--plugin-dir", fixture, "--reps", "3", "--warmup", "0",
            "--threads", "1", "-d", "8"]
    variants = ["--variant", "banded", "--variant", "banded-uncosted",
                "--variant", "banded-inflated"]

    def bench(*args):
        return subprocess.run(base + list(args), capture_output=True, text=True)

    run = bench(*variants, "--param", "window=2,16", "-T", "40,80", "--format", "json")
    if run.returncode != 0:
        fail(f"awb bench exited {run.returncode}: {run.stderr}")
    doc = json.loads(run.stdout)
    points = doc["points"]
    seen = sorted((p["variant"], p["params"]["window"], p["tokens"]) for p in points)
    want = sorted((v, w, t) for v in ("banded", "banded-uncosted", "banded-inflated")
                  for w in ("2", "16") for t in (40, 80))
    if seen != want:
        fail(f"not one point per variant, window and T: {seen}")
    for p in points:
        if p["status"] != "ok":
            fail(f"point not measured: {p}")
        if p["params"] != {"window": p["params"]["window"]}:
            fail(f"params other than window: {p}")
        if p["variant"] == "banded":
            window = int(p["params"]["window"])
            flops = 4 * band_pairs(p["tokens"], window, p["causal"]) * p["d"]
            if p["flops"] != flops:
                fail(f"FLOPs are not the cost model's {flops}: {p}")
            if p["cost_bytes"] != 2 * p["tokens"] * p["d"] * 4:
                fail(f"bytes are not the cost model's: {p}")
            if p["gflops"] is None or not close(p["gflops"],
                                                p["flops"] / (p["median_ms"] * 1e-3) / 1e9):
                fail(f"GFLOP/s is not flops / median: {p}")
            if p["gflops"] > p["fma_peak_gflops"]:
                fail(f"GFLOP/s above the FMA peak reported: {p}")
            if not close(p["peak_share"], p["gflops"] / p["fma_peak_gflops"]):
                fail(f"peak share is not gflops / peak: {p}")
            if not close(p["gbytes_per_s"], p["cost_bytes"] / (p["median_ms"] * 1e-3) / 1e9):
                fail(f"GB/s is not bytes / median: {p}")
        elif p["variant"] == "banded-uncosted":
            for key in ("flops", "cost_bytes", "gflops", "gemm_ratio", "peak_share",
                        "gbytes_per_s"):
                if p[key] is not None:
                    fail(f"'{key}' without a cost model is not null: {p}")
            if not p["median_ms"] > 0 or not p["gemm_gflops"] > 0:
                fail(f"time or the GEMM yardstick missing without a cost model: {p}")
        else:
            if p["flops"] != 1e18:
                fail(f"the claimed FLOPs are not kept: {p}")
            for key in ("gflops", "gemm_ratio", "peak_share"):
                if p[key] is not None:
                    fail(f"'{key}' above the peak is not null: {p}")
    notes = doc["notes"]
    if notes.count("banded-uncosted: no cost model (org.awb.cost/1): GFLOP/s left empty") != 1:
        fail(f"no single note for the variant without a cost model: {notes}")
    if len([n for n in notes if n.startswith("banded-inflated: its cost model claims more "
                                             "than the machine's FMA peak")]) != 1:
        fail(f"no single note for the cost model above the peak: {notes}")
    if any(n.startswith("banded:") for n in notes):
        fail(f"a note for the honest cost model: {notes}")

    # The table: a params column, n/a for the empty figures, the notes once.
    table = bench(*variants, "--param", "window=2", "-T", "40")
    if table.returncode != 0:
        fail(f"table run exited {table.returncode}: {table.stderr}")
    rows = [line for line in table.stdout.splitlines() if line.startswith("banded")]
    if len(rows) != 3 or not all(" window=2 " in r for r in rows):
        fail(f"table rows without their parameter: {rows}")
    if not all(" n/a " in r for r in rows if not r.startswith("banded ")):
        fail(f"empty figures not shown as n/a: {rows}")
    if table.stdout.count("no cost model (org.awb.cost/1): GFLOP/s left empty") != 1:
        fail("the table does not print the note once")

    # CSV: the params cell, empty figures.
    run = bench("--variant", "banded-uncosted", "--param", "window=4", "-T", "40,80",
                "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    if run.returncode != 0 or len(rows) != 2:
        fail(f"CSV run: {run.returncode} {run.stderr}")
    if any(r["params"] != "window=4" or r["gflops"] != "" or r["flops"] != "" for r in rows):
        fail(f"CSV params or empty figures wrong: {rows}")
    if "note: banded-uncosted: no cost model" not in run.stderr:
        fail("CSV run does not print the note on stderr")

    # --save keeps the values; --compare matches points by them.
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, "before.json")
        run = bench("--variant", "banded", "--param", "window=2,16", "-T", "40", "--save", saved)
        if run.returncode != 0:
            fail(f"--save exited {run.returncode}: {run.stderr}")
        with open(saved) as f:
            if sorted(p["params"]["window"] for p in json.load(f)["points"]) != ["16", "2"]:
                fail("the saved baseline lost the parameter values")
        run = bench("--variant", "banded", "--param", "window=16", "-T", "40", "--compare", saved)
        if run.returncode != 0:
            fail(f"--compare exited {run.returncode}: {run.stderr}")
        lines = run.stdout.splitlines()
        if not any(line.startswith("banded window=16 ") and "not in" not in line
                   for line in lines):
            fail(f"window=16 not compared with its baseline point: {run.stdout}")
        if "not in this run: banded window=2 " not in run.stdout:
            fail(f"window=2 not reported as missing from this run: {run.stdout}")

    # Errors: an undeclared parameter is a usage error before anything is measured; a bad list.
    run = bench("--variant", "banded", "--param", "widow=2")
    if (run.returncode != 2 or "[param.usage]" not in run.stderr
            or "did you mean 'window'?" not in run.stderr or "[1/" in run.stderr):
        fail(f"undeclared parameter: exit {run.returncode}, {run.stderr}")
    run = bench("--variant", "banded-uncosted", "--variant", "banded", "--param", "window=2",
                "--param", "feature_map=relu")
    if run.returncode != 2 or "[param.usage]" not in run.stderr or "feature_map" not in run.stderr:
        fail(f"undeclared second parameter: exit {run.returncode}, {run.stderr}")
    for bad in ("window=", "window=2,,4", "=2", "window"):
        run = bench("--variant", "banded", "--param", bad)
        if run.returncode != 2 or "[param.syntax]" not in run.stderr:
            fail(f"--param {bad}: exit {run.returncode}, {run.stderr}")
    print(f"PASS: {len(points)} points, parameters and cost models as stated")


if __name__ == "__main__":
    main()
