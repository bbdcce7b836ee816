"""awb.run against a NumPy implementation of the reference's mathematics, and against `awb run`."""

import json
import subprocess

import pytest

# Without NumPy there is no module to test: each file says so and is skipped, nothing else.
np = pytest.importorskip("numpy", reason="this python3 has no NumPy (python3-numpy)")
import awb  # noqa: E402  (after the NumPy check)


def visible(T, t, causal, window):
    """Keys query t may attend to (the reference's band): first..last inclusive."""
    first = 0 if window is None else max(0, t - window)
    if causal:
        last = t
    elif window is None:
        last = T - 1
    else:
        last = min(T - 1, t + window)
    return first, last


def feature(x, relu):
    return np.maximum(x, 0.0) if relu else np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def numpy_attention(x, w_q, w_k, w_v, w_o, heads, causal, sharpness, kind, window=2, relu=False):
    """Scores S, weights A per head and Z, as graders/reference computes them: heads are column
    blocks of W_q, W_k, W_v; scale 1/sqrt(d_k) with projections (none without); S is the exact
    softmax input (scale and sharpness, before the mask); masked weights are exactly 0; Z is the
    heads side by side times W_o when there is one."""
    T = x.shape[0]
    if w_q is None:
        q = k = v = x
        heads, scale = 1, 1.0
    else:
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        scale = 1.0 / np.sqrt(w_q.shape[1] // heads)
    dk, dv = q.shape[1] // heads, v.shape[1] // heads
    factor = scale * sharpness
    S, A, outs = [], [], []
    for h in range(heads):
        qh, kh = q[:, h * dk:(h + 1) * dk], k[:, h * dk:(h + 1) * dk]
        vh = v[:, h * dv:(h + 1) * dv]
        if kind == "linear":
            s = feature(factor * qh, relu) @ feature(kh, relu).T
        else:
            s = factor * (qh @ kh.T)
        a = np.zeros((T, T))
        for t in range(T):
            first, last = visible(T, t, causal, window if kind == "sliding-window" else None)
            row = s[t, first:last + 1]
            if kind == "linear":
                a[t, first:last + 1] = row / (row.sum() + 1e-6)
            else:
                e = np.exp(row - row.max())
                a[t, first:last + 1] = e / e.sum()
        S.append(s)
        A.append(a)
        outs.append(a @ vh)
    z = np.concatenate(outs, axis=1)
    return S, A, (z @ w_o if w_o is not None else z)


def bundled_variants():
    out = []
    for plugin in awb.plugins():
        if plugin["bundled"]:
            out += [(plugin["id"], v) for v in plugin["variants"]]
    return out


def kind_of(variant):
    names = {p["name"] for p in variant["params"]}
    if "window" in names:
        return "sliding-window"
    if "feature_map" in names:
        return "linear"
    return "softmax"


def bundled_cases():
    """Every bundled variant, causal and not where it can be either."""
    cases = []
    for plugin_id, variant in bundled_variants():
        caps = set(variant["capabilities"])
        masks = [True] if "causal-only" in caps else [False, True] if "causal" in caps else [False]
        cases += [(plugin_id, variant, causal) for causal in masks]
    return cases


@pytest.mark.parametrize("plugin_id,variant,causal", bundled_cases(),
                         ids=[v["id"] + ("-causal" if c else "") for _, v, c in bundled_cases()])
def test_every_bundled_variant_equals_numpy(plugin_id, variant, causal):
    rng = np.random.default_rng(7)
    caps = set(variant["capabilities"])
    T, d = 7, 6
    heads = 2 if "multi-head" in caps else 1
    x = rng.normal(size=(T, d))
    w = {}
    if "qkv" in caps:
        w = {"w_q": rng.normal(size=(d, 4 * heads)), "w_k": rng.normal(size=(d, 4 * heads)),
             "w_v": rng.normal(size=(d, 3 * heads))}
        if "output-projection" in caps:
            w["w_o"] = rng.normal(size=(3 * heads, 5))
    kind = kind_of(variant)
    params = {"window": 2} if kind == "sliding-window" else {}
    r = awb.run(plugin_id + ":" + variant["id"], x, heads=heads, causal=causal, sharpness=1.5,
                params=params, **w)
    assert r.notes == []
    assert r.provenance["lockdown"] == "in-process"
    assert len(r.provenance["plugin_sha256"]) == 64
    S, A, Z = numpy_attention(x, w.get("w_q"), w.get("w_k"), w.get("w_v"), w.get("w_o"), heads,
                              causal, 1.5, kind, window=2)
    assert len(r.A) == len(r.S) == heads
    for h in range(heads):
        np.testing.assert_allclose(r.S[h], S[h], rtol=0, atol=1e-12)
        np.testing.assert_allclose(r.A[h], A[h], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.Z, Z, rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant,causal", [("multi-head", False), ("multi-head", True),
                                            ("causal", True), ("sliding-window", False)])
