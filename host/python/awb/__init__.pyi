"""Type hints of the awb package (docs/python.md)."""

from os import PathLike
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

Paths = Optional[Union[str, PathLike, Iterable[Union[str, PathLike]]]]
ArrayLike = npt.ArrayLike

class Error(Exception):
    """An error awb reports, with the CLI's stable id and exit code."""
    id: str
    message: str
    exit_code: int
    def __init__(self, id: str, message: str, exit_code: int = ...) -> None: ...

class UsageError(Error):
    """A call naming nothing, or asking for what does not go together (exit 2)."""

class InputError(Error):
    """An invalid input file or array (exit 3)."""

class PluginError(Error):
    """A plugin that did not load, was not found, or failed or crashed (plugin.*, runner.*)."""

class CannotRunError(Error):
    """The variant lacks a capability or parameter the problem needs (exit 5)."""

class Problem:
    """What a run reads: X, optional weights and layers, heads, causal, sharpness, params."""
    def __init__(self, x: ArrayLike, w_q: Optional[ArrayLike] = ...,
                 w_k: Optional[ArrayLike] = ..., w_v: Optional[ArrayLike] = ...,
                 w_o: Optional[ArrayLike] = ..., heads: int = ..., causal: bool = ...,
                 sharpness: float = ..., tokens: Optional[Sequence[str]] = ...,
                 params: Optional[Mapping[str, Any]] = ...,
                 kv_heads: Optional[int] = ...) -> None: ...
    @classmethod
    def load(cls, path: Union[str, PathLike]) -> "Problem":
        """A problem file (YAML, .npz, .npy), as `awb run --problem` reads it."""
    @classmethod
    def example(cls, name: str) -> "Problem":
        """A built-in example (journey)."""
    @classmethod
    def exercise(cls, id: str, case: Optional[str] = ..., exercises: Paths = ...) -> "Problem":
        """An exercise's case, its first when case is None."""
    label: str
    tokens: list[str]
    x: np.ndarray
    heads: int
    kv_heads: int
    causal: bool
    sharpness: float
    params: dict[str, str]
    layers: list[dict[str, Any]]

class Exercise:
    """An exercise as awb loads it: its lesson, cases and checks."""
    @classmethod
    def load(cls, id_or_file: Union[str, PathLike], exercises: Paths = ...) -> "Exercise":
        """An exercise file, or one by id from the folders (bundled ones when None)."""
    def problem(self, case: Optional[str] = ...) -> Problem:
        """The problem of a case, its first when case is None."""
    id: str
    title: str
    lesson: str
    kind: str
    requires: list[str]
    cases: list[str]
    checks: list[dict[str, Any]]
    max_points: float
    file: str
    sha256: str

class Page:
    """The teaching page of an exercise: one self-contained HTML file; live inline in Jupyter."""
    html: str
    def save(self, path: Union[str, PathLike]) -> Union[str, PathLike]:
        """Writes the page to path."""
    def _repr_html_(self) -> str: ...

class Layer:
    """One layer of a run: Z, A and S per head, its input X and what the variant ran with."""
    Z: np.ndarray
    A: list[np.ndarray]
    S: list[np.ndarray]
    X: np.ndarray
    heads: int
    causal: bool
    sharpness: float
    scale: str

class RunResult:
    """A run: its layers, tokens, notes and provenance (plugin_sha256, lockdown, ...)."""
    tokens: list[str]
    layers: list[Layer]
    notes: list[str]
    provenance: dict[str, str]
    @property
    def Z(self) -> np.ndarray: ...
    @property
    def A(self) -> list[np.ndarray]: ...
    @property
    def S(self) -> list[np.ndarray]: ...
    def _repr_html_(self) -> str: ...

class CheckResult:
    """One check of a grade report, as its JSON holds it."""
    id: str
    name: str
    kind: str
    status: str
    points: float
    max_points: float
    summary: str
    details: str
    diagnosis: str
    hint: str
    visibility: str
    raw: dict[str, Any]

class ExerciseReport:
    """One exercise of a grade report."""
    id: str
    score: float
    max_score: float
    provenance: dict[str, str]
    checks: list[CheckResult]

class GradeReport:
    """A variant graded; json is what `awb grade --format json` writes."""
    json: str
    data: dict[str, Any]
    exercises: list[ExerciseReport]
    score: float
    max_score: float
    @property
    def checks(self) -> list[CheckResult]: ...
    def _repr_html_(self) -> str: ...

class CompareTable:
    """`awb compare`'s metrics: data is its --format json (metrics.json) document."""
    json: str
    data: dict[str, Any]
    rows: list[dict[str, Any]]
    def to_pandas(self) -> Any:
        """The pooled metrics as a pandas DataFrame, one row per variant."""
    def _repr_html_(self) -> str: ...

def plugins(paths: Paths = ..., isolation: str = ...) -> list[dict[str, Any]]:
    """The loaded plugins with their variants, capabilities and parameters."""

def run(variant: str, x: Union[ArrayLike, Problem], w_q: Optional[ArrayLike] = ...,
        w_k: Optional[ArrayLike] = ..., w_v: Optional[ArrayLike] = ...,
        w_o: Optional[ArrayLike] = ..., heads: int = ..., causal: bool = ...,
        params: Optional[Mapping[str, Any]] = ..., want: Sequence[str] = ...,
        scalar: str = ..., isolation: str = ..., sharpness: float = ...,
        paths: Paths = ...) -> RunResult:
    """Runs a variant on arrays or a Problem; A and S per head, Z, provenance."""

def grade(variant: str, exercise: Optional[Union[str, Sequence[str]]] = ...,
          assignment: Optional[str] = ..., view: str = ..., scalar: str = ...,
          isolation: str = ..., paths: Paths = ..., exercises: Paths = ...) -> GradeReport:
    """Grades a variant as `awb grade` does."""

def bench(variant: str, T: Union[int, Sequence[int]] = ..., d: int = ..., heads: int = ...,
          causal: bool = ..., scalar: str = ..., want: Sequence[str] = ..., w_o: bool = ...,
          params: Optional[Mapping[str, Any]] = ..., reps: int = ..., max_seconds: float = ...,
          threads: int = ..., budget_gib: float = ..., isolation: str = ...,
          paths: Paths = ..., backward: bool = ...,
          kv_heads: Optional[int] = ...) -> list[dict[str, Any]]:
    """Times a variant per sequence length with `awb bench`'s statistics, one dict per point."""

def compare(variants: Union[str, Sequence[str]], problem: Problem, scalar: str = ...,
            head: Optional[int] = ..., top_k: int = ..., isolation: str = ...,
            paths: Paths = ...) -> CompareTable:
    """Compares variants against the reference as `awb compare` does."""

def page(variants: Union[str, Sequence[str]], exercise: Union["Exercise", str, PathLike],
         case: Optional[str] = ..., reference: bool = ..., scalar: str = ...,
         isolation: str = ..., paths: Paths = ..., exercises: Paths = ...) -> Page:
    """The teaching page of an exercise for variants beside the reference, as `awb page` writes it."""
