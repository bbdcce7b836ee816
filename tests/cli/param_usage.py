#!/usr/bin/env python3
"""A misspelt or invalid --param is a usage error before anything is graded, run or written, in
every command that takes it: `[param.usage]`, exit 2, the closest declared name when one is close.
Usage: param_usage.py AWB WORK_DIR TEMPERED_DIR (a fixture plugin whose variant `tempered`
declares `temperature`)
"""
import pathlib
import shutil
import subprocess
import sys

awb, work, tempered = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
shutil.rmtree(work, ignore_errors=True)
subs = work / "subs"
(subs / "alice").mkdir(parents=True)
results = work / "results"

cases = [
    # (arguments, what stderr must also say)
    (["grade", "--batch", str(subs), "--exercise", "sliding-window", "--out", str(results),
      "--param", "windw=2"], "did you mean 'window'?"),
    (["grade", "--batch", str(subs), "--assignment", "qkv", "--out", str(results),
      "--param", "windw=2"], "none of them takes parameters"),
    (["grade", "--batch", str(subs), "--exercise", "sliding-window", "--out", str(results),
      "--param", "window=-3"], "out of range (int, 0 to"),
    (["grade", "--variant", "sliding-window", "--param", "windw=2"], "did you mean 'window'?"),
    (["grade", "--variant", "sliding-window", "--param", "window=abc"], "not a number (int"),
    (["grade", "--variant", "qkv", "--param", "window=2"], "none of them takes parameters"),
    (["compare", "--exercise", "sliding-window", "--variant", "sliding-window", "--variant",
      "qkv", "--param", "windw=2"], "did you mean 'window'?"),
    (["compare", "--example", "journey", "--variant", "parameter-free", "--param",
      "temprature=0.5"], "no variant compared here declares a parameter 'temprature'"),
    (["compare", "--example", "journey", "--plugin-dir", tempered, "--variant", "tempered",
      "--variant", "parameter-free", "--param", "temprature=0.5"],
     "(did you mean 'temperature'?)"),
    (["compare", "--example", "journey", "--plugin-dir", tempered, "--variant", "tempered",
      "--param", "temperature=0"], "out of range"),
    (["grade", "--batch", str(subs), "--assignment", "qkv", "--out", str(results),
      "--param", "windw=2"], "(did you mean 'window'? a parameter of sliding-window attention"),
    (["compare", "--exercise", "linear", "--variant", "linear", "--param", "feature_map=tanh"],
     "not one of the choices (enum, elu+1 | relu)"),
    (["bench", "--variant", "sliding-window", "--param", "windw=4", "-T", "64", "--quick"],
     "did you mean 'window'?"),
    (["bench", "--variant", "sliding-window", "--param", "window=4,x", "-T", "64", "--quick"],
     "'x': not a number"),
    (["train", "--variant", "qkv", "--exercise", "resolve-it", "--param", "window=2"],
     "no variant trained here declares a parameter 'window'"),
]
failed = 0
for args, says in cases:
    r = subprocess.run([awb, *args], capture_output=True, text=True, timeout=120)
    ok = (r.returncode == 2 and "[param.usage]" in r.stderr and says in r.stderr
          and r.stdout == "" and not results.exists())
    print(("ok  " if ok else "BAD ") + "awb " + " ".join(args) + f": exit {r.returncode}: "
          + r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "")
    if not ok:
        failed += 1
        print(r.stdout[-1500:], r.stderr[-1500:])
print("PASS" if failed == 0 else f"FAIL: {failed} case(s)")
sys.exit(1 if failed else 0)
