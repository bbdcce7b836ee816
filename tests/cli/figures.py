#!/usr/bin/env python3
"""`awb compare --figure` and `awb bench --figure`: the figures are complete files, vector ones
carry their words as text (an SVG's token labels and legend are <text> elements, a PDF's words
are extractable), and the faults are clear: a name of another kind is a usage error, a folder is
never replaced, and an awb without awb-figure beside it says so before running anything.
Usage: figures.py AWB WORK_DIR compare_pdf|compare_svg|bench|errors
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

awb, work, mode = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
work = work / mode
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
env = dict(os.environ, XDG_DATA_HOME=str(work / "data"))
failed = 0
COMPARE = ["compare", "--example", "journey", "--variant", "multi-head", "--variant",
           "parameter-free"]
JOURNEY = ["Your", "journey", "starts", "with", "one", "step"]


def run(*args, awb_path=None):
    return subprocess.run([awb_path or awb, *args], capture_output=True, text=True, env=env,
                          timeout=300)


def check(name, ok, detail=""):
    global failed
    print(("ok  " if ok else "BAD ") + name + (f": {detail}" if detail and not ok else ""))
    if not ok:
        failed += 1


def svg_texts(path):
    """Every text of the SVG's <text> elements (and their <tspan>s), whitespace trimmed."""
    out = []
    for el in ET.parse(path).iter():
        if el.tag.endswith("}text") or el.tag == "text":
            out.append("".join(el.itertext()).strip())
    return out


if mode == "compare_pdf":
    fig = work / "fig.pdf"
    r = run(*COMPARE, "--figure", str(fig))
    check("compare --figure fig.pdf exits 0", r.returncode == 0, r.stderr)
    data = fig.read_bytes() if fig.exists() else b""
    check("a whole PDF", data.startswith(b"%PDF-") and b"%%EOF" in data[-64:])
    check("no temporary file left beside it", sorted(p.name for p in work.iterdir()) == ["fig.pdf"],
          str(list(work.iterdir())))
    # poppler-utils is installed by cmake/install-deps.sh: without it the check fails, never
    # passes unseen.
    missing = [t for t in ("pdftotext", "pdftoppm") if not shutil.which(t)]
    check("pdftotext and pdftoppm are installed (poppler-utils)", not missing, str(missing))
    if not missing:
        text = subprocess.run(["pdftotext", str(fig), "-"], capture_output=True, text=True).stdout
        words = set(text.split())
        check("its tokens and variants are text", all(t in words for t in JOURNEY) and
              "multi-head" in text and "parameter-free" in text and "heads" in text, text[:400])
        subprocess.run(["pdftoppm", "-png", "-r", "80", str(fig), str(work / "page")], check=True)
        pages = list(work.glob("page*.png"))
        check("pdftoppm renders one page", len(pages) == 1 and pages[0].stat().st_size > 10000)

elif mode == "compare_svg":
    fig = work / "fig.svg"
    r = run(*COMPARE, "--against", "multi-head", "--figure", str(fig))
    check("compare --figure fig.svg exits 0", r.returncode == 0, r.stderr)
    texts = svg_texts(fig)
    check("every token label is a <text> element", all(t in texts for t in JOURNEY), texts[:40])
    joined = "".join(texts)  # a heading may wrap onto two lines
    check("the difference maps are titled against the baseline",
          "|parameter-free − multi-head|" in joined and "|reference − multi-head|" in joined,
          [t for t in texts if "|" in t])
    check("the parameters are in the figure", any("sharpness" in t for t in texts))
    check("one colour bar for the weights, one for the differences",
          texts.count("weight") == 1 and texts.count("|difference|") == 1)
    png = work / "fig.png"
    r = run(*COMPARE, "--figure", str(png))
    data = png.read_bytes() if png.exists() else b""
    check("compare --figure fig.png: a PNG", r.returncode == 0 and data[:8] == b"\x89PNG\r\n\x1a\n",
          r.stderr)

elif mode == "bench":
    r = run("bench", "--variant", "parameter-free", "-T", "64,128,256", "--quick", "--save", "base")
    check("bench --save base", r.returncode == 0, r.stderr)
    fig = work / "bench.svg"
    r = run("bench", "--from", "base", "--figure", str(fig))
    check("bench --from base --figure bench.svg exits 0", r.returncode == 0, r.stderr)
    texts = svg_texts(fig)
    legend = [t for t in texts if t.startswith("parameter-free")]
    check("the legend is text, one line per series with its slope",
          len(legend) >= 1 and all("slope" in t for t in legend), texts)
    check("the axis is titled", "T (tokens)" in texts, texts)
    run_json = json.loads((work / "data" / "awb" / "bench" / "base.json").read_text())
    series = {(p["variant"], p.get("scalar"), p.get("causal"), p.get("want_weights"))
              for p in run_json["points"]}
    check("one legend line per series", len(legend) == len(series), f"{legend} {series}")
    png = work / "bench.png"
    r = run("bench", "--from", "base", "--figure", str(png))
    check("bench --figure bench.png: a PNG", r.returncode == 0 and png.exists(), r.stderr)

elif mode == "errors":
    saved = work / "saved.json"
    r = run("bench", "--variant", "parameter-free", "-T", "33", "--quick", "--causal", "off",
            "--save", str(saved))
    check("bench --save saved.json", r.returncode == 0, r.stderr)
    r = run("bench", "--from", str(saved), "--figure", str(work / "fig.jpg"))
    check("an unknown extension is a usage error (exit 2)",
          r.returncode == 2 and ".pdf, .svg or .png" in r.stderr, r.stderr)
    folder = work / "folder.svg"
    folder.mkdir()
    r = run("bench", "--from", str(saved), "--figure", str(folder))
    check("a folder is not replaced: [io.not_regular], exit 2",
          r.returncode == 2 and "[io.not_regular]" in r.stderr and folder.is_dir() and
          not any(folder.iterdir()), r.stderr)
    r = run(*COMPARE, "--figure", str(folder))
    check("compare refuses the folder before running",
          r.returncode == 2 and "[io.not_regular]" in r.stderr and "multi-head" not in r.stdout,
          r.stderr)
    # An awb installed without the GUI: a copy in a prefix of its own, no awb-figure beside it.
    lone = work / "prefix" / "bin"
    lone.mkdir(parents=True)
    shutil.copy2(awb, lone / "awb")
    r = run("bench", "--from", str(saved), "--figure", str(work / "fig.svg"),
            awb_path=str(lone / "awb"))
    check("no awb-figure: [figure.unavailable], exit 1, nothing written",
          r.returncode == 1 and "[figure.unavailable]" in r.stderr and
          not (work / "fig.svg").exists(), r.stderr)

print("PASS" if failed == 0 else f"FAIL: {failed} check(s)")
sys.exit(1 if failed else 0)