def test_grouped_query_equals_numpy_with_each_key_value_head_repeated(variant, causal):
    """Four query heads over two key/value heads: query head h reads key/value head h // 2, so
    the answer is ordinary multi-head attention with W_k's and W_v's blocks repeated. A variant
    without grouped-kv (sliding-window) is given exactly that, and says so."""
    rng = np.random.default_rng(11)
    T, d, heads, kv, dk, dv = 9, 6, 4, 2, 3, 2
    x = rng.normal(size=(T, d))
    w_q, w_k = rng.normal(size=(d, heads * dk)), rng.normal(size=(d, kv * dk))
    w_v, w_o = rng.normal(size=(d, kv * dv)), rng.normal(size=(heads * dv, 5))

    def repeated(w, width):
        group = heads // kv
        return np.concatenate([w[:, h // group * width:(h // group + 1) * width]
                               for h in range(heads)], axis=1)

    params = {"window": 100} if variant == "sliding-window" else {}
    problem = awb.Problem(x, w_q, w_k, w_v, w_o, heads=heads, causal=causal, kv_heads=kv,
                          params=params)
    assert (problem.heads, problem.kv_heads) == (heads, kv)
    r = awb.run(variant, problem)
    if variant == "sliding-window":
        assert any("lacks grouped-kv" in n for n in r.notes)
    else:
        assert r.notes == []
    kind = "sliding-window" if variant == "sliding-window" else "softmax"
    S, A, Z = numpy_attention(x, w_q, repeated(w_k, dk), repeated(w_v, dv), w_o, heads, causal,
                              1.0, kind, window=100)
    for h in range(heads):
        np.testing.assert_allclose(r.S[h], S[h], rtol=0, atol=1e-12)
        np.testing.assert_allclose(r.A[h], A[h], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.Z, Z, rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant,causal", [("multi-head", False), ("causal", True),
                                            ("parameter-free", False)])
def test_padded_batch_equals_numpy_on_each_sequence(variant, causal):
    """Three sequences of 7 tokens with 7, 4 and 1 real ones: each sequence's real tokens give
    NumPy's attention on them alone, and the padding's rows of Z and rows and columns of A and
    S are 0. A and S have one plane per sequence and head."""
    rng = np.random.default_rng(12)
    T, d, heads, lengths = 7, 6, 2, [7, 4, 1]
    x = rng.normal(size=(3 * T, d))
    weights = {}
    if variant != "parameter-free":
        weights = {n: rng.normal(size=(d, heads * 3)) for n in ("w_q", "w_k", "w_v")}
        weights["w_o"] = rng.normal(size=(heads * 3, 5))
    h = heads if weights else 1
    problem = awb.Problem(x, heads=h, causal=causal, batch=3, lengths=lengths, **weights)
    assert (problem.batch, problem.lengths) == (3, lengths)
    r = awb.run(variant, problem)
    assert len(r.A) == 3 * h and r.A[0].shape == (T, T) and r.Z.shape[0] == 3 * T
    for b, n in enumerate(lengths):
        rows = slice(b * T, b * T + n)
        S, A, Z = numpy_attention(x[rows], weights.get("w_q"), weights.get("w_k"),
                                  weights.get("w_v"), weights.get("w_o"), h, causal, 1.0,
                                  "softmax")
        for j in range(h):
            plane = b * h + j
            np.testing.assert_allclose(r.A[plane][:n, :n], A[j], rtol=0, atol=1e-12)
            np.testing.assert_allclose(r.S[plane][:n, :n], S[j], rtol=0, atol=1e-12)
            assert not r.A[plane][n:, :].any() and not r.A[plane][:, n:].any()
            assert not r.S[plane][n:, :].any() and not r.S[plane][:, n:].any()
        np.testing.assert_allclose(r.Z[rows], Z, rtol=0, atol=1e-12)
        assert not r.Z[b * T + n:(b + 1) * T].any()


