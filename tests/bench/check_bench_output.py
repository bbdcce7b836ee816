#!/usr/bin/env python3
"""check_bench_output.py: runs `awb bench` on a tiny sweep and checks its JSON or CSV output.

usage: check_bench_output.py AWB json|csv [awb bench options...]

Checks the structure; the FLOP counts are the variants' own cost models' (org.awb.cost/1), so
here a point either has one and its ratios agree with the figures they are made of and stay
below the FMA peak, or has none and every throughput figure is empty (null, or an empty CSV
cell) with the run's note for its variant (JSON); then that every point says whether it ran
in-process or in a runner (and, in CSV, the awb version, machine, plugin sha256, projections,
W_o and d_out of the run on every row), that the JSON median and its interval are those of the samples it
lists, that scaling fits come from three points or more with their R^2, and that exactly the
points whose materialised A/S exceed the memory budget are skipped, with a note.
"""
import csv
import io
import json
import math
import statistics
import subprocess
import sys

def materialised(p):
    size = 8 if p["scalar"] == "f64" else 4
    return p["heads"] * p["tokens"] ** 2 * size * (int(p["want_a"]) + int(p["want_s"]))


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def check_point(p, budget):
    for key in ("plugin", "variant", "mode", "scalar", "tokens", "d", "heads", "causal", "want_a",
                "status"):
        if key not in p:
            fail(f"point without '{key}': {p}")
    if p["mode"] not in ("in-process", "runner"):
        fail(f"bad run mode {p['mode']}")
    if p["status"] not in ("ok", "skipped", "failed"):
        fail(f"bad status {p['status']}")
    over = budget is not None and materialised(p) > budget
    if p["status"] == "skipped":
        if "note" not in p or not p["note"]:
            fail(f"skipped without a note: {p}")
        return "budget" in p["note"]
    if over:
        fail(f"point over the budget was not skipped: {p}")
    if p["status"] == "failed":
        fail(f"point failed: {p}")
    if not p["min_ms"] <= p["median_ms"] <= p["max_ms"]:
        fail(f"median outside min..max: {p}")
    if not p["first_call_ms"] > 0 or not p["median_ms"] > 0:
        fail(f"non-positive time: {p}")
    if p.get("flops") is None:  # no cost model: time and memory only
        for key in ("gflops", "gemm_ratio", "blas_ratio", "peak_share"):
            if p.get(key) is not None:
                fail(f"'{key}' without a cost model: {p}")
    elif p.get("gflops") is not None:  # null above the FMA peak, with a note
        if not close(p["gflops"], p["flops"] / (p["median_ms"] * 1e-3) * 1e-9, 1e-6):
            fail(f"GFLOP/s is not flops / median: {p}")
        if p["gflops"] > p["fma_peak_gflops"]:
            fail(f"GFLOP/s above the FMA peak: {p}")
        if not close(p["gemm_ratio"], p["gflops"] / p["gemm_gflops"], 1e-6):
            fail(f"GEMM ratio is not gflops / gemm_gflops: {p}")
        if p.get("blas_gflops") is not None and not close(
                p["blas_ratio"], p["gflops"] / p["blas_gflops"], 1e-6):
            fail(f"BLAS ratio is not gflops / blas_gflops: {p}")
        if not close(p["peak_share"], p["gflops"] / p["fma_peak_gflops"], 1e-6):
            fail(f"peak share is not gflops / fma peak: {p}")
    if p["peak_first_bytes"] < 0 or p["peak_warm_bytes"] < 0:
        fail(f"no memory figure on Linux: {p}")
    if not 1 <= p["n"]:
        fail(f"no timed call: {p}")
    if not p["ci_low_ms"] <= p["median_ms"] <= p["ci_high_ms"]:
        fail(f"median outside its interval: {p}")
    if "samples_ms" in p:  # JSON
        samples = p["samples_ms"]
        if len(samples) != p["n"]:
            fail(f"n is not the count of samples: {p}")
        if not close(statistics.median(samples), p["median_ms"], 1e-9):
            fail(f"the median is not the samples' median: {p}")
        if not close(min(samples), p["min_ms"]) or not close(max(samples), p["max_ms"]):
            fail(f"min or max is not the samples': {p}")
    return False


