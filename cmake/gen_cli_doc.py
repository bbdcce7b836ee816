#!/usr/bin/env python3
"""gen_cli_doc.py AWB INTRO OUT [--check]: docs/cli.md, the command-line reference, from what the
built awb prints: INTRO (a Markdown file), then `awb --help` and the --help of every command and
sub-command it lists, each under a heading of its own. With --check, OUT is compared with what
would be written and the first difference is printed; exit 1 when they differ."""
import difflib
import os
import re
import subprocess
import sys


def help_of(awb, words):
    # The same page on every machine: defaults that name the home folder read "~", and nothing
    # of the caller's environment (AWB_*, XDG_*) reaches awb.
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8", "HOME": "~"}
    r = subprocess.run([awb, *words, "--help"], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"gen_cli_doc: awb {' '.join(words + ['--help'])} exited {r.returncode}:\n"
                 f"{r.stderr}")
    return r.stdout.rstrip() + "\n"


def subcommands(text):
    """The names listed under the help's "Subcommands:" heading (CLI11's layout)."""
    if "\nSubcommands:\n" not in text:
        return []
    names = []
    for line in text.split("\nSubcommands:\n", 1)[1].splitlines():
        m = re.match(r"^  ([a-z][a-z0-9-]*)(?:\s|$)", line)
        if m:
            names.append(m.group(1))
        elif line.strip() and not line.startswith("   "):
            break
    return names


def generate(awb, intro):
    parts = [intro.rstrip() + "\n"]
    todo = [[]]
    seen = []
    while todo:
        words = todo.pop(0)
        text = help_of(awb, words)
        seen.append(words)
        title = "awb " + " ".join(words) if words else "awb"
        parts.append(f"\n## `{title.strip()}`\n\n```\n{text}```\n")
        todo += [words + [name] for name in subcommands(text)]
    return "".join(parts)


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    if len(args) != 3:
        sys.exit(__doc__)
    awb, intro_file, out = args
    with open(intro_file, encoding="utf-8") as f:
        text = generate(awb, f.read())
    if "--check" in sys.argv:
        try:
            with open(out, encoding="utf-8") as f:
                committed = f.read()
        except FileNotFoundError:
            committed = ""
        if committed == text:
            print(f"PASS: {out} is what awb prints")
            return 0
        diff = difflib.unified_diff(committed.splitlines(), text.splitlines(), out,
                                    "what awb prints", lineterm="", n=1)
        print("\n".join(list(diff)[:40]))
        print(f"FAIL: {out} differs from the built awb's --help. Regenerate it with\n"
              "  cmake --build <build folder> --target docs_cli\nand commit the result.")
        return 1
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"gen_cli_doc: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
