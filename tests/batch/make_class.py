#!/usr/bin/env python3
"""make_class.py COURSE_DIR MUTANT_DIR PLUGIN_DIR OUT [--mutants N]: writes a class of mixed
submissions for the qkv assignment into OUT, one folder per student: a correct one, one in f32
only, one without causal masking, a byte copy of the bundled qkv plugin, a file that is no
plugin, an empty folder, two files in one folder (one the same bytes as the correct student's),
then one student per shipped mutant (every one, or the first N), each renamed attention.so so
the name gives nothing away. Imported by course_class.py; run as a script by the shard tests.
Prints the number of submissions."""
import pathlib
import shutil
import sys

FIXED = 7  # the students before the mutants


def hand_in(subs, student, *files):
    folder = subs / student
    folder.mkdir(parents=True)
    for src, name in files:
        if src is None:
            (folder / name).write_bytes(b"not a shared library")
        else:
            shutil.copyfile(src, folder / name)


def make_class(course, mutants, plugins, subs, limit=None):
    """Writes the class into `subs`; returns the mutant files handed in, in order."""
    course, mutants, plugins, subs = (pathlib.Path(p) for p in (course, mutants, plugins, subs))
    hand_in(subs, "01-correct", (course / "course_correct.so", "attention.so"))
    hand_in(subs, "02-f32-only", (course / "course_f32_only.so", "attention.so"))
    hand_in(subs, "03-no-causal", (course / "course_no_causal.so", "attention.so"))
    hand_in(subs, "04-copy", (plugins / "awb_qkv.so", "attention.so"))
    hand_in(subs, "05-broken", (None, "attention.so"))
    hand_in(subs, "06-empty")
    hand_in(subs, "07-two-files", (course / "course_correct.so", "a.so"),
            (plugins / "awb_parameter_free.so", "b.so"))
    mutant_files = sorted(mutants.glob("*.so"))[:limit]
    for i, m in enumerate(mutant_files):
        hand_in(subs, f"{10 + i:02d}-{m.stem.removeprefix('mutant_')}", (m, "attention.so"))
    return mutant_files


if __name__ == "__main__":
    args = sys.argv[1:]
    limit = None
    if "--mutants" in args:
        at = args.index("--mutants")
        limit = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 4:
        sys.exit(__doc__)
    print(FIXED + len(make_class(*args, limit=limit)))
