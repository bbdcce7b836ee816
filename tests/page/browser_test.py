#!/usr/bin/env python3
"""The page `awb page` writes, tried in a real browser: headless chromium, driven through the
DevTools pipe by cdp.py (standard library only, no network port). It generates two pages, then
clicks a token, reads the weights, changes the sharpness and compares with `awb run`, answers a
question wrongly and rightly, takes screenshots at desktop and phone sizes, switches cases, and
checks that the pages loaded nothing but file: and data: URLs.

Usage: browser_test.py --awb AWB --out DIR [--measure]
Exit status: 0 all steps pass, 1 a step failed, 77 skipped (no chromium).
For trying a page file without awb: --page-file FILE [--expect-run-json FILE] (steps 3-8).
"""
import argparse
import collections
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import cdp  # noqa: E402

SKIPPED = 77
JOURNEY_WEIGHTS = [0.139, 0.238, 0.233, 0.124, 0.108, 0.158]  # query "journey", sharpness 1
DESKTOP = (1280, 800)
PHONE = (390, 844)


class StepFailed(Exception):
    pass


class Skip(Exception):
    pass


def check(condition, message):
    if not condition:
        raise StepFailed(message)


def css_string(text):
    """text as a quoted CSS string, for attribute selectors."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def js(value):
    return json.dumps(value)


class Run:
    """Runs steps, prints PASS/FAIL/SKIP per step, and remembers whether any failed."""

    def __init__(self):
        self.failed = []

    def step(self, name, function, *args):
        print(f"== {name}", flush=True)
        try:
            note = function(*args)
        except Skip as s:
            print(f"SKIP {name}: {s}", flush=True)
            return
        except (StepFailed, cdp.CDPError) as e:
            reason = str(e)
        except Exception as e:  # a fault of the test itself is reported like any failure
            reason = f"{type(e).__name__}: {e}"
        else:
            print(f"PASS {name}" + (f": {note}" if note else ""), flush=True)
            return
        self.failed.append(name)
        print(f"FAIL {name}: {reason}", flush=True)


# ---- awb -------------------------------------------------------------------------------------

def run_awb(awb, *args):
    command = [awb, *args]
    print("$ " + " ".join(command), flush=True)
    p = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise StepFailed(f"`{' '.join(command)}` exited {p.returncode}:\n"
                         + (p.stderr.strip() or "(nothing on stderr)"))
    return p.stdout


def generate_pages(awb, out):
    pages = {}
    for name, exercise, variant in (("journey", "journey", "parameter-free"),
                                    ("river-bank", "river-bank", "qkv")):
        path = out / f"{name}.html"
        run_awb(awb, "page", "--exercise", exercise, "--variant", variant, "--out", str(path))
        check(path.is_file(), f"awb page wrote no {path}")
        print(f"{path.name}: {path.stat().st_size} bytes")
        pages[name] = path
    return pages


def weights_matrix(doc, variant=None):
    """The first layer's weight matrix (head 0 when there are heads) of `awb run --format json`."""
    runs = doc.get("runs") or []
    check(runs, f"the JSON has no runs; its keys: {sorted(doc)}")
    chosen = [r for r in runs if r.get("variant") == variant] or runs
    layers = chosen[0].get("layers") or []
    check(layers, f"the run has no layers; its keys: {sorted(chosen[0])}")
    layer = layers[0]
    for key in ("A", "weights"):
        if layer.get(key):
            matrix = layer[key]
            break
    else:
        raise StepFailed(f"no weight matrix (A or weights) in the layer; its keys: {sorted(layer)}")
    if isinstance(matrix[0], list) and matrix[0] and isinstance(matrix[0][0], list):
        matrix = matrix[0]  # heads × rows × keys: head 0
    return matrix


# ---- the page --------------------------------------------------------------------------------

def load(page, path):
    page.navigate(path.resolve().as_uri())
    page.wait_for("window.awbPage && window.awbPage.ready === true", what="awbPage.ready")


