#!/usr/bin/env python3
"""gradebook_check.py RESULTS [NOT_GRADABLE]: the gradebooks of an assignment's batch read the way
a spreadsheet imports them: roster.csv and grades.csv hold numbers only in their score columns
(an empty cell where a subject was not graded on an exercise), one maximum in every row, and
each comment on one line; the submission NOT_GRADABLE, when given, is a row of each with status
"not gradable". Prints PASS or the problems; exits 1 on any."""
import csv
import pathlib
import sys

results = pathlib.Path(sys.argv[1])
not_gradable = sys.argv[2] if len(sys.argv) > 2 else None
problems = []

# Columns that are not scores; every other one must hold a number.
TEXT = {"submission", "subject", "status", "comment", "submitted_at", "time_source"}

for name, key in (("roster.csv", "submission"), ("grades.csv", "subject")):
    raw = (results / name).read_bytes()
    with open(results / name, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        problems.append(f"{name}: no rows")
        continue
    maxima = {row["max"] for row in rows}
    if len(maxima) != 1:
        problems.append(f"{name}: several maxima {sorted(maxima)}")
    for row in rows:
        for column, cell in row.items():
            if column in TEXT or cell == "":
                continue
            try:
                float(cell)
            except ValueError:
                problems.append(f"{name}: {row[key]}: column {column} holds text: {cell[:80]!r}")
        if "comment" not in row or "\n" in row["comment"] or "\r" in row["comment"]:
            problems.append(f"{name}: {row[key]}: no comment column, or one that spans lines")
    # A record per line: no field of either file carries a line break.
    breaks = raw.count(b"\n")
    if raw.count(b"\r\n") != len(rows) + 1 or breaks != len(rows) + 1:
        problems.append(f"{name}: {len(rows) + 1} records, but {breaks} line breaks")
    if not_gradable is not None:
        mine = [r for r in rows if r[key] == not_gradable]
        if len(mine) != 1 or mine[0].get("status") != "not gradable":
            problems.append(f"{name}: {not_gradable} is not one 'not gradable' row: {mine}")

for p in problems:
    print("FAIL: " + p)
print("PASS" if not problems else f"{len(problems)} problem(s)")
sys.exit(1 if problems else 0)
