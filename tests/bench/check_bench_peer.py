#!/usr/bin/env python3
"""check_bench_peer.py: `awb bench --peer torch` times the same points in PyTorch, or says why not.

usage: check_bench_peer.py AWB present|absent

present: tiny points (T = 64, d = 16): multi-head with 2 heads, W_o off and on, causal off and
on, forward and --backward, linear beside it, and parameter-free; multi-head with 4 query heads
over 2 key/value heads. Where this Python (the one awb
was configured with, hence the one its driver runs in) imports torch, every multi-head and
parameter-free point has torch's median and a finite positive ratio (torch's / awb's) in JSON,
CSV and the table, the header names torch's version and threads, torch's op names W_o, the mask
and the backward exactly when the point has them, linear gets "no torch peer for variant linear",
batched points (3 sequences, padded or not) name the batch and the lengths torch masked,
and a run saved with the peer's data is read back by --from and compared by --compare. Where
torch is not installed (CI machines), the same runs must print the skip line with the reason
and still measure every point.

absent: the peer forced away, torch installed or not: AWB_PEER_PYTHON naming no interpreter,
then a torch that fails to import (a torch.py first on PYTHONPATH raising what a missing module
raises). Each prints "torch peer skipped: <reason>" once (the table's header; stderr beside a
JSON document) and every point is still measured. Nothing here depends on the machine's speed.
"""
import csv
import io
import json
import math
import os
import subprocess
import sys
import tempfile

MULTI_HEAD = ["--variant", "multi-head", "--variant", "linear", "--heads", "2",
              "--w-o", "off,on", "--causal", "off,on"]
