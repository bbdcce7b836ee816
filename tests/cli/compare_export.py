#!/usr/bin/env python3
"""compare_export.py AWB PROBLEM: `awb compare --problem PROBLEM --export DIR` writes every
layer's and head's attention matrix as .npy and CSV; each reads back (with numpy when it is
installed, else with the reader below) equal to what `awb run --problem PROBLEM --format json`
returns for the same variant, and the CSV carries the tokens as headers. The metrics files
agree with --format json."""
import csv
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

awb, problem = sys.argv[1], sys.argv[2]
variants = ["qkv", "multi-head", "parameter-free"]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def read_npy(path):
    """NPY 1.0, '<f8', C order: the rows as lists of floats."""
    data = path.read_bytes()
    assert data[:6] == b"\x93NUMPY" and data[6:8] == b"\x01\x00", f"{path}: not NPY 1.0"
    header_len = struct.unpack("<H", data[8:10])[0]
    header = eval(data[10:10 + header_len].decode("latin1"), {}, {})  # a Python literal dict
    assert header["descr"] == "<f8" and not header["fortran_order"], header
    assert (10 + header_len) % 64 == 0, "header not padded to 64 bytes"
    rows, cols = header["shape"]
    values = struct.unpack(f"<{rows * cols}d", data[10 + header_len:])
    return [list(values[r * cols:(r + 1) * cols]) for r in range(rows)]


try:
    import numpy

    def load(path):
        return numpy.load(path).tolist()
    reader = "numpy"
except ImportError:
    load = read_npy
    reader = "the plain reader"

run = subprocess.run([awb, "run", "--problem", problem, "--format", "json"] +
                     [a for v in variants for a in ("--variant", v)],
                     capture_output=True, text=True, check=True)
runs = {r["variant"]: r for r in json.loads(run.stdout)["runs"]}

with tempfile.TemporaryDirectory() as tmp:
    out = Path(tmp) / "export"
    cmp = subprocess.run([awb, "compare", "--problem", problem, "--head", "all", "--export",
                          str(out), "--format", "json"] +
                         [a for v in variants for a in ("--variant", v)],
                         capture_output=True, text=True, check=True)
    printed = json.loads(cmp.stdout)
    check(json.loads((out / "metrics.json").read_text()) == printed,
          "metrics.json differs from --format json")
    check((out / "metrics.csv").read_text().startswith("variant,against,layer,head,"),
          "metrics.csv has no header")
    tokens = printed["tokens"]
    compared = 0
    for v in variants:
        layers = runs[v]["layers"]
        check(len(layers) > 0, f"awb run {v}: no layers")
        for l, layer in enumerate(layers):
            for h, expected in enumerate(layer["weights"]):
                stem = f"{v}.layer{l}.head{h}.A"
                got = load(out / (stem + ".npy"))
                check(got == expected, f"{stem}.npy differs from awb run's weights")
                with open(out / (stem + ".csv"), newline="") as f:
                    table = list(csv.reader(f))
                check(table[0] == ["query\\key"] + tokens, f"{stem}.csv header {table[0]}")
                check([r[0] for r in table[1:]] == tokens, f"{stem}.csv row labels")
                check([[float(x) for x in r[1:]] for r in table[1:]] == expected,
                      f"{stem}.csv values differ from awb run's weights")
                compared += 1
            z = load(out / f"{v}.layer{l}.Z.npy")
            check(z == layer["z"], f"{v}.layer{l}.Z.npy differs from awb run's z")
        # No file for a head the run does not have.
        heads = len(layers[-1]["weights"])
        check(not (out / f"{v}.layer0.head{heads}.A.npy").exists(), f"{v}: an extra head file")
    check((out / "reference.layer0.head1.A.npy").exists(), "the reference's head 1 is missing")

if failures:
    print("FAIL\n" + "\n".join(failures))
    sys.exit(1)
print(f"PASS: {compared} matrices read back with {reader}, equal to awb run's")