def read_bars(page, panel="#weights"):
    """The data-value of each bar of a panel, by data-key (which must run 0..n-1)."""
    pairs = page.eval(f"""[...document.querySelectorAll({js(panel + ' .bar[data-key]')})]
        .map(b => [b.dataset.key, b.dataset.value])""")
    check(pairs, f"no {panel} .bar[data-key] elements")
    by_key = {int(k): float(v) for k, v in pairs}
    check(sorted(by_key) == list(range(len(pairs))),
          f"{panel} bars' data-key are {[k for k, _ in pairs]}, not 0..{len(pairs) - 1}")
    return [by_key[k] for k in range(len(pairs))]


def wait_bars_change(page, before, timeout=10):
    deadline = time.monotonic() + timeout
    while True:
        now = read_bars(page)
        if now != before:
            return now
        check(time.monotonic() < deadline, f"the weights did not change within {timeout} s")
        time.sleep(0.02)


def current_tokens(page):
    return page.eval("""(() => { const d = window.awbPage.data;
        const c = d.cases.find(c => String(c.id) === document.body.dataset.case) || d.cases[0];
        return c.tokens; })()""")


def chip_texts(page):
    return page.eval("[...document.querySelectorAll('#chips button.chip')]"
                     ".map(b => b.textContent.trim())")


def chip(index):
    return f'#chips button.chip[data-index="{index}"]'


def selected_chips(page):
    return page.eval("[...document.querySelectorAll('#chips button.chip[aria-pressed=\"true\"]')]"
                     ".map(b => +b.dataset.index)")


def close_to(got, expected, tolerance):
    return len(got) == len(expected) and all(abs(a - b) <= tolerance
                                             for a, b in zip(got, expected))


def fmt(values, digits=6):
    return "[" + ", ".join(f"{v:.{digits}f}" for v in values) + "]"


# ---- steps -----------------------------------------------------------------------------------

class Context:
    def __init__(self, args, out):
        self.args = args
        self.out = out
        self.browser = None
        self.files = {}
        self.pages = []  # every Page opened, for the network and error checks
        self.journey = None
        self.query = None  # index of "journey" among the journey page's tokens

    def open(self, path, size=DESKTOP, mobile=False):
        """A new tab at that size showing the page, once awbPage.ready."""
        page = self.browser.new_page()
        self.pages.append(page)
        page.set_viewport(*size, scale=1, mobile=mobile)
        load(page, path)
        return page

    def need_journey(self):
        check(self.journey is not None and self.query is not None,
              "the journey page did not open, or has no token 'journey'")
        return self.journey


def step_journey_weights(ctx):
    page = ctx.journey = ctx.open(ctx.files["journey"])
    tokens = current_tokens(page)
    print(f"tokens: {tokens}")
    check("journey" in tokens, f"no token 'journey' in {tokens}")
    ctx.query = tokens.index("journey")
    problems = [f"JavaScript exception on load: {e}" for e in page.exceptions()]
    page.click(chip(ctx.query))
    page.wait_for(f"document.querySelector({js(chip(ctx.query))})"
                  ".getAttribute('aria-pressed') === 'true'", what="the chip pressed", timeout=10)
    if selected_chips(page) != [ctx.query]:
        problems.append(f"pressed chips {selected_chips(page)}, expected only {ctx.query}")
    weights = read_bars(page)
    print(f"weights of 'journey': {fmt(weights)}")
    print(f"scores of 'journey':  {fmt(read_bars(page, '#scores'))}")
    if not close_to(weights, JOURNEY_WEIGHTS, 1e-3):
        problems.append(f"weights {fmt(weights, 4)}, expected {fmt(JOURNEY_WEIGHTS, 3)} "
                        "within 1e-3")
    if abs(sum(weights) - 1) > 1e-6:
        problems.append(f"the weights sum to {sum(weights)!r}")
    check(not problems, "\n".join(problems))


