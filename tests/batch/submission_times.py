#!/usr/bin/env python3
"""submission_times.py AWB PLUGIN_DIR CONTRIB_DIR WORK: a class whose files were copied after the
due date, graded with the platform's submission times (--submitted-at) and an extension for one
student: lateness as the CSV says, not as the files' times say; a not-gradable submission never
late; the Gradescope leaderboard without hidden points and with the late policy. Then one student
graded the way Gradescope runs the bundle (run_autograder, with the created_at of a
submission_metadata.json; the files' times without one) gets the same lateness; and a CSV
naming no submission is refused at file:line."""
import csv
import json
import pathlib
import shutil
import subprocess
import sys

awb, plugins, contrib, work = (pathlib.Path(a) for a in sys.argv[1:5])
shutil.rmtree(work, ignore_errors=True)
subs = work / "class"
failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


def grade(out, *extra):
    run = subprocess.run([str(awb), "grade", "--batch", str(subs), "--assignment",
                          str(work / "timed.yaml"), "--out", str(out), *map(str, extra)],
                         capture_output=True, text=True, timeout=600)
    return run


def roster(out):
    with open(out / "roster.csv", newline="") as f:
        return {row["submission"]: row for row in csv.DictReader(f)}


def board(path):
    return {e["name"]: e["value"] for e in json.loads(path.read_text())["leaderboard"]}


# Every file is copied now, long after the due date: its modification time says "late".
for name in ("ann", "bob", "cy"):
    (subs / name).mkdir(parents=True)
    shutil.copyfile(plugins / "awb_parameter_free.so", subs / name / "attention.so")
(subs / "dee").mkdir()
(subs / "dee" / "attention.so").write_bytes(b"not a shared library")  # not gradable
(work / "timed.yaml").write_text(
    "awb-assignment: 1\nid: timed\ntitle: Timed\nexercises: [journey]\n"
    "due: 2026-01-15T23:59:00Z\nlate: {percent_per_day: 10, max_days: 5}\n"
    "leaderboard: [score, percent]\n")
(work / "times.csv").write_text(
    "submission,submitted_at\n"
    "ann,2026-01-15T20:00:00Z\n"
    "bob,2026-01-17T08:00:00Z\n"   # 2 started days late: 20 % off
    "cy,2026-01-17T08:00:00Z\n"    # as late, with 3 extra days
    "dee,2026-01-30T08:00:00Z\n")  # not gradable: never late
(work / "extensions.csv").write_text("submission,extension\ncy,3\n")

# The files' times alone (the fallback): everyone is late, and the roster says why.
run = grade(work / "by_mtime")
if run.returncode != 0:
    fail(f"the batch exited {run.returncode}: {run.stderr[-1500:]}")
else:
    rows = roster(work / "by_mtime")
    if rows["ann"]["time_source"] != "file-mtime" or rows["ann"]["late_days"] == "0":
        fail(f"by file times ann should be late, from file-mtime: {rows['ann']}")

out = work / "results"
run = grade(out, "--submitted-at", work / "times.csv", "--extensions", work / "extensions.csv",
            "--view", "student")
if run.returncode != 0:
    fail(f"the batch exited {run.returncode}: {run.stderr[-1500:]}")
    sys.exit(1)
print((out / "roster.csv").read_text())
rows = roster(out)
expect = {"ann": ("0", "graded"), "bob": ("2", "graded"), "cy": ("0", "graded"),
          "dee": ("0", "not gradable")}
for name, (late, status) in expect.items():
    r = rows[name]
    if (r["late_days"], r["status"], r["time_source"]) != (late, status, "submitted-at"):
        fail(f"{name}: late_days {r['late_days']}, {r['status']}, {r['time_source']}; expected "
             f"{late}, {status}, submitted-at")
full = float(rows["ann"]["max"])
if float(rows["ann"]["total"]) != full:
    fail(f"ann should have full marks (the instructor's, whatever --view): {rows['ann']}")
if abs(float(rows["bob"]["final"]) - 0.8 * full) > 1e-6:
    fail(f"bob's final is not 80 % of {full}: {rows['bob']['final']}")
if "extended to 2026-01-18T23:59:00Z" not in rows["cy"]["comment"]:
    fail(f"cy's comment does not give the extension: {rows['cy']['comment']}")
meta = json.loads((out / "roster.meta.json").read_text())
if meta["roster_view"] != "instructor" or meta["reports_view"]["view"] != "student":
    fail(f"roster.meta.json names other views: {meta}")

ann, bob = board(out / "gradescope" / "ann.json"), board(out / "gradescope" / "bob.json")
if not 0 < ann["score"] < full:
    fail(f"ann's leaderboard score {ann['score']} holds hidden points (all of them: {full})")
if abs(bob["score"] - 0.8 * ann["score"]) > 1e-6 or abs(bob["percent"] - 80.0) > 1e-6:
    fail(f"bob's leaderboard is not 80 % of ann's: {bob} against {ann}")
if board(out / "gradescope" / "cy.json") != ann:
    fail("cy's extension did not keep the leaderboard whole")

# Gradescope: the bundle's run_autograder, its /autograder moved into WORK. Bob's submission
# time, with Gradescope's zone and microseconds: 08:00 UTC on the 17th.
autograder = work / "autograder"
(autograder / "source" / "assignment").mkdir(parents=True)
shutil.copyfile(contrib / "autograder" / "grade_submission.sh",
                autograder / "source" / "grade_submission.sh")
shutil.copyfile(work / "timed.yaml", autograder / "source" / "assignment" / "assignment.yaml")
(autograder / "run_autograder").write_text(
    (contrib / "gradescope" / "run_autograder").read_text().replace("/autograder",
                                                                     str(autograder)))
(autograder / "submission").mkdir()
shutil.copyfile(subs / "bob" / "attention.so", autograder / "submission" / "attention.so")
results = autograder / "results" / "results.json"


def run_autograder():
    run = subprocess.run(["bash", str(autograder / "run_autograder")],
                         env={"AWB": str(awb), "PATH": "/usr/bin:/bin"}, capture_output=True,
                         text=True, timeout=600)
    if run.returncode != 0:
        fail(f"run_autograder exited {run.returncode}: {run.stdout[-1500:]}{run.stderr[-1500:]}")
    return board(results)


# Without the metadata: the files' times (copied now: past max_days, nothing kept).
if run_autograder() != {"score": 0, "percent": 0}:
    fail(f"without metadata the files' times should make bob too late: {board(results)}")
(autograder / "submission_metadata.json").write_text(json.dumps({
    "id": 123456, "created_at": "2026-01-17T00:00:00.000000-08:00",
    "assignment": {"due_date": "2026-01-15T15:59:00.000000-08:00"}, "users": []}))
if run_autograder() != bob:
    fail(f"Gradescope's metadata gave another leaderboard: {board(results)} against {bob}")

# A name no folder has: refused before anything is graded, at file:line.
(work / "typo.csv").write_text("submission,submitted_at\nann,2026-01-15T20:00:00Z\nbobb,"
                               "2026-01-15T20:00:00Z\n")
run = grade(work / "typo", "--submitted-at", work / "typo.csv")
where = f"[times.unknown_submission] {work / 'typo.csv'}:3: no submission folder is named 'bobb'"
if run.returncode != 3 or where not in run.stderr:
    fail(f"a typo in the times exited {run.returncode}: {run.stderr[-600:]}")

print("PASS" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
