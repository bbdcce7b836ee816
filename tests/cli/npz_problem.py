#!/usr/bin/python3
"""npz_problem.py AWB: a problem of T = 512 tokens, d_model = 64 and 4 heads (W_q, W_k, W_v, W_o
64 x 64, causal) saved by numpy as an .npz, stored (np.savez) and deflated
(np.savez_compressed), runs in `awb run --problem` with the same output, value for value, as the
same problem written inline in YAML, and as a YAML file whose matrices name the .npy and .npz
files beside it; `awb compare` (which reads --problem the same way) prints the same metrics for
the archive as for the inline file. An archive without X is refused with problem.npz and exit code 3."""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import numpy as np
except ImportError:
    sys.exit("FAIL: numpy is missing (python3-numpy; cmake/install-deps.sh installs it)")

awb = sys.argv[1]
failures = []
T, D, HEADS = 512, 64, 4


def check(ok, what):
    if not ok:
        failures.append(what)


def run(problem):
    """`awb run` of multi-head on PROBLEM: its runs, without the source's name."""
    p = subprocess.run([awb, "run", "--problem", str(problem), "--variant", "multi-head",
                        "--format", "json"], capture_output=True, text=True)
    check(p.returncode == 0, f"{problem.name}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)["runs"] if p.returncode == 0 else None


def rows(m):
    # repr() is the shortest text that reads back to the same double.
    return "".join("  - [" + ", ".join(repr(float(v)) for v in row) + "]\n" for row in m)


rng = np.random.default_rng(512)
arrays = {"X": rng.standard_normal((T, D))}
for name in ("W_q", "W_k", "W_v", "W_o"):
    arrays[name] = rng.standard_normal((D, D)) / np.sqrt(D)

with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    inline = tmp / "inline.yaml"
    inline.write_text(f"heads: {HEADS}\ncausal: true\n" +
                      "".join(f"{k.lower()}:\n" + rows(v) for k, v in arrays.items()))
    np.savez(tmp / "stored.npz", heads=np.array(HEADS), causal=np.array(True), **arrays)
    np.savez_compressed(tmp / "deflated.npz", heads=np.array([HEADS]), causal=np.array([True]),
                        **arrays)
    np.save(tmp / "x.npy", arrays["X"])
    np.savez_compressed(tmp / "weights.npz", **{k: v for k, v in arrays.items() if k != "X"})
    (tmp / "refs").mkdir()
    (tmp / "refs" / "named.yaml").write_text(
        f"heads: {HEADS}\ncausal: true\nx: {{npy: ../x.npy}}\n" +
        "".join(f"{k.lower()}: {{npz: ../weights.npz, key: {k}}}\n" for k in arrays if k != "X"))

    expected = run(inline)
    check(expected is not None and len(expected) == 1 and "error" not in expected[0],
          f"the inline problem did not run: {expected}")
    if expected and "error" not in expected[0]:
        layer = expected[0]["layers"][0]
        check(len(layer["z"]) == T and len(layer["weights"]) == HEADS,
              "the inline run is not 512 tokens and 4 heads")
        check(layer["weights"][0][0][1] == 0.0, "the causal flag did not reach the run")
    for name in ("stored.npz", "deflated.npz", "refs/named.yaml"):
        got = run(tmp / name)
        check(got == expected, f"{name}: awb run's output differs from the inline YAML's")
        print(f"{name}: {'same output' if got == expected else 'DIFFERENT'}")

    def compare(problem):
        p = subprocess.run([awb, "compare", "--problem", str(problem), "--variant", "multi-head",
                            "--head", "all", "--format", "json"], capture_output=True, text=True)
        check(p.returncode == 0, f"compare {problem.name}: exit {p.returncode}: {p.stderr.strip()}")
        out = json.loads(p.stdout) if p.returncode == 0 else {}
        out.pop("source", None)
        return out

    same = compare(inline) == compare(tmp / "deflated.npz")
    check(same, "awb compare: deflated.npz's metrics differ from the inline YAML's")
    print(f"compare deflated.npz: {'same metrics' if same else 'DIFFERENT'}")

    np.savez(tmp / "no_x.npz", W_q=arrays["W_q"])
    p = subprocess.run([awb, "run", "--problem", str(tmp / "no_x.npz"), "--variant", "multi-head"],
                       capture_output=True, text=True)
    check(p.returncode == 3, f"no_x.npz: exit {p.returncode}, expected 3")
    check("[problem.npz]" in p.stderr and "no array 'X'" in p.stderr,
          f"no_x.npz: stderr {p.stderr.strip()!r}")

for f in failures:
    print("FAIL:", f)
print("FAIL" if failures else "PASS")
sys.exit(1 if failures else 0)
