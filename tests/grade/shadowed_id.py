#!/usr/bin/env python3
"""A student's plugin that takes a bundled plugin's id is the one graded.

`awb new-plugin --kind qkv` with its plugin id changed to org.awb.qkv (and its variant id to
qkv) and one bug (the scores are not scaled by 1/sqrt(d_k)):
  1. `awb grade --assignment qkv --variant SOURCE` builds it in the build sandbox and grades the
     built file (said on stderr, named in the subject line), below full marks;
  2. `awb grade --assignment qkv --plugin-dir DIR --variant qkv` grades DIR's file, not the
     bundled awb_qkv.so: its path in the subject line, its sha256 in the provenance, a note on
     stderr naming both files, and less than full marks;
  3. a folder in which no file loads (one not ELF, one truncated) names each file's stage and
     reason, "not a valid shared library", never a crash.
Usage: shadowed_id.py AWB WORK_DIR
"""
import hashlib
import json
import pathlib
import re
import shutil
import subprocess
import sys

awb, work = sys.argv[1], pathlib.Path(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
source = work / "student"


def run(*args):
    r = subprocess.run([awb, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def fail(why, *outputs):
    print("FAIL:", why)
    for o in outputs:
        print(o)
    sys.exit(1)


rc, out, err = run("new-plugin", str(source), "--kind", "qkv")
if rc != 0:
    fail("new-plugin failed", out, err)
code_file = source / "src" / "student_attention.cpp"
code = code_file.read_text()
for old, new in [('"org.example.student-qkv"', '"org.awb.qkv"'),
                 ('"student-qkv"', '"qkv"'),
                 ("result.s = factor * (in.q * in.k.transpose());",
                  "result.s = in.q * in.k.transpose();")]:
    if old not in code:
        fail(f"the template changed: {old!r} not found")
    code = code.replace(old, new)
code_file.write_text(code)

# 1. The source folder, built in the sandbox as a batch builds it.
rc, out, err = run("grade", "--assignment", "qkv", "--variant", str(source),
                   "--build-cache", str(work / "cache"))
m = re.search(r"its plugins: (\S+)", err)
if "in the build sandbox" not in err or not m:
    fail("the source folder was not built (or did not say where)", out, err)
plugins = pathlib.Path(m.group(1))
built = plugins / "student_qkv.so"
if not built.is_file():
    fail(f"no {built}", out, err)
subject = re.search(r"^Subject: (.*)$", out, re.M)
if not subject or str(built) not in subject.group(1):
    fail("the subject line does not name the built file", out, err)
total = re.search(r"^Total: ([0-9.]+)/([0-9.]+)", out, re.M)
if not total or float(total.group(1)) >= float(total.group(2)) or rc != 1:
    fail(f"the buggy build got full marks or exit {rc}", out, err)
print("source folder:", subject.group(0), "|", total.group(0))

# 2. The built file in a folder of its own, by --plugin-dir, picked by the bundled id.
mine = work / "mine"
mine.mkdir()
shutil.copy(built, mine / "attention.so")
rc, out, err = run("grade", "--assignment", "qkv", "--plugin-dir", str(mine), "--variant", "qkv")
subject = re.search(r"^Subject: (.*)$", out, re.M)
if not subject or str(mine / "attention.so") not in subject.group(1) or "awb_qkv.so" in out:
    fail("the subject line does not name the student's file", out, err)
if "provides plugin id 'org.awb.qkv'" not in err or "awb_qkv.so" not in err:
    fail("no note naming both files", out, err)
total = re.search(r"^Total: ([0-9.]+)/([0-9.]+)", out, re.M)
if not total or float(total.group(1)) >= float(total.group(2)) or rc != 1:
    fail(f"the student's buggy plugin got full marks or exit {rc}", out, err)
print("plugin dir:", subject.group(0), "|", total.group(0))
print("note:", err.strip().splitlines()[0])

rc, out, err = run("grade", "--assignment", "qkv", "--plugin-dir", str(mine), "--variant", "qkv",
                   "--format", "json")
report = json.loads(out)
sha = hashlib.sha256((mine / "attention.so").read_bytes()).hexdigest()
shas = {e["provenance"]["plugin_sha256"] for e in report["exercises"]}
if shas != {sha}:
    fail(f"provenance hashes {shas}, the file's is {sha}", out, err)
# 3. A folder in which nothing loads names each file's stage and reason.
broken = work / "broken"
broken.mkdir()
(broken / "notes.so").write_text("not a library\n")
data = built.read_bytes()
(broken / "cut.so").write_bytes(data[: len(data) // 2])
rc, out, err = run("grade", "--variant", str(broken), "--exercise", "journey")
if (rc != 4 or "[plugin.load_failed]" not in err
        or "notes.so: open: not a valid shared library: not an ELF file" not in err
        or "cut.so: open: not a valid shared library: " not in err or "truncated" not in err):
    fail(f"the folder's failures are not each named (exit {rc})", out, err)
print("broken folder:", " | ".join(err.strip().splitlines()))
print("PASS")
