"""awb from Python: the same C++ core, plugins, runner and reports as the ``awb`` command.

NumPy arrays go in and come out; untrusted plugins run in a locked-down ``awb-runner`` exactly
as from the command line; errors raise :class:`awb.Error` subclasses carrying the CLI's error
id. See docs/python.md.
"""

import functools
import json

from . import _core
from ._errors import CannotRunError, Error, InputError, PluginError, UsageError, from_failure
from ._results import CheckResult, CompareTable, ExerciseReport, GradeReport, Layer, RunResult

__version__ = _core.__version__

__all__ = [
    "CannotRunError", "CheckResult", "CompareTable", "Error", "Exercise", "ExerciseReport",
    "GradeReport",
    "InputError", "Layer", "Page", "PluginError", "Problem", "RunResult", "UsageError", "bench",
    "compare", "grade", "page", "plugins", "run", "__version__",
]


def _translated(fn):
    """Raises the awb.Error subclass for the core's failure, not the raw extension's."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except _core.Failure as failure:
            raise from_failure(failure) from None

    return call


class Problem:
    """What a run reads: a sentence's X (T x d_model), optional weights and layers, heads,
    causal, sharpness and the variant's parameters. Build one from arrays, a problem file
    (YAML, .npz, .npy), a built-in example, or an exercise's case. ``kv_heads`` (grouped-query
    attention) gives W_k and W_v that many column blocks, each shared by heads / kv_heads
    consecutive query heads; None means as many as ``heads``. ``batch`` sequences lie side by
    side in X's rows (each T = rows / batch tokens, the weights shared); ``lengths``, one per
    sequence, is the padding mask: only a sequence's first L tokens take part, and Z's rows and
    A's and S's rows and columns are 0 beyond them."""

    def __init__(self, x, w_q=None, w_k=None, w_v=None, w_o=None, heads=1, causal=False,
                 sharpness=1.0, tokens=None, params=None, kv_heads=None, batch=1, lengths=None):
        self._core = _translated(_core.Problem.from_arrays)(
            x, w_q, w_k, w_v, w_o, heads, causal, sharpness, tokens,
            {k: _param_text(v) for k, v in (params or {}).items()}, kv_heads or 0, int(batch),
            [int(n) for n in (lengths if lengths is not None else [])])

    @classmethod
    def _wrap(cls, core):
        problem = cls.__new__(cls)
        problem._core = core
        return problem

    @classmethod
    def load(cls, path):
        """A problem file, as ``awb run --problem`` reads it."""
        return cls._wrap(_translated(_core.Problem.load)(str(path)))

    @classmethod
    def example(cls, name):
        """A built-in example by name (``journey``), as ``awb run --example`` reads it."""
        return cls._wrap(_translated(_core.Problem.example)(name))

    @classmethod
    def exercise(cls, id, case=None, exercises=None):
        """An exercise's case (its first when ``case`` is None), as ``awb run --exercise``."""
        dirs = None if exercises is None else [str(d) for d in _as_list(exercises)]
        return cls._wrap(_translated(_core.Problem.exercise)(id, case or "", dirs))

    label = property(lambda self: self._core.label)
    tokens = property(lambda self: self._core.tokens)
    x = property(lambda self: self._core.x)
    heads = property(lambda self: self._core.heads)
    kv_heads = property(lambda self: self._core.kv_heads)
    batch = property(lambda self: self._core.batch)
    lengths = property(lambda self: list(self._core.lengths))
    causal = property(lambda self: self._core.causal)
    sharpness = property(lambda self: self._core.sharpness)
    params = property(lambda self: self._core.params)
    layers = property(lambda self: self._core.layers)

    def __repr__(self):
        return "Problem(%s, %d tokens)" % (self.label, len(self.tokens))


class Exercise:
    """An exercise as awb loads it: id, title, lesson (Markdown), kind, requires (capabilities),
    cases (their ids), checks (id, kind, name, points, visibility, case, hint), max_points, and
    the problem of each case."""

    def __init__(self, core):
        self._core = core

    @classmethod
    def load(cls, id_or_file, exercises=None):
        """An exercise file, or an exercise by id from ``exercises`` (folders or files; the
        bundled exercises when None)."""
        dirs = None if exercises is None else [str(d) for d in _as_list(exercises)]
        return cls(_translated(_core.Exercise.load)(str(id_or_file), dirs))

    def problem(self, case=None):
        """The :class:`Problem` of a case (the first when None), all its layers."""
        return Problem._wrap(_translated(self._core.problem)(case or ""))

    id = property(lambda self: self._core.id)
    title = property(lambda self: self._core.title)
    lesson = property(lambda self: self._core.lesson)
    kind = property(lambda self: self._core.kind)
    requires = property(lambda self: self._core.requires)
    cases = property(lambda self: self._core.cases)
    checks = property(lambda self: self._core.checks)
    max_points = property(lambda self: self._core.max_points)
    file = property(lambda self: self._core.file)
    sha256 = property(lambda self: self._core.sha256)

    def __repr__(self):
        return "Exercise(%s: %s)" % (self.id, self.title)


class Page:
    """The teaching page of an exercise (``awb page``): one self-contained HTML file. In Jupyter
    it shows inline, live (its slider, chips and questions work in the notebook); ``save``
    writes the file that opens in any browser."""

    def __init__(self, html):
        self.html = html

    def save(self, path):
        """Writes the page to ``path`` and returns the path."""
        with open(path, "w", encoding="utf-8") as out:
            out.write(self.html)
        return path

    def _repr_html_(self):
        # The page runs in a frame of its own: its script and style stay out of the notebook's.
        return ('<iframe style="width:100%;height:760px;border:1px solid #ccc" srcdoc="'
                + _html_attribute(self.html) + '"></iframe>')

    def __repr__(self):
        return "Page(%d bytes)" % len(self.html)


