"""torch_peer.py: `awb bench --peer torch`'s driver: times awb's bench points in PyTorch.

usage: torch_peer.py REQUEST.json RESULT.json

awb writes the request (the repetition rule, the threads and every point's shape and op) and
reads the result back: torch's version and settings, and for each point what torch ran and the
median of its timed calls in seconds, or why it could not. Progress goes to stderr; nothing is
written to stdout. When `import torch` fails the result says why ("skipped") and the exit code
is 0: the bench goes on without its peer.

The points' ops, each the same work as awb's point:
  parameter-free   Z = softmax(X Xᵀ / sqrt(d)) X, X of T × d, one head
  multi-head       Q/K/V = X W_q/k/v (E = heads · d, bias off), per head softmax(Q Kᵀ / sqrt(d)) V,
                   the heads concatenated and, when the point gives W_o, times W_o (E × E)
  grouped          (kv_heads < heads) K and V projected to kv_heads · d columns and each key/value
                   head repeated for its heads / kv_heads consecutive query heads
                   (repeat_interleave, as PyTorch models of grouped-query attention do), then as
                   multi-head
A causal point adds -inf above the diagonal to the scores before the softmax, as torch's own
multi-head attention applies a float mask. A batched point (batch B) runs the B sequences in one
call, X of B × T × width, the weights shared; with lengths, sequence b's keys past its length are
masked (torch's key_padding_mask where its multi-head attention runs, -inf added to the scores
otherwise). Torch computes every padded row and key as users of its attention do; awb skips them. A backward point times the forward and then the
backward of a random dZ (loss = sum(Z * dZ)), the gradients of X and of every weight.
"""
import ctypes
import json
import math
import os
import re
import sys
import time


def order_statistic_interval(samples, level=0.95):
    """The distribution-free interval of the median (awb's statistics.cpp, the same rule)."""
    s = sorted(samples)
    n = len(s)
    median = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])

    def p(i):  # Binomial(n, 1/2) at i
        return math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                        - n * math.log(2))

    k, tail = 1, p(0)
    while k < (n + 1) // 2:
        nxt = tail + p(k)
        if 1 - 2 * nxt < level:
            break
        tail, k = nxt, k + 1
    coverage = 0 if n == 1 else 1 - 2 * tail
    low, high = s[k - 1], s[n - k]
    half = max(median - low, high - median) / median if median > 0 else 0
    return median, coverage, half


def enough(rule, times, elapsed):
    """awb bench's repetition rule (bench.cpp's enough_calls)."""
    n = len(times)
    if rule["reps"] > 0:
        return n >= rule["reps"]
    if n < max(1, rule["min_reps"]):
        return False
    if n >= rule["max_reps"] or elapsed >= rule["max_seconds"]:
        return True
    _, coverage, half = order_statistic_interval(times)
    return coverage >= 0.95 and half <= rule["target"]


def masked_scores(torch, q, kt, mask):
    """q · kt plus the additive mask: none, the causal (T, T) one (torch.baddbmm, one op, as
    multi_head_attention_forward adds it) or one per sequence (broadcast over heads)."""
    if mask is None:
        return torch.matmul(q, kt)
    if mask.dim() == 2:
        T = q.shape[-2]
        s = torch.baddbmm(mask, q.reshape(-1, T, q.shape[-1]), kt.reshape(-1, kt.shape[-2], T))
        return s.reshape(*q.shape[:-1], T)
    return torch.matmul(q, kt) + mask


