#!/usr/bin/env bash
# grade.sh: the entrypoint of a PrairieLearn external grader (info.json beside this file in
# contrib/prairielearn): awb grades /grade/student under the assignment bundled beside this
# script and writes /grade/results/results.json, or a not-gradable one with the reason when it
# cannot (grade_submission.sh). PrairieLearn shows every test to the student, so the view
# decides what counts: AWB_VIEW=student (the default) leaves hidden checks out of the tests and
# the score, AWB_VIEW=instructor lists and counts them (set it in the question's
# externalGradingOptions.environment). PrairieLearn's /grade/data/data.json holds no submission
# time, so none is passed to awb (it would fall back to the files' times); the score is not cut
# for lateness here: PrairieLearn applies its own credit rules to late submissions.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec bash "$here/grade_submission.sh" prairielearn /grade/student /grade/results/results.json \
  --view "${AWB_VIEW:-student}"
