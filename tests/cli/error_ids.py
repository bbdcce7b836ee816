#!/usr/bin/env python3
"""error_ids.py ROOT: every error id the host raises has a row in the exit-code table
(host/cli/exit_codes.cpp) and in docs/errors.md's table ("Every id"), with the same code in both,
and the two tables list the same ids, each once; each file reader's id family has its "prefix.*"
row."""
import re
import sys
from pathlib import Path

root = Path(sys.argv[1])
ID = r'"([a-z_]+\.[a-z_]+)"'


def first_argument(text, start):
    """The text of the call's first argument, from just after its opening parenthesis."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i = text.index('"', i + 1)
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        i += 1
    return text[start:i]


raised = {}  # id -> a file that raises it
families = set()
for f in sorted((root / "host").rglob("*.[ch]pp")):
    text = f.read_text()
    rel = str(f.relative_to(root))
    found = []
    for m in re.finditer(r"\bError\(", text):
        found += re.findall(ID, first_argument(text, m.end()))
    found += re.findall(r"errors_?\.emplace_back\(\s*" + ID, text)  # collected, not thrown
    found += re.findall(r"raise_for_status\([^;]*?" + ID, text)
    found += re.findall(r"return " + ID + ";", text)  # runner_process.cpp's error_id()
    for i in found:
        raised.setdefault(i, rel)
    # A file reader makes its ids up from a prefix: read_yaml_file(file, "exercise", ...).
    families |= set(re.findall(r'(?:read_yaml_file|parse_guarded<\w+>)\([^;]*?"([a-z_]+)"', text))

code_of = {}
src = (root / "host/cli/exit_codes.hpp").read_text()
for name, value in re.findall(r"(kExit\w+) = (\d+)", src):
    code_of[name] = int(value)
table = {}
for i, name in re.findall(r'\{"([a-z_]+\.(?:[a-z_]+|\*))", (kExit\w+)\}',
                          (root / "host/cli/exit_codes.cpp").read_text()):
    table[i] = code_of[name]

page = (root / "docs/errors.md").read_text()
if "\n## Every id\n" not in page:
    print("FAIL docs/errors.md has no section \"## Every id\"")
    sys.exit(1)
section = page.split("\n## Every id\n", 1)[1].split("\n#", 1)[0]
rows = re.findall(r"^\| `([a-z_]+\.(?:[a-z_]+|\*))` \| (\d) \|", section, re.M)
documented = {i: int(c) for i, c in rows}

problems = []
for i in sorted({i for i, _ in rows if [r[0] for r in rows].count(i) > 1}):
    problems.append(f"{i} has more than one row in docs/errors.md")
for i, where in sorted(raised.items()):
    if i not in table:
        problems.append(f"{i} (raised in {where}) has no row in host/cli/exit_codes.cpp")
    if i not in documented:
        problems.append(f"{i} (raised in {where}) is not in docs/errors.md")
for p in sorted(families):
    if p + ".*" not in table or p + ".*" not in documented:
        problems.append(f"the reader family {p}.* needs a row in both tables")
for i in sorted(set(table) | set(documented)):
    if table.get(i) != documented.get(i):
        problems.append(f"{i}: exit {table.get(i)} in exit_codes.cpp, "
                        f"{documented.get(i)} in docs/errors.md")
for p in problems:
    print("FAIL", p)
print(f"error ids: {len(raised)} raised in host/, {len(families)} reader families, "
      f"{len(table)} rows; {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
