"""A pytest that grades a plugin with awb: run it with `python3 -m pytest examples/python`.

Point AWB_EXAMPLE_PLUGIN at your own plugin file and AWB_EXAMPLE_VARIANT at its variant id to
grade yours; by default the bundled qkv variant is graded.
"""

import os

import awb

PLUGIN = os.environ.get("AWB_EXAMPLE_PLUGIN")
VARIANT = os.environ.get("AWB_EXAMPLE_VARIANT", "qkv")


def test_the_variant_passes_every_check_of_river_bank():
    report = awb.grade(VARIANT, exercise="river-bank", paths=[PLUGIN] if PLUGIN else None)
    failed = [c for c in report.checks if c.status not in ("passed", "not-run")]
    assert not failed, "\n".join("%s: %s %s" % (c.id, c.summary, c.hint) for c in failed)
    assert report.score == report.max_score