def check_fits(fits):
    for f in fits:
        if "note" in f:
            if f["points"] >= 3:
                fail(f"a fit of {f['points']} points left out: {f}")
            continue
        if f["points"] < 3:
            fail(f"a slope from fewer than 3 points: {f}")
        for key in ("time_r_squared", "memory_r_squared"):
            if not 0 <= f[key] <= 1:
                fail(f"R^2 out of [0, 1]: {f}")


def main():
    awb, fmt, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    budget = None
    if "--memory-budget" in args:
        budget = float(args[args.index("--memory-budget") + 1]) * 2**30
    run = subprocess.run([awb, "bench", "--format", fmt] + args, capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"awb bench exited {run.returncode}: {run.stderr}")
    if "[1/" not in run.stderr:
        fail("no progress on stderr")
    if fmt == "json":
        doc = json.loads(run.stdout)
        for key in ("threads", "gemm_n", "fma_isa", "blas", "flop_count", "memory_method",
                    "points", "machine", "repetition", "scaling", "notes"):
            if key not in doc:
                fail(f"no '{key}' in the document")
        if doc["gemm_n"] != 1024:
            fail("the GEMM yardstick is not n = 1024")
        points = doc["points"]
        # The BLAS yardstick: measured (a rate on every point with a cost model) when the
        # library loaded, else a reason and no rate.
        measured = doc["blas"].startswith("OpenBLAS ")
        if not measured and not doc["blas"].startswith("not measured: "):
            fail(f"'blas' is neither a library nor a reason: {doc['blas']!r}")
        for p in points:
            if p["status"] == "ok" and (p.get("blas_gflops") is not None) != measured:
                fail(f"blas_gflops {p.get('blas_gflops')} with 'blas' {doc['blas']!r}")
        check_fits(doc["scaling"])
        for p in points:
            note = f"{p['variant']}: no cost model (org.awb.cost/1): GFLOP/s left empty"
            if p["status"] == "ok" and p["flops"] is None and note not in doc["notes"]:
                fail(f"no note for {p['variant']} without a cost model: {doc['notes']}")
    else:
        rows = list(csv.DictReader(io.StringIO(run.stdout)))
        points = []
        # Every row carries the run's provenance and what the point computed.
        for r in rows:
            for key in ("awb_version", "cpu_model", "isa", "logical_cpus", "build", "projections",
                        "w_o", "d_out"):
                if r.get(key, "") == "":
                    fail(f"CSV row without '{key}': {r}")
            if r["status"] == "ok" and len(r.get("plugin_sha256", "")) != 64:
                fail(f"CSV row without the plugin's sha256: {r}")
        for r in rows:
            p = {k: v for k, v in r.items() if v != ""}
            for k in ("tokens", "d", "heads"):
                p[k] = int(p[k])
            if "n" in p:
                p["n"] = int(p["n"])
            for k in ("causal", "want_a", "want_s"):
                p[k] = p[k] == "1"
            for k in ("flops", "first_call_ms", "median_ms", "ci_low_ms", "ci_high_ms", "min_ms",
                      "max_ms", "gflops",
                      "gemm_gflops", "gemm_ratio", "blas_gflops", "blas_ratio",
                      "fma_peak_gflops", "peak_share",
                      "peak_first_bytes", "peak_warm_bytes"):
                if k in p:
                    p[k] = float(p[k])
            points.append(p)
    if not points:
        fail("no points")
    over_budget = [check_point(p, budget) for p in points]
    if budget is not None and not any(over_budget):
        fail("the sweep was meant to cross the memory budget")
    measured = sum(p["status"] == "ok" for p in points)
    print(f"PASS: {len(points)} points, {measured} measured")


if __name__ == "__main__":
    main()
