#!/usr/bin/env python3
"""A variant's attention on activations given as NumPy arrays, compared with two bundled
variants, plotted where matplotlib is installed.

Q and K here are random stand-ins for a model's: with a real model, take its query and key
activations of one layer (T x d_k each) instead. Run it from a build tree with
PYTHONPATH=<build>/python, or after installing awb.
"""

import numpy as np

import awb

rng = np.random.default_rng(0)
tokens = ["the", "animal", "did", "not", "cross", "the", "road"]
T, d_k = len(tokens), 8
q = rng.normal(size=(T, d_k))  # a model's queries for one head
k = rng.normal(size=(T, d_k))  # ... and its keys
v = rng.normal(size=(T, d_k))  # ... and its values

# Identity projections on X = [Q K V] pick the three blocks out again, so the variant's
# weights are exactly softmax(Q K^T / sqrt(d_k)) and Z = A V.
x = np.concatenate([q, k, v], axis=1)
eye = np.eye(3 * d_k)
problem = awb.Problem(x, w_q=eye[:, :d_k], w_k=eye[:, d_k:2 * d_k], w_v=eye[:, 2 * d_k:],
                      tokens=tokens, causal=True)

result = awb.run("qkv", problem)
print(result)
print("weights A, head 0 (rows sum to 1):")
print(np.array2string(result.A[0], precision=3, suppress_small=True))
print("context vectors Z:", result.Z.shape)
by_hand = np.exp(q @ k.T / np.sqrt(d_k) + np.triu(np.full((T, T), -np.inf), 1))
by_hand /= by_hand.sum(axis=1, keepdims=True)
print("largest difference from softmax(QK^T/sqrt(d_k)) with the causal mask: %.2e"
      % np.abs(result.A[0] - by_hand).max())

table = awb.compare(["qkv", "sliding-window", "linear"], problem)
print("\nagainst the reference (pooled over heads):")
print("%-22s %12s %12s %10s %8s" % ("variant", "max |dA|", "JS mean", "entropy", "argmax"))
for row in table.rows:
    m = row["pooled"]
    print("%-22s %12.3g %12.3g %10.3f %8.2f" % (row["variant"], m["max_abs_diff"], m["js_mean"],
                                                 m["entropy"], m["argmax_agreement"]))

try:
    import matplotlib.pyplot as plt
except ImportError:
    print("\nmatplotlib is not installed: no plot")
else:
    fig, axes = plt.subplots(1, 3, figsize=(12, 4))
    for ax, variant in zip(axes, ["qkv", "sliding-window", "linear"]):
        weights = awb.run(variant, problem).A[0]
        ax.imshow(weights, vmin=0, vmax=1, cmap="Blues")
        ax.set_title(variant)
        ax.set_xticks(range(T), tokens, rotation=90)
        ax.set_yticks(range(T), tokens)
    fig.tight_layout()
    fig.savefig("attention_from_numpy.png")
    print("\nwrote attention_from_numpy.png")