class Point:
    """One point's tensors (random, filled once) and its timed call."""

    def __init__(self, torch, p):
        self.torch = torch
        F = torch.nn.functional
        dtype = torch.float64 if p["scalar"] == "f64" else torch.float32
        T, d, h = p["tokens"], p["d"], p["heads"]
        B, lengths = p.get("batch", 1), p.get("lengths")
        gen = torch.Generator().manual_seed(20261129)

        def uniform(*shape, scale=1.0):
            return ((torch.rand(*shape, generator=gen, dtype=dtype) * 2 - 1) * scale)

        self.backward = p["backward"]
        self.mask = None
        if p["causal"]:
            # A float mask added to the scores, as torch's multi-head attention applies one.
            self.mask = torch.full((T, T), float("-inf"), dtype=dtype).triu_(1)
        # Padding: the keys past each sequence's length, as a key_padding_mask (B × T, True where
        # masked) and as -inf added to each sequence's scores (B × 1 × 1 × T over the heads).
        self.key_padding = None
        self.mask_by_sequence = self.mask
        if lengths is not None:
            self.key_padding = torch.arange(T).unsqueeze(0) >= torch.tensor(lengths).unsqueeze(1)
            pad = torch.zeros(B, 1, 1, T, dtype=dtype).masked_fill_(
                self.key_padding.view(B, 1, 1, T), float("-inf"))
            self.mask_by_sequence = pad if self.mask is None else pad + self.mask
        shape = f"batch {B} of T={T}" + (f", lengths {lengths}" if lengths is not None else "")
        want_a = p.get("want_a", False)
        self.leaves = []
        if p["op"] == "parameter-free":
            self.x = uniform(B, T, d)
            self.leaves = [self.x]
            factor = 1.0 / math.sqrt(d)
            mask = self.mask_by_sequence
            if mask is not None and mask.dim() == 4:
                mask = mask.squeeze(1)  # B × 1 × T or B × T × T: one head

            def forward():
                x = self.x
                s = masked_scores(torch, x * factor, x.transpose(-2, -1), mask)
                return torch.matmul(torch.softmax(s, dim=-1), x)

            masks = (" + causal" if self.mask is not None else "") + (
                " + padding" if lengths is not None else "")
            self.what = (f"softmax(X Xt / sqrt(d){masks + ' float mask' if masks else ''}) X "
                         f"(torch.matmul, torch.softmax, torch.matmul)")
        elif p.get("kv_heads", h) < h:
            self.grouped(torch, p, uniform)
            forward = self.forward
        else:
            E = h * d
            self.x = uniform(B, T, E)
            self.w_in = uniform(3 * E, E, scale=1 / math.sqrt(E))  # W_q, W_k, W_v stacked
            self.leaves = [self.x, self.w_in]
            self.w_o = None
            if p["w_o"]:
                self.w_o = uniform(E, E, scale=1 / math.sqrt(E))
                self.leaves.append(self.w_o)
            fused = (not self.backward and self.w_o is not None and self.mask is None
                     and not want_a and hasattr(torch, "_native_multi_head_attention"))
            if fused:
                # Inference as nn.MultiheadAttention's fast path runs it. Torch 1.13's fused op
                # needs bias tensors: zeros, which add T x 4E additions and change nothing.
                zero_in = torch.zeros(3 * E, dtype=dtype)
                zero_out = torch.zeros(E, dtype=dtype)
                # nn.MultiheadAttention passes a key_padding_mask to it as mask type 1.
                kpm, kind = (None, None) if self.key_padding is None else (self.key_padding, 1)

                def forward():
                    return torch._native_multi_head_attention(
                        self.x, self.x, self.x, E, h, self.w_in, zero_in, self.w_o, zero_out, kpm,
                        False, True, kind)[0]

                self.what = (f"torch._native_multi_head_attention (nn.MultiheadAttention's "
                             f"inference fast path), E={E}, heads={h}, W_o {E}x{E}, zero biases"
                             + (", key_padding_mask" if kpm is not None else ""))
            elif self.w_o is not None:
                def forward():
                    x = self.x.transpose(0, 1)  # T × B × E, the functional form's batched layout
                    return F.multi_head_attention_forward(
                        x, x, x, E, h, self.w_in, None, None, None, False, 0.0, self.w_o, None,
                        training=self.backward, key_padding_mask=self.key_padding,
                        need_weights=want_a, attn_mask=self.mask, average_attn_weights=False)[0]

                self.what = (f"torch.nn.functional.multi_head_attention_forward, E={E}, "
                             f"heads={h}, bias off, W_o {E}x{E}"
                             + (", causal float mask" if self.mask is not None else "")
                             + (", key_padding_mask" if self.key_padding is not None else "")
                             + (", weights returned" if want_a else ""))
            else:
                scale = 1.0 / math.sqrt(d)

                def forward():
                    # The steps of multi_head_attention_forward, without the out-projection.
                    q, k, v = F.linear(self.x, self.w_in).chunk(3, dim=-1)
                    q = q.reshape(B, T, h, d).transpose(1, 2) * scale
                    k = k.reshape(B, T, h, d).transpose(1, 2)
                    v = v.reshape(B, T, h, d).transpose(1, 2)
                    s = masked_scores(torch, q, k.transpose(-2, -1), self.mask_by_sequence)
                    z = torch.matmul(torch.softmax(s, dim=-1), v)
                    return z.transpose(1, 2).reshape(B, T, E)

                self.what = (f"multi_head_attention_forward's steps, no out-projection (F.linear, "
                             f"torch.matmul, torch.softmax, torch.matmul), E={E}, heads={h}, "
                             f"bias off" + (", causal float mask" if self.mask is not None else "")
                             + (", padding float mask" if lengths is not None else ""))
        self.forward = forward
        self.what += f"; {shape}" if B > 1 or lengths is not None else ""
        if self.backward:
            for t in self.leaves:
                t.requires_grad_(True)
            with torch.no_grad():
                self.dz = uniform(*self.forward().shape)
            self.what += "; forward + backward of a random dZ, gradients of X and every weight"
        else:
            self.what += "; forward under torch.inference_mode()"

    def grouped(self, torch, p, uniform):
        """Grouped-query attention by hand: torch 1.13's multi-head attention has no key/value
        heads of its own, so K and V are projected narrow and repeated per query head."""
        F = torch.nn.functional
        T, d, h, g = p["tokens"], p["d"], p["heads"], p["kv_heads"]
        B = p.get("batch", 1)
        E, group, scale = h * d, h // g, 1.0 / math.sqrt(d)
        self.x = uniform(B, T, E)
        self.w_in = uniform(E + 2 * g * d, E, scale=1 / math.sqrt(E))  # W_q, W_k, W_v stacked
        self.leaves = [self.x, self.w_in]
        self.w_o = None
        if p["w_o"]:
            self.w_o = uniform(E, E, scale=1 / math.sqrt(E))
            self.leaves.append(self.w_o)

        def forward():
            q, k, v = F.linear(self.x, self.w_in).split([E, g * d, g * d], dim=-1)
            q = q.reshape(B, T, h, d).transpose(1, 2) * scale
            k = k.reshape(B, T, g, d).transpose(1, 2).repeat_interleave(group, dim=1)
            v = v.reshape(B, T, g, d).transpose(1, 2).repeat_interleave(group, dim=1)
            s = masked_scores(torch, q, k.transpose(-2, -1), self.mask_by_sequence)
            a = torch.softmax(s, dim=-1)
            z = torch.matmul(a, v).transpose(1, 2).reshape(B, T, E)
            return z if self.w_o is None else F.linear(z, self.w_o)

        self.forward = forward
        self.what = (f"grouped-query attention by hand (F.linear, repeat_interleave of the {g} "
                     f"key/value heads to {h}, torch.matmul, torch.softmax, torch.matmul"
                     + (", F.linear for W_o" if self.w_o is not None else "")
                     + f"), E={E}, bias off"
                     + (", causal float mask" if self.mask is not None else "")
                     + (", padding float mask" if p.get("lengths") is not None else ""))

    def call(self):
        if not self.backward:
            with self.torch.inference_mode():
                self.forward()
            return
        for t in self.leaves:
            t.grad = None  # written afresh each step, as awb writes its gradients
        z = self.forward()
        # The gradient of loss = sum(Z * dZ) with respect to Z is dZ.
        self.torch.autograd.backward(z, self.dz)


