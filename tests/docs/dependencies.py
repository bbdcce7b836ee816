#!/usr/bin/env python3
"""dependencies.py ROOT: the dependency table of docs/architecture.md ("Dependencies") names the
same Debian packages as the list cmake/install-deps.sh installs: none missing, none extra."""
import re
import sys
from pathlib import Path

root = Path(sys.argv[1])
script = (root / "cmake/install-deps.sh").read_text()
listed = set(re.search(r"^packages=\((.*?)^\)", script, re.M | re.S).group(1).split())
page = (root / "docs/architecture.md").read_text()
section = page.split("\n## Dependencies\n", 1)[1].split("\n## ", 1)[0]
documented = set()
for row in re.findall(r"^\| (.*?) \|", section, re.M):
    documented |= set(re.findall(r"`([a-z0-9][a-z0-9.+-]*)`", row))
problems = [f"{p}: installed by cmake/install-deps.sh, not in docs/architecture.md's table"
            for p in sorted(listed - documented)]
problems += [f"{p}: in docs/architecture.md's table, not installed by cmake/install-deps.sh"
             for p in sorted(documented - listed)]
for p in problems:
    print("FAIL", p)
print(f"dependencies: {len(listed)} installed, {len(documented)} documented")
print("PASS" if not problems else "FAIL")
sys.exit(1 if problems else 0)
