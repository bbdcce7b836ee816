#!/usr/bin/env python3
"""links.py ROOT: every relative link in README.md and docs/*.md reaches a file or folder of the
checkout, and every #anchor a heading of the page it names (GitHub's rule: lower case, spaces to
hyphens, punctuation other than hyphens and underscores dropped). Links to other sites are not
followed. Prints each broken link with its file and line."""
import re
import sys
from pathlib import Path

root = Path(sys.argv[1]).resolve()
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def strip_code(text):
    """The text with fenced blocks and inline code blanked (line numbers kept)."""
    out, fence = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
            out.append("")
            continue
        out.append("" if fence else re.sub(r"`[^`]*`", "", line))
    return out


def anchors(path):
    found, fence = set(), False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^#{1,6} (.*)$", line)
        if m:
            a = m.group(1).strip().lower()
            a = re.sub(r"[^\w\- ]", "", a).replace(" ", "-")
            n, base = 1, a
            while a in found:
                a, n = f"{base}-{n}", n + 1
            found.add(a)
    return found


pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
problems, count = [], 0
for page in pages:
    for n, line in enumerate(strip_code(page.read_text(encoding="utf-8")), 1):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # another site, or mailto:
            count += 1
            where = f"{page.relative_to(root)}:{n}: {target}"
            file_part, _, anchor = target.partition("#")
            dest = (page.parent / file_part).resolve() if file_part else page
            if root not in dest.parents and dest != root:
                problems.append(f"{where}: points outside the checkout")
            elif not dest.exists():
                problems.append(f"{where}: no such file")
            elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
                problems.append(f"{where}: no heading #{anchor} in {dest.relative_to(root)}")
for p in problems:
    print("FAIL", p)
print(f"docs links: {count} relative link(s) in {len(pages)} page(s); {len(problems)} broken")
print("PASS" if not problems else "FAIL")
sys.exit(1 if problems else 0)
