#!/usr/bin/env python3
"""report_faults.py: report sets are published whole. With the test hook AWB_TEST_FAULT (see
host/core/grading/batch_fault.hpp) awb is killed (SIGKILL) after each report step in turn, N = 1,
2, ... until a run completes, and a full disk (ENOSPC) is injected at each step that needs space.
After every fault RESULTS must read as one whole set (manifest verifies and lists every file, the
familiar paths lead into it) equal to the previous set or the new one, and a failed run must say
on stderr what is left and that --resume completes it; the next --resume must leave the new set,
byte-identical to an uninterrupted run's, and nothing else behind.
Scenarios: the class changed (a submission removed, one renamed, one added) over an old set; a
first run with no set yet; results in the layout of earlier versions (flat files, a stale temp
file in gradescope/). The checks run in this process (report_set.py): a fault's trial costs two
runs of awb and no other program.

usage: report_faults.py AWB PLUGIN_DIR MUTANT_DIR WORK_DIR
"""
import filecmp
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_set import no_strays, same_tree, set_state, whole_set  # noqa: E402


def fail(what):
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 5:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    awb, plugin_dir, mutant_dir, work = argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    def plugin(source, folder):
        """A submission of one plugin, debug info stripped, so that hashing it stays cheap."""
        os.makedirs(folder, exist_ok=True)
        target = os.path.join(folder, "plugin.so")
        if subprocess.run(["objcopy", "--strip-debug", source, target],
                          stderr=subprocess.DEVNULL).returncode != 0:
            shutil.copy(source, target)

    good = sorted(glob.glob(os.path.join(plugin_dir, "*.so")))[0]
    bug = sorted(glob.glob(os.path.join(mutant_dir, "*.so")))[0]
    old, new = os.path.join(work, "subs-old"), os.path.join(work, "subs-new")
    plugin(good, f"{old}/01-good")
    plugin(bug, f"{old}/02-buggy")
    plugin(good, f"{old}/03-gone")
    os.makedirs(f"{old}/04-empty")
    os.makedirs(new)
    for name in ["01-good", "04-empty"]:
        shutil.copytree(f"{old}/{name}", f"{new}/{name}", symlinks=True)
    shutil.copytree(f"{old}/02-buggy", f"{new}/05-renamed", symlinks=True)  # 02-buggy renamed
    plugin(bug, f"{new}/06-new")  # 03-gone removed, 06-new added

    def grade(subs, out, *args, fault=None, log=None):
        env = dict(os.environ)
        if fault:
            env["AWB_TEST_FAULT"] = fault
        with open(log or os.devnull, "wb") as err:
            return subprocess.run(
                [awb, "grade", "--batch", subs, "--exercise", "journey", "--exercise",
                 "animal-road", "--out", out, *args], env=env, stdout=subprocess.DEVNULL,
                stderr=err, timeout=60).returncode

    ref_old, ref_new, base = (os.path.join(work, n) for n in ["ref-old", "ref-new", "base"])
    if grade(old, ref_old) != 0:
        fail("the old class does not grade")
    if grade(new, ref_new) != 0:
        fail("the new class does not grade")
    # base: a journal with every result of both classes, the old class's set current.
    shutil.copytree(ref_old, base, symlinks=True)
    if grade(new, base, "--resume") != 0:
        fail("base: resume on the new class")
    if grade(old, base, "--resume") != 0:
        fail("base: resume on the old class")
    if set_state(base, ref_old, "none") != "old":
        fail("base is not the old set")
    for why in [whole_set(base), no_strays(base)]:
        if why:
            fail(f"base: {why}")

    def prepare(scenario, trial):
        shutil.rmtree(trial, ignore_errors=True)
        if scenario == "over-old":
            shutil.copytree(base, trial, symlinks=True)
        elif scenario == "first":
            os.makedirs(trial)
            shutil.copy(f"{base}/journal.jsonl", trial)
        else:  # flat: as earlier versions left it, killed while writing a Gradescope file
            os.makedirs(f"{trial}/gradescope")
            shutil.copy(f"{base}/journal.jsonl", trial)
            for f in ["grades.csv", "junit.xml"]:
                shutil.copy(f"{ref_old}/{f}", trial)  # follows the links, as cp -L
            for f in sorted(glob.glob(f"{ref_old}/gradescope/*.json")):
                shutil.copy(f, f"{trial}/gradescope/")
            with open(f"{trial}/gradescope/.03-gone.json.pNhgFR", "w") as f:
                f.write('{"partial\n')
            with open(f"{trial}/.grades.csv.Ab12Cd", "w") as f:
                f.write("x\n")

    def read(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()

    faults = kills = full = 0
    trial = os.path.join(work, "trial")
    fault_log, resume_log = os.path.join(work, "fault.log"), os.path.join(work, "resume.log")
    for scenario in ["over-old", "first", "flat"]:
        previous = ref_old if scenario == "over-old" else "none"
        for mode in ["kill-after-report", "enospc-at-report"]:
            for n in range(1, 101):
                prepare(scenario, trial)
                rc = grade(new, trial, "--resume", fault=f"{mode}:{n}", log=fault_log)
                # A SIGKILL reads as the shell's 128 + 9.
                rc = 128 - rc if rc < 0 else rc
                what = f"{scenario}, {mode}:{n} (exit {rc})"
                said = read(fault_log)
                last = said.strip().splitlines()[-2:] if said.strip() else []
                if rc == 0:  # past the last step: the run completed
                    if set_state(trial, "none", ref_new) != "new":
                        fail(f"{what}: not the new set")
                    why = no_strays(trial)
                    if why:
                        fail(f"{what}: {why}")
                    print(f"{scenario}, {mode}: {n - 1} fault(s), each left a whole set")
                    break
                faults += 1
                if mode == "kill-after-report":
                    if rc != 137:
                        fail(f"{what}: expected SIGKILL ({last})")
                    kills += 1
                else:
                    if rc != 1:
                        fail(f"{what}: expected exit 1 ({last})")
                    if "No space left on device" not in said:
                        fail(f"{what}: no ENOSPC said")
                    if "--resume" not in said:
                        fail(f"{what}: --resume not said")
                    if not re.search(r"previous reports \(reports\.[0-9]*\), intact|holds none yet|"
                                     r"new reports are current", said):
                        fail(f"{what}: what is left not said")
                    full += 1
                if scenario == "flat":
                    # The flat files are not a generation: check only that they were not mixed
                    # with one.
                    state = "flat"
                    if os.path.islink(f"{trial}/current"):
                        state = set_state(trial, "none", ref_new)
                else:
                    why = whole_set(trial)
                    if why:
                        fail(f"{what}: {why} ({last[-1:] if last else ''})")
                    state = set_state(trial, previous, ref_new)
                if state == "mixed":
                    fail(f"{what}: neither the previous set nor the new one")
                if grade(new, trial, "--resume", log=resume_log) != 0:
                    fail(f"{what}: the resume after it failed: {read(resume_log)[-300:]}")
                if " 0 result(s) graded" not in read(resume_log):
                    fail(f"{what}: the resume graded again")
                why = whole_set(trial)
                if why:
                    fail(f"{what}: after the resume: {why}")
                if set_state(trial, "none", ref_new) != "new":
                    fail(f"{what}: resume: not new")
                why = no_strays(trial)
                if why:
                    fail(f"{what}: after the resume: {why}")
                for f in ["grades.csv", "junit.xml"]:
                    if not filecmp.cmp(f"{trial}/{f}", f"{ref_new}/{f}", shallow=False):
                        fail(f"{what}: {f} differs from the uninterrupted run's")
                if not same_tree(f"{trial}/gradescope", f"{ref_new}/gradescope"):
                    fail(f"{what}: gradescope/")
                if os.path.exists(f"{trial}/gradescope/03-gone.json"):
                    fail(f"{what}: a removed submission's file")
            else:
                fail(f"{scenario}, {mode}: still failing after 100 steps")
    print(f"{faults} faults ({kills} kills, {full} full disks): after each, one whole set "
          "(previous or new); each resume published the new set byte-identical to an "
          "uninterrupted run's")
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