def test_linear_relu_feature_map_equals_numpy():
    rng = np.random.default_rng(11)
    x = rng.normal(size=(6, 4))
    w = {n: rng.normal(size=(4, 4)) for n in ("w_q", "w_k", "w_v")}
    r = awb.run("linear", x, params={"feature_map": "relu"}, **w)
    S, A, Z = numpy_attention(x, w["w_q"], w["w_k"], w["w_v"], None, 1, False, 1.0, "linear",
                              relu=True)
    np.testing.assert_allclose(r.A[0], A[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.Z, Z, rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant", ["qkv", "multi-head", "parameter-free"])
def test_journey_equals_awb_run(awb_cli, variant):
    cli = subprocess.run([awb_cli, "run", "--example", "journey", "--variant", variant,
                          "--format", "json"], capture_output=True, text=True, check=True)
    expected = json.loads(cli.stdout)["runs"][0]
    r = awb.run(variant, awb.Problem.example("journey"))
    assert r.tokens == expected["layers"][0]["tokens"]
    assert len(r.layers) == len(expected["layers"])
    for layer, want in zip(r.layers, expected["layers"]):
        np.testing.assert_array_equal(layer.Z, np.array(want["z"]))
        assert len(layer.A) == len(want["weights"])
        for got, plane in zip(layer.A, want["weights"]):
            np.testing.assert_array_equal(got, np.array(plane))
        for got, plane in zip(layer.S, want["scores"]):
            np.testing.assert_array_equal(got, np.array(plane))
    notes = expected.get("notes", [])
    assert r.notes == notes


def test_exercise_case_runs_as_awb_run_exercise(awb_cli):
    exercise = awb.Exercise.load("river-bank")
    assert exercise.id == "river-bank" and exercise.checks and exercise.max_points > 0
    by_file = awb.Exercise.load(exercise.file)
    assert by_file.sha256 == exercise.sha256
    cli = subprocess.run([awb_cli, "run", "--exercise", "river-bank", "--variant", "qkv",
                          "--format", "json"], capture_output=True, text=True, check=True)
    expected = json.loads(cli.stdout)["runs"][0]["layers"][-1]
    r = awb.run("qkv", exercise.problem())
    assert r.tokens == expected["tokens"]
    np.testing.assert_array_equal(r.Z, np.array(expected["z"]))


def test_want_leaves_out_what_is_not_asked():
    r = awb.run("qkv", awb.Problem.example("journey"), want=("Z",))
    assert r.A == [] and r.S == []
    assert r.Z.shape[0] == len(r.tokens)


def test_large_f32_run_hands_arrays_over_without_copying():
    import resource
    import time
    rng = np.random.default_rng(3)
    T, d = 4096, 64
    x = rng.normal(size=(T, d)).astype(np.float32)
    w = {n: (rng.normal(size=(d, d)) / 8).astype(np.float32) for n in ("w_q", "w_k", "w_v")}
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    r = awb.run("qkv", x, scalar="f32", **w)
    seconds = time.perf_counter() - start
    peak_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    plane_mb = T * T * 8 / 2**20
    print("4096x64 f32 qkv: %.2f s, peak resident set grew %.0f MB (A and S are %.0f MB each "
          "in float64)" % (seconds, peak_mb, plane_mb))
    for array in (r.A[0], r.S[0], r.Z):
        # Each array views the core's result storage: NumPy did not copy it (owndata is False and
        # its base is the capsule holding the core's vector).
        assert not array.flags.owndata
        assert type(array.base).__name__ == "PyCapsule"
        assert array.flags.c_contiguous and array.dtype == np.float64
    # The core's f32 buffers (A and S, 64 MB each) and its float64 results (128 MB each) are
    # all that may grow the process; a copy of A and S on the way to NumPy would add 256 MB.
    assert peak_mb < 4 * plane_mb
    assert r.A[0].shape == (T, T)
    np.testing.assert_allclose(r.A[0].sum(axis=1), 1.0, atol=1e-4)


def test_repr_html_shows_tokens_and_values():
    r = awb.run("qkv", awb.Problem.example("journey"))
    page = r._repr_html_()
    for token in r.tokens:
        assert ">%s</th>" % token in page
    assert "%.4f" % r.A[0][0, 0] in page
    assert "colour: 0 white to 1 blue" in page
    assert "<script" not in page