def reference_row(ctx, sharpness, query):
    """The weights row `awb run` gives (or the --expect-run-json file holds); None if neither."""
    if ctx.args.expect_run_json:
        doc = json.loads(pathlib.Path(ctx.args.expect_run_json).read_text())
        print(f"reference: {ctx.args.expect_run_json}")
    elif ctx.args.awb:
        doc = json.loads(run_awb(ctx.args.awb, "run", "--exercise", "journey", "--variant",
                                 "parameter-free", "--sharpness", str(sharpness),
                                 "--format", "json"))
    else:
        return None
    matrix = weights_matrix(doc, "parameter-free")
    check(query < len(matrix), f"the reference has {len(matrix)} rows, no row {query}")
    return matrix[query]


def step_sharpness_number(ctx):
    page = ctx.need_journey()
    before = read_bars(page)
    page.eval("""(() => { const n = document.querySelector('#sharpness-number');
        n.value = "8"; n.dispatchEvent(new Event('change', {bubbles: true})); })()""")
    weights = wait_bars_change(page, before)
    shown = page.eval("document.querySelector('#sharpness-value').textContent")
    print(f"#sharpness-value: {shown!r}")
    print(f"page weights at sharpness 8: {fmt(weights, 9)}")
    check(abs(sum(weights) - 1) <= 1e-6, f"the weights sum to {sum(weights)!r}")
    check(max(weights) > max(before), "sharpness 8 did not sharpen the weights")
    expected = reference_row(ctx, 8, ctx.query)
    if expected is None:
        return "no reference (neither --awb nor --expect-run-json): compared with nothing"
    print(f"awb run weights:             {fmt(expected, 9)}")
    worst = max(abs(a - b) for a, b in zip(weights, expected))
    check(len(weights) == len(expected) and worst <= 1e-6,
          f"the page's row differs from awb run's by {worst:.3g} (allowed 1e-6)")
    return f"agrees with awb run within {worst:.2g}"


def step_sharpness_slider(ctx):
    page = ctx.need_journey()
    value = "document.querySelector('#sharpness-value').textContent"
    before_text, before_range = page.eval(value), page.eval(
        "document.querySelector('#sharpness').value")
    page.focus("#sharpness")
    check(page.eval("document.activeElement.id") == "sharpness", "#sharpness took no focus")
    for _ in range(3):
        page.press_key("ArrowRight")
    page.wait_for(f"{value} !== {js(before_text)}", timeout=10,
                  what="#sharpness-value to change after ArrowRight")
    after_range = page.eval("document.querySelector('#sharpness').value")
    return (f"#sharpness {before_range} -> {after_range}, "
            f"#sharpness-value {before_text!r} -> {page.eval(value)!r}")


def step_sharpness_typed(ctx):
    """Types 1 into the number box and presses Enter: the weights of step 3 come back."""
    page = ctx.need_journey()
    before = read_bars(page)
    page.click("#sharpness-number")
    page.eval("document.querySelector('#sharpness-number').select()")
    page.type_text("1")
    page.press_key("Enter")
    weights = wait_bars_change(page, before)
    check(close_to(weights, JOURNEY_WEIGHTS, 1e-3),
          f"after typing 1 + Enter the weights are {fmt(weights, 4)}, "
          f"expected {fmt(JOURNEY_WEIGHTS, 3)}")
    return "typing 1 + Enter restores sharpness 1"


def answer_buttons(kind):
    return "#heads-answer button[data-head]" if kind == "head" else "#chips button.chip"


def answer_selector(kind, index):
    if kind == "head":
        return f'#heads-answer button[data-head="{index}"]'
    return chip(index)