PARAMETER_FREE = ["--variant", "parameter-free", "--causal", "off,on", "--scalar", "f32,f64"]


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def bench(awb, *args, env=None):
    base = ["bench", "--reps", "2", "--warmup", "0", "--threads", "1", "-T", "64", "-d", "16"]
    p = subprocess.run([awb, *base, *args], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail(f"awb bench {' '.join(args)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p


def torch_version():
    """torch's version in this interpreter (awb's driver runs in the same one), or None."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AWB_PEER_PYTHON")}
    p = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"],
                       capture_output=True, text=True, env=env)
    return p.stdout.strip() if p.returncode == 0 else None


def check_measured(doc, what):
    for p in doc["points"]:
        if p["variant"] != "linear" or not p["backward"]:
            if p["status"] != "ok" or not p["median_ms"] > 0:
                fail(f"{what}: awb's point was not measured: {p}")


def check_peer_points(doc, version):
    peer = doc.get("peer")
    if not peer or peer.get("name") != "torch" or peer.get("version") != version:
        fail(f"the run header's peer does not name torch {version}: {peer}")
    if peer.get("threads") != 1 or peer.get("threads_rule") != "--threads 1":
        fail(f"torch did not run on the point's one thread: {peer}")
    for p in doc["points"]:
        key = (p["variant"], p["causal"], p["w_o"], p["scalar"], p["backward"])
        if p["status"] != "ok":
            continue  # linear's steps: it has no backward pass
        if p["variant"] == "linear":
            if p.get("peer_note") != "no torch peer for variant linear" or \
                    p["peer_ratio"] is not None or p["peer_median_ms"] is not None:
                fail(f"{key}: linear should have no peer, saying so: {p}")
            continue
        ratio, ms = p["peer_ratio"], p["peer_median_ms"]
        if not (isinstance(ratio, float) and math.isfinite(ratio) and ratio > 0 and ms > 0):
            fail(f"{key}: no finite positive ratio to torch: {p}")
        if abs(ratio - ms / p["median_ms"]) > 1e-9 * ratio:
            fail(f"{key}: peer_ratio {ratio} is not torch's {ms} ms / awb's {p['median_ms']} ms")
        op = p["peer_op"]
        if p["variant"] == "multi-head" and (("W_o" in op) != p["w_o"] or "heads=2" not in op):
            fail(f"{key}: torch ran {op!r}, not the point's heads and W_o")
        if p["variant"] == "parameter-free" and not op.startswith("softmax(X Xt"):
            fail(f"{key}: torch ran {op!r} for the parameter-free point")
        if ("causal" in op) != p["causal"] or ("backward" in op) != p["backward"]:
            fail(f"{key}: torch's op {op!r} does not match the point's mask or backward")


def present(awb):
    version = torch_version()
    if version is None:
        print("torch is not installed for", sys.executable, "- checking the skip line instead")
        for args in (MULTI_HEAD, PARAMETER_FREE):
            p = bench(awb, *args, "--peer", "torch")
            line = "torch peer skipped: No module named 'torch' (install python3-torch)"
            if line not in p.stdout:
                fail(f"the table does not say why the peer was skipped:\n{p.stdout}")
            doc = json.loads(bench(awb, *args, "--peer", "torch", "--format", "json").stdout)
            if "No module named 'torch'" not in doc["peer"].get("skipped", ""):
                fail(f"the JSON does not say why the peer was skipped: {doc['peer']}")
            check_measured(doc, "torch absent")
        print("PASS")
        return

    for args in (MULTI_HEAD, PARAMETER_FREE):
        for step in ([], ["--backward"]):
            doc = json.loads(bench(awb, *args, *step, "--peer", "torch", "--format", "json").stdout)
            check_peer_points(doc, version)
    print(f"torch {version}: a finite positive ratio for every multi-head and parameter-free "
          "point, forward and fwd+bwd; linear says it has no peer")

    # Grouped-query points: torch repeats the key/value heads itself (repeat_interleave).
    grouped = ["--variant", "multi-head", "--heads", "4", "--kv-heads", "2", "--w-o", "on"]
    for step in ([], ["--backward"]):
        doc = json.loads(bench(awb, *grouped, *step, "--peer", "torch", "--format", "json").stdout)
        for p in doc["points"]:
            op = p.get("peer_op") or ""
            if p["kv_heads"] != 2 or not (p["peer_ratio"] or 0) > 0 or \
                    "repeat_interleave of the 2 key/value heads to 4" not in op or \
                    ("backward" in op) != p["backward"]:
                fail(f"a grouped point's peer: {p}")
    print("grouped-query points: torch repeats 2 key/value heads for 4 query heads")

    # Batches of padded sequences: torch runs the B sequences in one call, the keys past each
    # sequence's length masked (key_padding_mask, or -inf added to the scores by hand).
    batch = ["--batch", "3", "--padding", "0,0.5"]
    multi_head = ["--variant", "multi-head", "--heads", "2", "--kv-heads", "1,2", "--w-o", "on"]
    for args, step in [(a, s) for a in (multi_head, PARAMETER_FREE) for s in ([], ["--backward"])]:
        doc = json.loads(bench(awb, *args, *batch, *step, "--peer", "torch", "--format",
                               "json").stdout)
        for p in doc["points"]:
            op = p.get("peer_op") or ""
            lengths = "lengths [64, 48, 32]" if p["padding"] > 0 else "batch 3 of T=64;"
            masked = "key_padding_mask" in op or "padding float mask" in op
            if not (p["peer_ratio"] or 0) > 0 or lengths not in op or masked != (p["padding"] > 0):
                fail(f"a batched point's peer: {p}")
    print("batched points: torch runs the 3 sequences in one call, padded keys masked")

    table = bench(awb, *PARAMETER_FREE, "--peer", "torch").stdout
    lines = table.splitlines()
    if not any(line.startswith(f"peer: torch {version} (") and "1 intra-op threads" in line
               for line in lines):
        fail(f"the table has no header line with torch's version and threads:\n{table}")
    if not any(line.startswith("torch ran: softmax(X Xt") for line in lines):
        fail(f"the table does not say what torch ran:\n{table}")
    header = next(line for line in lines if line.startswith("variant "))
    if "torch ms" not in header or "x torch" not in header:
        fail(f"the table has no peer columns: {header}")
    rows = [line for line in lines if line.startswith("parameter-free ")]
    if len(rows) != 4 or not all(any(c.endswith("x") and c[:-1].replace(".", "").isdigit()
                                     for c in row.split()) for row in rows):
        fail(f"a parameter-free row lacks its ratio to torch:\n{table}")
    plain = bench(awb, *PARAMETER_FREE).stdout
    if "torch" in plain:
        fail(f"a run without --peer mentions torch:\n{plain}")

    rows = list(csv.DictReader(io.StringIO(
        bench(awb, *MULTI_HEAD, "--peer", "torch", "--format", "csv").stdout)))
    for r in rows:
        if r["variant"] == "multi-head" and not float(r["peer_ratio"]) > 0:
            fail(f"a CSV row lacks its ratio: {r}")
        if r["variant"] == "linear" and (r["peer_ratio"] or "no torch peer" not in r["peer_note"]):
            fail(f"linear's CSV row has a ratio or no reason: {r}")
        if r["peer_version"] != version:
            fail(f"a CSV row does not carry torch's version: {r}")

    # A saved run with the peer's data is read back and compared like any other.
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=home)
        bench(awb, *PARAMETER_FREE, "--peer", "torch", "--save", "peer", env=env)
        again = bench(awb, "--from", "peer", env=env).stdout
        if f"peer: torch {version}" not in again or "x torch" not in again:
            fail(f"--from lost the peer's data:\n{again}")
        cmp = bench(awb, *PARAMETER_FREE, "--compare", "peer", env=env)
        if "not in the baseline" in cmp.stdout or "no significant change" not in cmp.stdout \
                and "slower" not in cmp.stdout and "faster" not in cmp.stdout:
            fail(f"--compare against a run with peer data did not match its points:\n{cmp.stdout}")
    print("PASS")


def absent(awb):
    with tempfile.TemporaryDirectory() as tmp:
        missing = os.path.join(tmp, "no-python3")
        fake = os.path.join(tmp, "site")
        os.mkdir(fake)
        with open(os.path.join(fake, "torch.py"), "w") as f:
            f.write("raise ModuleNotFoundError(\"No module named 'torch'\", name='torch')\n")
        worlds = [
            ("no interpreter", dict(os.environ, AWB_PEER_PYTHON=missing),
             f"torch peer skipped: cannot start {missing}: No such file or directory"),
            ("no torch", dict(os.environ, PYTHONPATH=fake),
             "torch peer skipped: No module named 'torch' (install python3-torch)"),
        ]
        for name, env, line in worlds:
            table = bench(awb, *PARAMETER_FREE, "--peer", "torch", env=env).stdout
            if table.count(line) != 1:
                fail(f"{name}: the table should say once {line!r}:\n{table}")
            rows = [r for r in table.splitlines() if r.startswith("parameter-free ")]
            if len(rows) != 4 or any("torch peer skipped" not in r for r in rows):
                fail(f"{name}: the points were not all measured, each noting the skip:\n{table}")
            p = bench(awb, *MULTI_HEAD, "--peer", "torch", "--format", "json", env=env)
            if p.stderr.count(line) != 1:
                fail(f"{name}: beside a JSON document, stderr should say once {line!r}:\n"
                     f"{p.stderr}")
            doc = json.loads(p.stdout)
            if "skipped" not in doc["peer"] or line.split("skipped: ", 1)[1] != \
                    doc["peer"]["skipped"]:
                fail(f"{name}: the JSON's peer does not say why it was skipped: {doc['peer']}")
            check_measured(doc, name)
            if any(q["peer_ratio"] is not None for q in doc["points"]):
                fail(f"{name}: a point has a ratio although torch never ran")
            print(f"{name}: skipped with the reason, every point measured")
    print("PASS")


def main():
    awb, mode = sys.argv[1], sys.argv[2]
    present(awb) if mode == "present" else absent(awb)


if __name__ == "__main__":
    main()
