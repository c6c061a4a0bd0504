"""Dev (session 67): how a backend's time grows with the row count at one width, to split a many-wave cell such as
4096x8K into a per-row cost (the slope) and a fixed cost (the intercept: launch, the first wave's fill and the last
wave's drain). If the fixed cost is large, the cell's gap to its bar is in the ends of the launch, not in the rows.

Timed like ``topk bench`` (CUDA-graph replay over rotating inputs, seq_lens uniform in [N/2, N]; ``full`` in argv:
every row N columns), the first input set checked exact. Prints one line per row count and a least-squares line.
Usage (device): bash shared/device/run.sh python3 shared/device/rows_scan.py [backend] [n] [rows,...] [full]
(backend ``radix_filter:<PLANNED name>``: that variant at every row count, launched directly)
"""

from __future__ import annotations

import sys

import torch

import topk_core
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph
from topk_core.protocol import Call
from topk_core.testing import check_topk


def full_rows(inputs, n: int) -> None:
    """Every row of every input set ``n`` columns long (``make_inputs`` draws seq_lens in [N/2, N])."""
    for s, ln in zip(inputs.seq_lens, inputs.lengths):
        s.fill_(n)
        ln.fill_(n)


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "full"]
    backend = args[0] if args else "radix_filter"
    n = int(args[1]) if len(args) > 1 else 8192
    counts = [int(r) for r in args[2].split(",")] if len(args) > 2 else [132, 264, 792, 1584, 2376, 3168, 3960,
                                                                        4096, 4752, 5544]
    full = "full" in sys.argv
    variant = None
    if backend.startswith("radix_filter:"):  # e.g. radix_filter:SHORT_MANY
        from topk_radix_filter import launch as rf_launch

        variant = rf_launch.PLANNED[backend.split(":", 1)[1]]
    points = []
    with torch.cuda.stream(torch.cuda.Stream()):
        for rows in counts:
            shape = Shape(rows, n)
            count = rotations(shape.nbytes)
            inputs = make_inputs(shape, count, "cuda")
            if full:
                full_rows(inputs, n)
            out = torch.empty(rows, shape.k, dtype=torch.int32, device="cuda")

            def step(i, inputs=inputs, out=out, shape=shape):
                if variant is None:
                    topk_core.top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, out_indices=out,
                                           backend=backend)
                else:  # one radix_filter variant at every row count (plan() would switch variants)
                    rf_launch.launch(Call(logits=inputs.logits[i], seq_lens=inputs.seq_lens[i], top_k=shape.k,
                                          indices=out), variant=variant)

            for i in range(count):
                step(i)
                if i == 0:  # exact first (the other sets only warm the graph's inputs)
                    torch.cuda.synchronize()
                    check_topk(inputs.logits[i], inputs.seq_lens[i], shape.k, out)
            us = time_graph(step, count, 20)
            points.append((rows, us))
            print(f"rows_scan {backend} {rows}x{n}{' full' if full else ''}: {us:.2f} us "
                  f"({1000 * us / rows:.2f} ns a row)", flush=True)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in points) / max(sum((x - mx) ** 2 for x in xs), 1e-9)
    print(f"rows_scan fit: {my - slope * mx:.2f} us + {1000 * slope:.2f} ns a row", flush=True)


if __name__ == "__main__":
    main()