def step_questions(ctx, page=None):
    page = page or ctx.need_journey()
    first = page.eval("(() => { const q = document.querySelector('#questions .question');"
                      " return q ? q.dataset.id : null; })()")
    check(first is not None, "no #questions .question")
    question = page.eval(f"window.awbPage.data.questions.find(q => String(q.id) === {js(first)})"
                         " || null")
    check(question is not None, f"no question with id {first!r} in awbPage.data.questions")
    kind, answer = question.get("kind"), question.get("answer")
    print(f"question {first!r}: kind {kind!r}, answer {answer!r}, case {question.get('case')!r},"
          f" query {question.get('query')!r}")
    check(kind in ("token", "head"), f"unknown question kind {kind!r}")
    block = f"#questions .question[data-id={css_string(first)}]"
    verdict = f"document.querySelector({js(block + ' .verdict')})"
    asking = "document.body.dataset.asking === 'true'"

    def ask():
        page.click(f"{block} .ask")
        page.wait_for(asking, timeout=10, what="body.dataset.asking to become 'true'")
        hidden = page.eval("""(() => { const w = document.querySelector('#weights');
            if (!w) return 'no #weights';
            const s = getComputedStyle(w);
            return w.dataset.hidden === 'true' ? 'data-hidden' :
                   w.classList.contains('hidden') ? 'class hidden' :
                   w.hidden || s.display === 'none' || s.visibility === 'hidden' ? 'not shown' :
                   'not hidden'; })()""")
        print(f"asking; #weights: {hidden}")

    ask()  # a head question's answer buttons are there only while it is asked
    options = page.eval(f"document.querySelectorAll({js(answer_buttons(kind))}).length")
    check(options >= 2, f"{options} answer buttons for a {kind} question")
    wrong = (answer + 1) % options
    page.click(answer_selector(kind, wrong))
    page.wait_for(f"{verdict}.classList.contains('wrong')", timeout=10,
                  what=f"class wrong on the verdict after answering {wrong}")
    print(f"answered {wrong}: {page.eval(verdict + '.textContent.trim()')!r}")
    ask()
    page.click(answer_selector(kind, answer))
    page.wait_for(f"{verdict}.classList.contains('right') && "
                  f"!{verdict}.classList.contains('wrong')", timeout=10,
                  what=f"class right (alone) on the verdict after answering {answer}")
    explain = page.wait_for(f"document.querySelector({js(block + ' .explain')}).textContent.trim()",
                            timeout=10, what="an explanation in .explain")
    print(f"answered {answer}: {page.eval(verdict + '.textContent.trim()')!r}; "
          f"explanation: {explain[:100]!r}")
    print(f"asking after the answer: {page.eval('document.body.dataset.asking')!r}")


def step_screenshots(ctx):
    page = ctx.need_journey()
    page.set_viewport(*DESKTOP)
    page.eval("window.scrollTo(0, 0)")
    page.settle()
    desktop = ctx.out / "journey-1280x800.png"
    print(f"{desktop.name}: {page.screenshot(desktop)} bytes")
    page.set_viewport(*PHONE, scale=1, mobile=True)
    load(page, ctx.files["journey"])
    page.settle()
    width = page.eval("document.documentElement.scrollWidth")
    phone = ctx.out / "journey-390x844.png"
    print(f"{phone.name}: {page.screenshot(phone)} bytes")
    print(f"scrollWidth at 390 px: {width}")
    check(width <= PHONE[0], f"the page is {width} px wide at {PHONE[0]} px: it overflows sideways")


