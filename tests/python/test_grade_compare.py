"""awb.compare against `awb compare`'s metrics.json, awb.grade on a mutant, and errors."""

import json
import subprocess

import pytest

# Without NumPy there is no module to test: each file says so and is skipped, nothing else.
np = pytest.importorskip("numpy", reason="this python3 has no NumPy (python3-numpy)")
import awb  # noqa: E402  (after the NumPy check)


def test_compare_equals_awb_compare_metrics_json(awb_cli, tmp_path):
    variants = ["qkv", "multi-head", "sliding-window"]
    command = [awb_cli, "compare", "--example", "journey", "--export", str(tmp_path / "out")]
    for v in variants:
        command += ["--variant", v]
    subprocess.run(command, capture_output=True, text=True, check=True)
    expected = json.loads((tmp_path / "out" / "metrics.json").read_text())
    table = awb.compare(variants, awb.Problem.example("journey"))
    got = table.data
    for key in ("source", "scalar", "layer", "layers", "head", "against",
                "top_k", "tokens", "awb_version", "problem_sha256", "weights_requested"):
        assert got[key] == expected[key], key
    assert got["variants"] == expected["variants"]
    assert [r["variant"] for r in table.rows][0] == "qkv"
    page = table._repr_html_()
    assert "sliding-window@window=2" in page and "max_abs_diff" in page


def test_grading_a_mutant_names_its_mistake(build_dir):
    mutant = build_dir / "mutants" / "mutant_no_causal_mask.so"
    plugin = [p for p in awb.plugins(paths=[mutant]) if p["path"].endswith(mutant.name)][0]
    assert plugin["isolation"] != "in-process"
    # The mutant carries the mistake in a variant of each kind it occurs in: the causal one.
    assert "causal" in [v["id"] for v in plugin["variants"]]
    report = awb.grade(plugin["id"] + ":causal", exercise="causal", paths=[mutant])
    assert json.loads(report.json) == report.data
    failed = [c for c in report.checks if c.status == "failed"]
    assert failed, report.json
    words = " ".join(c.summary + " " + c.diagnosis + " " + c.details for c in failed).lower()
    assert "future" in words or "mask" in words, words
    assert report.score < report.max_score
    assert report.exercises[0].provenance["lockdown"] != "in-process"


def test_grade_of_a_bundled_variant_gets_full_marks():
    report = awb.grade("qkv", exercise="river-bank")
    assert report.score == report.max_score > 0
    assert all(c.status in ("passed", "not-run") for c in report.checks)


def test_a_crashing_plugin_raises_plugin_error_and_python_lives_on(build_dir):
    crash = build_dir / "tests" / "fixtures" / "hostile" / "hostile_null_deref.so"
    plugin = [p for p in awb.plugins(paths=[crash]) if p["path"].endswith(crash.name)][0]
    variant = plugin["id"] + ":" + plugin["variants"][0]["id"]
    x = np.random.default_rng(1).normal(size=(4, 3))
    with pytest.raises(awb.PluginError) as caught:
        awb.run(variant, x, paths=[crash])
    assert caught.value.id.startswith("runner.")
    # The interpreter is alive and the next call works.
    assert awb.run("parameter-free", x).Z.shape == (4, 3)


def test_errors_carry_the_cli_ids():
    with pytest.raises(awb.PluginError) as caught:
        awb.run("no-such-variant", np.eye(3))
    assert caught.value.id == "plugin.variant_not_found" and caught.value.exit_code == 4
    with pytest.raises(awb.UsageError) as caught:
        awb.Problem.example("no-such-example")
    assert caught.value.id == "example.unknown"
    with pytest.raises(awb.Error) as caught:
        awb.run("qkv", np.eye(3), w_q=np.eye(3), w_k=np.eye(2), w_v=np.eye(3))
    assert caught.value.id.startswith("problem.")
    with pytest.raises(awb.CannotRunError) as caught:
        awb.run("qkv", np.eye(3))
    assert caught.value.id == "run.cannot_run"


def test_bench_points_carry_awb_bench_statistics(awb_cli):
    points = awb.bench("qkv", T=[64, 128], d=16, reps=8)
    assert [p["tokens"] for p in points] == [64, 128]
    cli = json.loads(subprocess.run(
        [awb_cli, "bench", "--variant", "qkv", "--tokens", "64", "--dims", "16", "--reps", "8",
         "--format", "json"], capture_output=True, text=True, check=True).stdout)
    cli_point = cli["points"][0]
    for p in points:
        assert p["status"] == "ok" and p["mode"] == "in-process"
        assert p["n"] == 8 and len(p["samples_ms"]) == 8
        assert p["ci_low_ms"] <= p["median_ms"] <= p["ci_high_ms"]
        assert p["min_ms"] <= p["median_ms"] <= p["max_ms"]
        # The same statistics, by the same names, as the CLI's points.
        missing = set(cli_point) - set(p) - {"projections", "d_out", "capabilities", "goal",
                                             "plugin_file", "plugin_sha256"}
        assert not missing, missing
    steps = awb.bench("qkv", T=[64], d=16, reps=2, backward=True)
    assert steps[0]["backward"] is True and steps[0]["status"] == "ok"
    assert points[0]["backward"] is False


def test_bench_batch_costs_each_sequence_at_its_length():
    """awb.bench(batch=, padding=): three sequences of 48 tokens, the last with half padded,
    cost what their real lengths (48, 36, 24) cost one at a time."""
    single = {p["tokens"]: p for p in awb.bench("qkv", T=[24, 36, 48], d=16, reps=2)}
    batch = awb.bench("qkv", T=[48], d=16, reps=2, batch=3, padding=0.5)[0]
    assert batch["status"] == "ok" and (batch["batch"], batch["padding"]) == (3, 0.5)
    expected = sum(single[t]["flops"] for t in (48, 36, 24))
    assert abs(batch["flops"] - expected) <= 1e-9 * expected
    with pytest.raises(awb.UsageError):
        awb.bench("qkv", T=[48], batch=0)