def _html_attribute(text):
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;"))


def page(variants, exercise, case=None, reference=True, scalar="f64", isolation="confined",
         paths=None, exercises=None):
    """The teaching page of ``exercise`` (an :class:`Exercise`, or an id or file as
    :meth:`Exercise.load` takes) for ``variants`` beside the reference (unless ``reference`` is
    False): every case (only ``case`` when given), the lesson and the questions, as
    ``awb page`` writes it, byte for byte. Returns a :class:`Page`."""
    if not isinstance(exercise, Exercise):
        exercise = Exercise.load(exercise, exercises)
    html = _translated(exercise._core.page)(list(_as_list(variants)), case or "", reference,
                                           scalar, isolation, _paths(paths))
    return Page(html)


def _as_list(value):
    return [value] if isinstance(value, str) or not hasattr(value, "__iter__") else list(value)


def _paths(paths):
    return None if paths is None else [str(p) for p in _as_list(paths)]


def _param_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def plugins(paths=None, isolation="confined"):
    """The loaded plugins (bundled, AWB_PLUGIN_PATH, then ``paths``): a list of dicts, each with
    id, name, version, path, bundled, isolation and its variants (id, capabilities, params)."""
    return _translated(_core.plugins)(_paths(paths), isolation)["plugins"]


def run(variant, x, w_q=None, w_k=None, w_v=None, w_o=None, heads=1, causal=False, params=None,
        want=("A", "S", "Z"), scalar="f64", isolation="confined", sharpness=1.0, paths=None):
    """Runs ``variant`` on ``x`` (an array, or a :class:`Problem`) and returns a
    :class:`RunResult`. With an array the weights, heads, causal, sharpness and params build the
    problem; with a Problem they must be left at their defaults. The variant runs on what it
    understands of the problem, as in ``awb run`` (its notes say what it dropped)."""
    if isinstance(x, Problem):
        given = (w_q, w_k, w_v, w_o, params)
        if any(v is not None for v in given) or heads != 1 or causal or sharpness != 1.0:
            raise UsageError("cli.excludes",
                             "a Problem carries its own weights, heads, causal, sharpness and "
                             "params: give them to Problem(...), not to run()", 2)
        problem = x
    else:
        problem = Problem(x, w_q, w_k, w_v, w_o, heads, causal, sharpness, None, params)
    done = _translated(_core.run)(variant, problem._core, list(want), scalar, isolation,
                                  _paths(paths))
    return RunResult(done)


def grade(variant, exercise=None, assignment=None, view="student", scalar="f64",
          isolation="confined", paths=None, exercises=None):
    """Grades ``variant`` as ``awb grade`` does: on ``exercise`` (an id or a list of ids), under
    ``assignment`` (a file or a bundled assignment's name), or on every exercise that is for it.
    Returns a :class:`GradeReport` whose ``json`` is what ``awb grade --format json`` writes."""
    ids = [] if exercise is None else [str(e) for e in _as_list(exercise)]
    dirs = None if exercises is None else [str(d) for d in _as_list(exercises)]
    text = _translated(_core.grade)(variant, ids, assignment or "", view, scalar, isolation,
                                    _paths(paths), dirs)
    return GradeReport(text)


def compare(variants, problem, scalar="f64", head=None, top_k=3, isolation="confined",
            paths=None):
    """Runs each variant and the reference on ``problem`` (a :class:`Problem`) and measures each
    against the reference on the last layer, as ``awb compare`` does. Returns a
    :class:`CompareTable` whose rows are the variants of its metrics.json."""
    if not isinstance(problem, Problem):
        raise UsageError("cli.invalid_value", "compare takes an awb.Problem", 2)
    text = _translated(_core.compare)(list(_as_list(variants)), problem._core, scalar, head,
                                      top_k, isolation, _paths(paths))
    return CompareTable(text)


def bench(variant, T=(256, 512, 1024), d=64, heads=1, causal=False, scalar="f32", want=("Z",),
          w_o=False, params=None, reps=0, max_seconds=1.0, threads=0, budget_gib=2.0,
          isolation="confined", paths=None, backward=False, kv_heads=None, batch=1, padding=0.0):
    """Times ``variant`` at each sequence length in ``T`` as ``awb bench`` does (per head width
    ``d``; ``want`` with "A" or "S" times the materialised path). Returns one dict per point with
    the statistics of ``awb bench --format json``: median_ms, the 95 % interval of the median
    (ci_low_ms, ci_high_ms), min_ms, max_ms, first_call_ms, samples_ms, gflops and its ratios
    where the variant has a cost model, the memory high water (peak_first_bytes); a point that
    is skipped or failed says why in ``note``. ``backward=True`` times training steps, the
    forward then the backward (``awb bench --backward``: FLOPs counted as 3.5 forwards).
    ``kv_heads`` times grouped-query attention (``awb bench --kv-heads``); ``batch`` sequences
    per call with the ``padding`` share of the last one's tokens masked (``awb bench --batch
    --padding``)."""
    tokens = [int(t) for t in _as_list(T)]
    text = _translated(_core.bench)(
        variant, tokens, d, heads, causal, scalar, list(want), w_o, backward,
        {k: _param_text(v) for k, v in (params or {}).items()}, reps, max_seconds, threads,
        budget_gib, isolation, _paths(paths), kv_heads or 0, int(batch), float(padding))
    return json.loads(text)