def step_cases(ctx, path):
    page = ctx.open(path)
    cases = page.eval("window.awbPage.data.cases.map(c => ({id: c.id, tokens: c.tokens}))")
    if len(cases) < 2 and "river-bank" not in ctx.files:
        raise Skip(f"{path.name} has {len(cases)} case(s)")
    check(len(cases) >= 2, f"{path.name} has {len(cases)} case(s), expected at least 2")
    tabs = page.eval("[...document.querySelectorAll('#cases button[data-case]')]"
                     ".map(b => b.dataset.case)")
    print(f"case tabs: {tabs}")
    check(len(tabs) >= 2, f"{len(tabs)} #cases button[data-case]")
    target = cases[1]
    check(str(tabs[1]) == str(target["id"]),
          f"the second tab is {tabs[1]!r}, but data.cases[1].id is {target['id']!r}")
    before = chip_texts(page)
    page.click(f"#cases button[data-case={css_string(tabs[1])}]")
    page.wait_for(f"document.body.dataset.case === {js(str(target['id']))}", timeout=10,
                  what=f"body.dataset.case to become {target['id']!r}")
    after = chip_texts(page)
    print(f"chips before: {before}\nchips after:  {after}")
    expected = [str(t).strip() for t in target["tokens"]]
    check(after == expected, f"the chips read {after}, expected case {target['id']!r}'s "
          f"tokens {expected}")
    check(after != before or cases[0]["tokens"] == target["tokens"], "the chips did not change")


def step_network(ctx):
    check(ctx.pages, "no page was opened")
    urls = [url for page in ctx.pages for url in page.requests()]
    schemes = collections.Counter(url.split(":", 1)[0] for url in urls)
    print(f"{len(urls)} requests; schemes: {dict(schemes)}")
    check(urls, "the browser logged no request at all (is the Network domain working?)")
    bad = [url for url in urls if not url.startswith(("file:", "data:"))]
    check(not bad, "requests other than file: and data::\n" + "\n".join(bad))


def step_no_errors(ctx):
    check(ctx.pages, "no page was opened")
    problems = [f"exception: {e}" for page in ctx.pages for e in page.exceptions()]
    problems += [f"console: {e}" for page in ctx.pages for e in page.console_errors()]
    check(not problems, "\n".join(problems))


def measure(page, label, n=200):
    times = page.eval(f"window.awbPage.timeUpdate({n})", timeout=120)
    print(f"{label}: {len(times)} updates, median {statistics.median(times):.3f} ms, "
          f"max {max(times):.3f} ms")


def step_measure(ctx):
    if ctx.journey is not None:
        measure(ctx.journey, "journey")
    t64 = ctx.out / "t64.html"
    if ctx.args.awb and ctx.args.t64_exercise:
        run_awb(ctx.args.awb, "page", "--exercises", ctx.args.t64_exercise, "--exercise", "page-t64",
                "--variant", "multi-head", "--out", str(t64))
        print(f"{t64.name}: {t64.stat().st_size} bytes")
    if not t64.is_file():
        raise Skip(f"no {t64}: not measured")
    page = ctx.open(t64)
    measure(page, t64.name + ", one head")
    page.click('#modes button[data-mode="heads"]')
    measure(page, t64.name + ", all 8 heads")


def step_checks(ctx):
    """Every run of every page opened recomputes, at sharpness 1, its own A and Z: the bundled
    variants and the reference to rounding (float64 pages) or float32's precision."""
    check(ctx.pages, "no page was opened")
    worst = 0.0
    count = 0
    for page in ctx.pages:
        bits = page.eval("window.awbPage.data.float_bits")
        allowed = 1e-9 if bits == 64 else 1e-5
        for c in page.eval("window.awbPage.checks"):
            if c["check"] is None:  # the reference: softmax(S) by construction
                continue
            count += 1
            a, z = c["check"]["a"], c["check"]["z"]
            check(a is not None and z is not None and a <= allowed and z <= allowed,
                  f"{c['subject']} on case {c['case']}: A within {a}, Z within {z} "
                  f"(allowed {allowed})")
            worst = max(worst, a, z)
    return f"{count} runs, the largest difference {worst:.3g}"


def step_chip_keys(ctx):
    """The arrow keys walk along the chips, the focus kept from one chip to the next."""
    page = ctx.need_journey()
    page.click(chip(0))
    page.focus(chip(0))
    for _ in range(2):
        page.press_key("ArrowRight")
    selected = selected_chips(page)
    check(selected == [2], f"after two ArrowRight from the first chip, {selected} selected")
    page.press_key("ArrowLeft")
    check(selected_chips(page) == [1], "ArrowLeft did not move back to the second chip")
    focused = page.eval("document.activeElement && document.activeElement.dataset.index")
    check(str(focused) == "1", f"the focus is on {focused!r}, not the second chip")


