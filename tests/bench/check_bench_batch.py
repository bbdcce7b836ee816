#!/usr/bin/env python3
"""check_bench_batch.py: `awb bench --batch` and `--padding` time batches of padded sequences.

usage: check_bench_batch.py AWB SDK_1_0_PLUGIN

multi-head (the C++ layer, which declares the batch capability) at T = 40, 20, 30, one sequence
each, then three sequences of 40 whole and padded by 0.5: the batch's FLOPs are those of its
sequences at their own lengths (40, 30 and 20 tokens: the cost of each sequence added up), JSON
and CSV carry batch and padding, the table says so; the same batch with --backward; and a
plugin built against SDK 1.0 (no batch capability, in a runner) is measured on the padded batch,
the host calling it once per sequence. Nothing here depends on how fast the machine is.
"""
import csv
import io
import json
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(awb, *args):
    p = subprocess.run([awb, "bench", "--reps", "2", "--warmup", "0", "--threads", "1", *args],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"awb bench {' '.join(args)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def points(awb, *args):
    doc = json.loads(run(awb, *args, "--format", "json"))
    return doc["points"]


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def main():
    awb, old_plugin = sys.argv[1], sys.argv[2]
    shape = ["--variant", "multi-head", "-d", "8", "--heads", "2", "--w-o", "on"]
    single = {p["tokens"]: p for p in points(awb, *shape, "-T", "20,30,40")}
    for t, p in single.items():
        if p["status"] != "ok" or p["batch"] != 1 or p["padding"] != 0:
            fail(f"T={t}: {p}")
    whole, padded = points(awb, *shape, "-T", "40", "--batch", "3", "--padding", "0,0.5")
    for p in (whole, padded):
        if p["status"] != "ok" or p["batch"] != 3:
            fail(f"batch point: {p}")
    if not close(whole["flops"], 3 * single[40]["flops"]):
        fail(f"3 whole sequences: {whole['flops']} FLOPs, not 3 x {single[40]['flops']}")
    expected = sum(single[t]["flops"] for t in (40, 30, 20))
    if padded["padding"] != 0.5 or not close(padded["flops"], expected):
        fail(f"padded batch: {padded['flops']} FLOPs, not the sequences' {expected} (40, 30, 20)")
    print(f"batch FLOPs: whole {whole['flops']:.0f}, padded {padded['flops']:.0f} = "
          f"sum over 40, 30, 20 tokens")

    table = run(awb, *shape, "-T", "40", "--batch", "3", "--padding", "0.5")
    if "batch 3 padding 0.50" not in table:
        fail(f"the table does not name the batch:\n{table}")
    rows = list(csv.DictReader(io.StringIO(
        run(awb, *shape, "-T", "40", "--batch", "3", "--padding", "0.5", "--format", "csv"))))
    if len(rows) != 1 or rows[0]["batch"] != "3" or float(rows[0]["padding"]) != 0.5:
        fail(f"CSV rows: {rows}")

    step = points(awb, *shape, "-T", "40", "--batch", "3", "--padding", "0.5", "--backward")[0]
    if step["status"] != "ok" or not close(step["flops"], 3.5 * padded["flops"]):
        fail(f"a padded batch's training step: {step}")

    old = points(awb, "--plugin-dir", old_plugin, "--variant", "old-attention", "-d", "8",
                 "-T", "40", "--batch", "3", "--padding", "0.5")[0]
    if old["status"] != "ok" or old["mode"] != "runner" or old["batch"] != 3:
        fail(f"SDK 1.0 plugin on a padded batch: {old}")
    print("PASS")


main()
