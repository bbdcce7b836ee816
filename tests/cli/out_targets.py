#!/usr/bin/env python3
"""awb writes only regular files: `--out` naming a FIFO, a character device, a folder, a socket or
a link to nothing is refused with [io.not_regular] (exit 2) and left as it was; a link to a
regular file is followed (the file it names is replaced, the link stays). As root the device is a
real one made with mknod in the test's own folder (a copy of /dev/null's numbers): a test never
names the machine's own /dev/null, which a regression would replace.
Usage: out_targets.py AWB WORK_DIR
"""
import os
import pathlib
import shutil
import socket
import stat
import subprocess
import sys

awb, work = sys.argv[1], pathlib.Path(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
grade = ["grade", "--variant", "parameter-free", "--exercise", "journey", "--format", "json"]
failed = 0


def check(name, path, kind_check, extra=()):
    global failed
    r = subprocess.run([awb, *grade, "--out", str(path), *extra], capture_output=True, text=True,
                       timeout=120)
    ok = r.returncode == 2 and "[io.not_regular]" in r.stderr and kind_check(path)
    print(("ok  " if ok else "BAD ") + f"{name}: exit {r.returncode}: {r.stderr.strip()}")
    if not ok:
        failed += 1


fifo = work / "fifo"
os.mkfifo(fifo)
check("a FIFO", fifo, lambda p: stat.S_ISFIFO(os.lstat(p).st_mode))
folder = work / "folder"
folder.mkdir()
check("a folder", folder, lambda p: p.is_dir() and not any(p.iterdir()))
sock_path = work / "sock"
sock = socket.socket(socket.AF_UNIX)
sock.bind(str(sock_path))
check("a socket", sock_path, lambda p: stat.S_ISSOCK(os.lstat(p).st_mode))
dangling = work / "dangling"
dangling.symlink_to(work / "nowhere")
check("a link to nothing", dangling, lambda p: p.is_symlink() and not (work / "nowhere").exists())
to_fifo = work / "to-fifo"
to_fifo.symlink_to(fifo)
check("a link to a FIFO", to_fifo, lambda p: stat.S_ISFIFO(os.lstat(fifo).st_mode))
if os.geteuid() == 0:
    dev = work / "mynull"
    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    check("a character device", dev, lambda p: stat.S_ISCHR(os.lstat(p).st_mode))
else:
    print("skip a character device: mknod needs root")

# A link to a regular file: the file is replaced, the link stays.
real = work / "real.json"
real.write_text("old\n")
link = work / "report.json"
link.symlink_to(real)
r = subprocess.run([awb, *grade, "--out", str(link)], capture_output=True, text=True, timeout=120)
ok = (r.returncode == 0 and link.is_symlink() and real.read_text().startswith("{"))
print(("ok  " if ok else "BAD ") + f"a link to a regular file: exit {r.returncode}")
failed += 0 if ok else 1
print("PASS" if failed == 0 else f"FAIL: {failed} case(s)")
sys.exit(1 if failed else 0)