def run_json_layer(ctx, exercise, variant, *extra):
    doc = json.loads(run_awb(ctx.args.awb, "run", "--exercise", exercise, "--variant", variant,
                             "--format", "json", *extra))
    return doc["runs"][0]["layers"][-1]


def step_masked_softmax(ctx):
    """The causal exercise at sharpness 8: every query's weights, the mask applied in the page,
    against awb run."""
    path = ctx.out / "causal.html"
    run_awb(ctx.args.awb, "page", "--exercise", "causal", "--variant", "causal", "--out", str(path))
    page = ctx.open(path)
    page.eval("""(() => { const n = document.querySelector('#sharpness-number');
        n.value = "8"; n.dispatchEvent(new Event('change', {bubbles: true})); })()""")
    expected = run_json_layer(ctx, "causal", "causal", "--sharpness", "8")["weights"][0]
    worst = 0.0
    for q in range(len(expected)):
        page.click(chip(q))
        got = read_bars(page)
        masked = page.eval("[...document.querySelectorAll('#weights .bar')]"
                           ".map(b => b.classList.contains('masked'))")
        check(masked == [k > q for k in range(len(expected))],
              f"query {q}: masked bars {masked}, expected the keys after it")
        worst = max(worst, max(abs(a - b) for a, b in zip(got, expected[q])))
    check(worst <= 1e-6, f"the page's weights differ from awb run's by {worst:.3g}")
    return f"{len(expected)} queries within {worst:.2g} of awb run"


def step_context_with_output_projection(ctx):
    """multi-head: the context vector Z of "it" (two heads, concatenated, times W_o) against awb
    run's Z."""
    page = ctx.open(ctx.out / "multi-head.html")
    tokens = current_tokens(page)
    q = tokens.index("it")
    page.click(chip(q))
    text = page.eval("document.querySelector('#context-values').textContent")
    got = [float(v) for v in text.split("[", 1)[1].rstrip("]").split(",")]
    expected = run_json_layer(ctx, "multi-head", "multi-head")["z"][q]
    worst = max(abs(a - b) for a, b in zip(got, expected))
    check(len(got) == len(expected) and worst <= 1e-4,
          f"z of 'it': page {got}, awb run {expected}")
    return f"{len(got)} numbers within {worst:.2g} of awb run (printed to 4 decimals)"


# The pages of the closing note's gallery: each opened in the view it is about, a screenshot at
# desktop and at phone width.
GALLERY = (
    ("animal-road", ["--exercise", "animal-road", "--variant", "qkv"], "layers"),
    ("multi-head", ["--exercise", "multi-head", "--variant", "multi-head"], "heads"),
    ("compare-no-scale", ["--exercise", "why-qkv", "--variant", "org.awb.qkv:qkv", "--variant",
                          "org.awb.mutant.no-scale:qkv"], "compare"),
)


def step_gallery(ctx):
    for name, args, mode in GALLERY:
        path = ctx.out / f"{name}.html"
        mutant = pathlib.Path(ctx.args.mutants or ".") / "mutant_no_scale.so"
        extra = ["--plugin-dir", str(mutant)] if name == "compare-no-scale" else []
        run_awb(ctx.args.awb, "page", *args, *extra, "--out", str(path))
        print(f"{path.name}: {path.stat().st_size} bytes")
        if name == "multi-head":  # its first question is answered by clicking a head
            print("-- the head question of multi-head.html")
            step_questions(ctx, ctx.open(path))
        for size, mobile in ((DESKTOP, False), (PHONE, True)):
            page = ctx.open(path, size=size, mobile=mobile)
            page.click(f'#modes button[data-mode="{mode}"]')
            page.eval("document.querySelector('#modes').scrollIntoView()")
            page.settle()
            shot = ctx.out / f"{name}-{size[0]}x{size[1]}.png"
            print(f"{shot.name}: {page.screenshot(shot)} bytes")
            width = page.eval("document.documentElement.scrollWidth")
            check(width <= size[0], f"{path.name} is {width} px wide at {size[0]} px")


