#!/usr/bin/env python3
"""course_class.py AWB COURSE_DIR MUTANT_DIR PLUGIN_DIR: a class of mixed submissions graded
under the bundled qkv assignment, read the way an instructor reads it: one roster row per
submission with the same maximum, the correct submission at full marks with no failed
Gradescope test, the reasons for what a submission lacks, every mutant whose mistake can occur
in a Q/K/V variant losing points, and copies flagged."""
import csv
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

from make_class import FIXED, make_class

awb, course, mutants, plugins = (pathlib.Path(a) for a in sys.argv[1:5])
work = pathlib.Path(tempfile.mkdtemp(prefix="awb-course-"))
subs, out = work / "submissions", work / "results"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


try:
    mutant_files = make_class(course, mutants, plugins, subs)
    run = subprocess.run([str(awb), "grade", "--batch", str(subs), "--assignment", "qkv",
                          "--out", str(out), "-j", "2", "--view", "instructor"],
                         capture_output=True, text=True, timeout=900)
    print(run.stderr.splitlines()[-1] if run.stderr else "")
    if run.returncode != 0:
        fail(f"awb exited {run.returncode}: {run.stderr[-2000:]}")

    with open(out / "roster.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    by_name = {r["submission"]: r for r in rows}
    if len(rows) != FIXED + len(mutant_files):
        fail(f"{len(rows)} roster rows for {FIXED + len(mutant_files)} submissions")
    maxima = {r["max"] for r in rows}
    if len(maxima) != 1:
        fail(f"maxima differ: {sorted(maxima)}")
    top = float(maxima.pop())
    for r in rows:
        for k, v in r.items():
            if k not in ("submission", "status", "comment", "submitted_at", "time_source"):
                float(v)  # numbers only
    correct = by_name["01-correct"]
    if float(correct["total"]) != top or correct["status"] != "graded":
        fail(f"the correct submission scored {correct['total']}/{top}")
    results = json.loads((out / "gradescope" / "01-correct.json").read_text())
    failed = [t["name"] for t in results["tests"] if t["status"] != "passed"]
    if failed:
        fail(f"the correct submission has failed Gradescope tests: {failed}")

    def reasons(student):
        tests = json.loads((out / "gradescope" / f"{student}.json").read_text())["tests"]
        return {t["output"] for t in tests if t["status"] == "failed"}

    for student, lacks in (("02-f32-only", "f64"), ("03-no-causal", "causal")):
        want = f"the assignment requires {lacks}; your variant does not declare it"
        if not any(o.startswith(want) for o in reasons(student)):
            fail(f"{student}: no failed test says '{want}'")
        if not 0 < float(by_name[student]["total"]) < top:
            fail(f"{student} scored {by_name[student]['total']}/{top}")
    if "identical to the bundled plugin awb_qkv.so" not in by_name["04-copy"]["comment"]:
        fail("the byte copy of a bundled plugin is not flagged")
    for student in ("05-broken", "06-empty"):
        if by_name[student]["status"] != "not gradable" or float(by_name[student]["total"]) != 0:
            fail(f"{student}: {by_name[student]}")
    two = by_name["07-two-files"]
    if float(two["total"]) != top or "not graded: org.awb.parameter-free" not in two["comment"]:
        fail(f"07-two-files: {two}")
    if "identical to the file graded for 07-two-files" not in correct["comment"]:
        fail("two submissions with the same file are not flagged")
    # Mistakes that cannot occur in a single-head Q/K/V variant: its head order, W_o, and which
    # key/value head a query head reads.
    single_head_safe = {"heads_reversed", "skip_output_projection", "wrong_head_grouping"}
    for r in rows[FIXED:]:
        mistake = r["submission"][3:]
        caught = float(r["total"]) < top
        if caught == (mistake in single_head_safe):
            fail(f"{r['submission']} scored {r['total']}/{top}")
    print(f"roster: {len(rows)} submissions, every maximum {top:g}; the correct one full with "
          f"no failed test; {len(mutant_files) - len(single_head_safe)} mutants lose points; "
          "copies flagged")
finally:
    shutil.rmtree(work, ignore_errors=True)