def time_point(torch, p, rule):
    point = Point(torch, p)
    point.call()  # a first call, untimed: allocations and the first touch of pages
    for _ in range(rule["warmup"]):
        point.call()
    times = []
    start = time.perf_counter()
    while not enough(rule, times, time.perf_counter() - start):
        t0 = time.perf_counter()
        point.call()
        times.append(time.perf_counter() - t0)
    median, _, _ = order_statistic_interval(times)
    return {"op": point.what, "median_s": median, "samples_s": times, "n": len(times)}


def blas_library(torch, threads):
    """The BLAS torch's matrix products run in, as loaded. Debian's torch calls the system's BLAS
    (OpenBLAS where it is installed), whose threads torch.set_num_threads does not set: they are
    set here to the point's count too."""
    a = torch.ones(64, 64)
    torch.mm(a, a)  # loads the library if it is loaded lazily
    with open("/proc/self/maps") as f:
        paths = sorted({line.split()[-1] for line in f if line.rstrip().endswith(".so")
                        or ".so." in line.split()[-1]})
    for path in paths:
        name = os.path.basename(path)
        if name.startswith("libopenblas"):
            lib = ctypes.CDLL(path)
            lib.openblas_set_num_threads(threads)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            core = lib.openblas_get_corename().decode()
            return f"OpenBLAS {name} (kernels {core}, {lib.openblas_get_num_threads()} threads)"
    for path in paths:
        name = os.path.basename(path)
        if "mkl" in name or "blas" in name:
            return name
    return "unknown"