# ---- main ------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--awb", help="the awb executable")
    parser.add_argument("--out", help="folder for the pages and screenshots")
    parser.add_argument("--measure", action="store_true", help="time slider updates (printed)")
    parser.add_argument("--t64-exercise", help="with --measure: the T = 64 exercise file to time")
    parser.add_argument("--gallery", action="store_true",
                        help="also write and photograph the animal-road, multi-head and compare "
                        "pages")
    parser.add_argument("--mutants", help="with --gallery: the folder of the mutant plugins")
    # Development: test a page file without awb (steps 3-6 and 8; step 7 if it has 2 cases).
    parser.add_argument("--page-file", help=argparse.SUPPRESS)
    parser.add_argument("--expect-run-json", help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=cdp.DEFAULT_TIMEOUT,
                        help="seconds to wait for the browser at each step")
    args = parser.parse_args()
    if not args.page_file and not args.awb:
        parser.error("--awb is required (or --page-file)")
    if not args.page_file and not args.out:
        parser.error("--out is required")

    chromium = cdp.find_chromium()
    if not chromium:
        print("skipped: no chromium (install Debian's chromium package: cmake/install-deps.sh)")
        return SKIPPED

    out = pathlib.Path(args.out or tempfile.mkdtemp(prefix="awb-page-test-")).resolve()
    out.mkdir(parents=True, exist_ok=True)
    print(f"chromium: {chromium}; output: {out}")
    ctx = Context(args, out)
    run = Run()

    if args.page_file:
        page_file = pathlib.Path(args.page_file)
        ctx.files = {"journey": page_file}
        print(f"testing {page_file} ({page_file.stat().st_size} bytes); generation skipped")
    else:
        def generate():
            ctx.files = generate_pages(args.awb, out)
        run.step("2 generate pages", generate)
        if run.failed:
            print("FAIL: the pages could not be generated")
            return 1

    try:
        ctx.browser = cdp.Browser(chromium, timeout=args.timeout)
    except cdp.CDPError as e:
        print(f"FAIL: chromium did not start: {e}")
        return 1
    print(f"browser: {ctx.browser.version.get('product')}")
    try:
        run.step("3 journey: weights of 'journey'", step_journey_weights, ctx)
        run.step("4 sharpness 8 through the number box", step_sharpness_number, ctx)
        run.step("4 sharpness slider by keyboard", step_sharpness_slider, ctx)
        run.step("4 sharpness typed into the number box", step_sharpness_typed, ctx)
        run.step("5 questions: wrong, then right", step_questions, ctx)
        run.step("6 screenshots and phone width", step_screenshots, ctx)
        cases_page = ctx.files.get("river-bank", ctx.files["journey"])
        run.step(f"7 cases ({cases_page.name})", step_cases, ctx, cases_page)
        run.step("7 chips by the arrow keys", step_chip_keys, ctx)
        if args.awb:
            run.step("7 the causal mask against awb run", step_masked_softmax, ctx)
        run.step("8 network: file: and data: only", step_network, ctx)
        run.step("8 no JavaScript errors", step_no_errors, ctx)
        if args.measure:
            run.step("9 measure", step_measure, ctx)
        if args.gallery:
            run.step("10 gallery", step_gallery, ctx)
            run.step("10 Z through W_o against awb run", step_context_with_output_projection,
                     ctx)
        run.step("11 every run checks itself", step_checks, ctx)
    finally:
        ctx.browser.close()

    if run.failed:
        print(f"FAIL: {len(run.failed)} step(s): " + "; ".join(run.failed))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
