#!/usr/bin/env python3
# make_inputs.py: writes the worst exercise files the loader accepts and the hostile ones it must
# refuse cheaply, for the memory-bound test (memory_bound.sh) and for measuring by hand.
import sys
from pathlib import Path

HEAD = 'awb-exercise: 1\nid: {id}\ntitle: "Worst case"\nvariant: {{kind: parameter-free}}\n'
CHECK = "checks:\n  - {id: rows, kind: property, property: rows_sum_to_one}\n"


def worst_values(tokens=4096, d_model=510):
    """Inline numbers up to the 2,097,152-value cap: 4096 tokens x 510 columns."""
    row = "  - [" + ",".join(["0"] * d_model) + "]\n"
    return (HEAD.format(id="worst-values") + "tokens: [" + ",".join(["a"] * tokens) + "]\n" +
            "embeddings:\n" + row * tokens + CHECK)


def worst_nodes(tokens=4096, d_model=573):
    """Just under the node cap (2,359,296): the largest tree the pre-scan lets yaml-cpp build.
    The reader then refuses it (over the value cap), but only after the tree exists."""
    row = "  - [" + ",".join(["0"] * d_model) + "]\n"
    return (HEAD.format(id="worst-nodes") + "tokens: [" + ",".join(["a"] * tokens) + "]\n" +
            "embeddings:\n" + row * tokens + CHECK)


def hostile_scalars(size=(8 << 20) - 4096):
    """Just under the 8 MiB file cap, made of one-character numbers: about 4 million scalars."""
    head = HEAD.format(id="hostile-scalars") + "tokens: [a]\nembeddings:\n  - ["
    n = (size - len(head) - len(CHECK) - 3) // 2
    return head + ",".join(["0"] * n) + "]\n" + CHECK


def hostile_tokens(n=1_000_000):
    """10^6 one-letter tokens (2 MB): over the 4096-token cap."""
    return (HEAD.format(id="hostile-tokens") + "tokens: [" + ",".join(["a"] * n) + "]\n" +
            "embeddings: {generate: {seed: 1, d_model: 2}}\n" + CHECK)


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    (out / "worst-values.yaml").write_text(worst_values())
    (out / "worst-nodes.yaml").write_text(worst_nodes())
    (out / "hostile-scalars.yaml").write_text(hostile_scalars())
    (out / "hostile-tokens.yaml").write_text(hostile_tokens())
