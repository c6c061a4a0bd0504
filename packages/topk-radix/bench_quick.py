"""Dev only: time ``radix`` against torch.topk (masked) on the issue's decode shapes.

CUDA-graph replay of a graph that runs the op over several rotating input
buffers (L2 stays cold), median of several replays, fp32, k=2048, seq_lens
uniform in [N/2, N]. Prints one table. Usage:
python bench_quick.py [--quick] [--bf16] [--next-n] [--long] [--variant=prefix_offsets,...]
(``--variant`` also times the default kernel with those ``launch.VARIANT`` flags on).
"""

from __future__ import annotations

import statistics
import sys
import time

import torch

from topk_core import top_k_varlen
from topk_core.testing import make_seq_lens

SHAPES = [(1, 8192), (1, 32768), (1, 131072), (8, 32768), (8, 131072), (32, 131072),
          (1, 262144), (32, 32768), (128, 32768)]
K = 2048


def masked_topk(logits, seq_lens, k):
    cols = torch.arange(logits.shape[1], device=logits.device)
    masked = logits.masked_fill(cols[None, :] >= seq_lens[:, None], float("-inf"))
    return torch.topk(masked, k, dim=1)


def time_graph(fn, buffers, replays=20):
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for b in buffers:
            fn(*b)  # warm-up: compile + scratch on the capturing stream
    stream.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        for b in buffers:
            fn(*b)
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / len(buffers))
    return statistics.median(times)


def main():
    from topk_radix import launch

    shapes = SHAPES[:3] if "--quick" in sys.argv else SHAPES
    dtype = torch.bfloat16 if "--bf16" in sys.argv else torch.float32
    next_n = 2 if "--next-n" in sys.argv else 1
    if "--long" in sys.argv:
        shapes = [(1, 262144), (1, 524288)] + ([(1, 1 << 20)] if dtype != torch.float32 else [])
    variant = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--variant=")), [])
    compare = bool(variant)
    print(f"radix vs torch.topk (masked), {dtype}, k={K}, next_n={next_n}, graph replay, rotating inputs")
    print(f"{'rows x N':>16} {'radix us':>10} {'alt us':>8} {'torch us':>10} {'speedup':>8}   alt={variant}")
    for rows, n in shapes:
        rows *= next_n
        nbuf = max(2, min(16, (256 << 20) // (rows * n * 4)))
        bufs = []
        for i in range(nbuf):
            x = torch.randn(rows, n, device="cuda", dtype=dtype)
            lens = make_seq_lens(rows // next_n, n, next_n=next_n, seed=i, mode="uniform", device="cuda")
            bufs.append((x, lens))
        out_i = torch.empty(rows, K, dtype=torch.int32, device="cuda")

        def radix(x, lens, out_i=out_i):
            top_k_varlen(x, lens, K, next_n=next_n, out_indices=out_i, backend="radix")

        row_lens = [(torch.div(lens.repeat_interleave(next_n).to(torch.int64) - next_n + 1
                               + torch.arange(rows, device="cuda") % next_n, 1, rounding_mode="floor")
                     .clamp(0, n)) for _, lens in bufs]
        tbufs = [(x, rl) for (x, _), rl in zip(bufs, row_lens)]
        t0 = time.perf_counter()
        default = dict(launch.VARIANT)
        us_radix = time_graph(radix, bufs)
        us_alt = float("nan")
        if compare:  # the variant named by --variant=flag1,flag2 (each turned on)
            launch.VARIANT.update({f: True for f in variant})
            us_alt = time_graph(radix, bufs)
            launch.VARIANT.clear()
            launch.VARIANT.update(default)
        us_torch = time_graph(lambda x, rl: masked_topk(x, rl, K), tbufs)
        print(f"{rows:>6} x {n:<8} {us_radix:>10.2f} {us_alt:>8.2f} {us_torch:>10.2f} {us_torch / us_radix:>7.2f}x"
              f"   ({time.perf_counter() - t0:.1f}s)", flush=True)


if __name__ == "__main__":
    main()
