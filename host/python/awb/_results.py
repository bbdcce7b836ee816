"""What awb's calls return: runs, grade reports and comparisons, as plain Python objects."""

import json

from . import _html


class Layer:
    """One layer of a run: ``Z`` (T x d_out), ``A`` and ``S`` (one T x T array per head; empty
    when not asked for), the layer's input ``X``, and what the variant ran with."""

    def __init__(self, d):
        self.Z = d["Z"]
        self.A = list(d["A"])
        self.S = list(d["S"])
        self.X = d["input"]
        self.heads = d["heads"]
        self.causal = d["causal"]
        self.sharpness = d["sharpness"]
        self.scale = d["scale"]

    def __repr__(self):
        return "Layer(heads=%d, Z=%dx%d, A=%d plane(s))" % (
            self.heads, self.Z.shape[0], self.Z.shape[1], len(self.A))


class RunResult:
    """A variant's run: ``layers`` (one :class:`Layer` each), the ``tokens``, the ``notes`` on
    what the variant did not understand of the problem, and the ``provenance`` (plugin, variant,
    plugin_sha256, lockdown, scalar, source)."""

    def __init__(self, d):
        self.tokens = list(d["tokens"])
        self.layers = [Layer(layer) for layer in d["layers"]]
        self.notes = list(d["notes"])
        self.provenance = dict(d["provenance"])

    # The last layer's arrays, the ones a single-layer problem has.
    @property
    def Z(self):
        return self.layers[-1].Z

    @property
    def A(self):
        return self.layers[-1].A

    @property
    def S(self):
        return self.layers[-1].S

    def __repr__(self):
        return "RunResult(%s, %d layer(s), lockdown %s)" % (
            self.provenance["variant"], len(self.layers), self.provenance["lockdown"])

    def _repr_html_(self):
        return _html.run_html(self)


class CheckResult:
    """One check of a report: id, name, kind, status (passed, failed, error, timeout, not-run),
    points, max_points, summary, details, diagnosis, hint, as the JSON report holds them."""

    def __init__(self, d):
        self.__dict__.update(d)
        self.raw = d

    def __repr__(self):
        return "CheckResult(%s, %s, %s/%s)" % (
            self.raw.get("id"), self.raw.get("status"), self.raw.get("points"),
            self.raw.get("max_points"))


class ExerciseReport:
    """One exercise of a grade report: its id, score, max_score, checks and provenance."""

    def __init__(self, d):
        self.raw = d
        self.id = d.get("id", d.get("exercise_id"))
        self.score = d.get("score")
        self.max_score = d.get("max_score")
        self.provenance = d.get("provenance", {})
        self.checks = [CheckResult(c) for c in d.get("checks", [])]


class GradeReport:
    """A variant graded: ``json`` is the report exactly as ``awb grade --format json`` writes it,
    ``data`` the same parsed, ``exercises`` and ``checks`` as objects."""

    def __init__(self, text):
        self.json = text
        self.data = json.loads(text)
        subjects = self.data.get("subjects", [self.data])
        self.subject = subjects[0]
        self.exercises = [ExerciseReport(e) for e in self.subject.get("exercises", [])]
        self.score = self.subject.get("score")
        self.max_score = self.subject.get("max_score")

    @property
    def checks(self):
        return [c for e in self.exercises for c in e.checks]

    def __repr__(self):
        return "GradeReport(%s, %s of %s)" % (
            self.subject.get("subject"), self.score, self.max_score)

    def _repr_html_(self):
        return _html.grade_html(self)


class CompareTable:
    """``awb compare``'s metrics: ``data`` is the JSON ``awb compare --format json`` writes (the
    rows of its metrics.json), ``json`` the same as text; ``rows`` one dict per variant."""

    def __init__(self, text):
        self.json = text
        self.data = json.loads(text)
        self.rows = self.data["variants"]

    def to_pandas(self):
        """The pooled metrics, one row per variant (pandas must be installed)."""
        import pandas
        records = []
        for row in self.rows:
            record = {"variant": row["variant"], "max_abs_error": row.get("max_abs_error"),
                      "error": row.get("error")}
            record.update({k: v for k, v in row.get("pooled", {}).items()})
            records.append(record)
        return pandas.DataFrame.from_records(records).set_index("variant")

    def __repr__(self):
        return "CompareTable(%s)" % ", ".join(r["variant"] for r in self.rows)

    def _repr_html_(self):
        return _html.compare_html(self)