def settings(torch, rq):
    show = torch.__config__.show()

    def build_setting(name):
        found = re.search(r"\b" + name + r"=([^,\s]*)", show)
        return found.group(1) if found else "unknown"

    capability = "unknown"
    for line in show.splitlines():
        if "CPU capability usage:" in line:
            capability = line.split(":", 1)[1].strip()
    backend = "unknown"
    for line in torch.__config__.parallel_info().splitlines():
        if line.startswith("ATen parallel backend:"):
            backend = line.split(":", 1)[1].strip()
    return {
        "version": torch.__version__,
        "threads": torch.get_num_threads(),
        "interop_threads": torch.get_num_interop_threads(),
        "parallel_backend": backend,
        "cpu_capability": capability,
        "blas": blas_library(torch, rq["threads"]) + "; torch built with BLAS_INFO="
                + build_setting("BLAS_INFO"),
        "mkldnn": bool(torch.backends.mkldnn.is_available()),
        "grad_mode": "forward points under torch.inference_mode(); fwd+bwd points with autograd",
        "timing": "a first call and the warm-up untimed, then awb bench's repetition rule; "
                  "time.perf_counter() around each call",
    }


def main():
    with open(sys.argv[1]) as f:
        rq = json.load(f)
    out = {}
    # Read by OpenBLAS as it loads: the point's threads, not every core.
    os.environ["OPENBLAS_NUM_THREADS"] = str(rq["threads"])
    try:
        import torch
    except Exception as e:  # ImportError, or a broken install's own error
        out["skipped"] = str(e) if isinstance(e, ImportError) else f"{type(e).__name__}: {e}"
    else:
        torch.set_num_threads(rq["threads"])
        out.update(settings(torch, rq))
        out["points"] = []
        for i, p in enumerate(rq["points"]):
            print(f"torch peer [{i + 1}/{len(rq['points'])}] {p['op']} {p['scalar']} "
                  f"T={p['tokens']} d={p['d']} h={p['heads']}"
                  f"{' causal' if p['causal'] else ''}{' W_o' if p.get('w_o') else ''}"
                  f"{' fwd+bwd' if p['backward'] else ''} ... ", end="", file=sys.stderr,
                  flush=True)
            try:
                r = time_point(torch, p, rq["rule"])
                print(f"{r['median_s'] * 1e3:.4f} ms (n={r['n']})", file=sys.stderr, flush=True)
            except Exception as e:  # out of memory, an op this torch lacks: that point only
                r = {"error": f"{type(e).__name__}: {e}"}
                print(r["error"], file=sys.stderr, flush=True)
            r["id"] = p["id"]
            out["points"].append(r)
    with open(sys.argv[2], "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
