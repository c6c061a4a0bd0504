"""Dev-only quick benchmark: radix_filter (and its variants) against masked torch.topk.

Method (as the issue asks): fp32 unless noted, k=2048 unless noted, seq_lens uniform
in [N/2, N], one CUDA graph that runs the op over several rotating input buffers
(>= 256 MB of logits in all, so L2 is cold), median over replays, microseconds per call.
The one-read floor is rows * N * itemsize / 4178 GB/s (the H200's measured copy rate).

    python packages/topk-radix-filter/bench_quick.py [--variants] [--shapes dsa|small]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import torch

from topk_core.protocol import Call
from topk_core.testing import make_seq_lens

# rows, N, dtype, k; the best peer on our H200 (min over FlashInfer / SGLang), from the issue.
DSA = [(32, 32768, torch.float32, 2048, 17.0), (32, 131072, torch.float32, 2048, 31.4),
       (128, 32768, torch.float32, 2048, 23.4), (128, 131072, torch.float32, 2048, 64.0),
       (512, 32768, torch.float32, 2048, 79.3), (512, 131072, torch.float32, 2048, 200.9),
       (4096, 8192, torch.float32, 2048, 260.3), (1024, 65536, torch.float32, 2048, 219.2),
       (128, 131072, torch.bfloat16, 2048, 71.9), (128, 131072, torch.float32, 512, 55.3)]
SMALL = [(1, 8192, torch.float32, 2048, 7.9), (1, 131072, torch.float32, 2048, 13.5),
         (8, 131072, torch.float32, 2048, 18.4), (4, 1 << 20, torch.float32, 2048, None)]
COPY_GBPS = 4178.0


def masked_torch(logits, lengths, k):
    cols = torch.arange(logits.shape[1], device=logits.device)
    masked = torch.where(cols[None, :] < lengths[:, None], logits, float("-inf"))
    return torch.topk(masked, k, dim=1)


def time_graph(step, nbuf, replays=12):
    """Median microseconds per op of a graph running ``step(i)`` for every buffer i."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for i in range(nbuf):
            step(i)  # eager warm-up: compile, allocate
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for i in range(nbuf):
            step(i)
    for _ in range(2):
        g.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1e3 / nbuf)
    return statistics.median(times)


def bench_shape(shape, variants, launch):
    rows, n, dtype, k, peer = shape
    dev = torch.device("cuda")
    itemsize = torch.finfo(dtype).bits // 8
    nbytes = rows * n * itemsize
    nbuf = max(2, min(48, math.ceil((256 << 20) / nbytes)))
    gen = torch.Generator(device=dev).manual_seed(rows + n)
    xs = [torch.randn(rows, n, device=dev, generator=gen).to(dtype) for _ in range(nbuf)]
    lens = [make_seq_lens(rows, n, seed=i, mode="uniform", device=dev) for i in range(nbuf)]
    lengths = [ln.to(torch.int64).clamp(0, n) for ln in lens]
    idx = [torch.empty(rows, k, dtype=torch.int32, device=dev) for _ in range(nbuf)]
    t_torch = time_graph(lambda i: masked_torch(xs[i], lengths[i], k), nbuf)
    ref = masked_torch(xs[0], lengths[0], k).values.float().sort(dim=1).values
    res = {}
    for name, v in variants.items():
        def step(i, v=v):
            launch(Call(logits=xs[i], seq_lens=lens[i], top_k=k, indices=idx[i]), v)
        res[name] = time_graph(step, nbuf)
        # Exactness spot check on one buffer: selected values equal torch's, as multisets.
        got = xs[0].gather(1, idx[0].long()).float().sort(dim=1).values
        if not torch.equal(ref, got):
            res[name] = float("nan")
            print(f"  MISMATCH {name} {rows}x{n}")
    floor = nbytes / COPY_GBPS / 1e3
    best = res["default"]
    peer = float("nan") if peer is None else peer
    return (f"{rows:>6} x {n:>7} {str(dtype).removeprefix('torch.'):>8} {k:>5} {floor:7.1f} {peer:7.1f} "
            f"{t_torch:8.1f} " + " ".join(f"{res[v]:9.1f}" for v in variants)
            + f"  {peer / best:6.2f}x  {best / floor:6.2f}x")



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", action="store_true", help="also time the non-default variants")
    ap.add_argument("--shapes", default="dsa", choices=["dsa", "small", "all"])
    args = ap.parse_args()
    from topk_radix_filter.launch import DEFAULT, Variant, launch

    variants = {"default": DEFAULT}
    if args.variants:
        for name, kw in (("agg=none", dict(agg="none")), ("agg=match", dict(agg="match")),
                         ("no-prune", dict(prune=False)), ("forward", dict(reverse=False)),
                         ("unroll4", dict(unroll=4)), ("unroll8", dict(unroll=8)),
                         ("t256", dict(threads=256)), ("cand2k", dict(cand=2048))):
            variants[name] = Variant(**kw)
    shapes = {"dsa": DSA, "small": SMALL, "all": DSA + SMALL}[args.shapes]
    header = f"{'rows x N':>16} {'dtype':>8} {'k':>5} {'floor':>7} {'peer':>7} {'torch':>8} " + " ".join(
        f"{n:>9}" for n in variants) + "  vs_peer  vs_floor"
    print(header)
    rows_out = []
    for shape in shapes:
        line = bench_shape(shape, variants, launch)
        print(line, flush=True)
        rows_out.append(line)
        torch.cuda.empty_cache()
    print("\n# summary (us):\n" + header + "\n" + "\n".join(rows_out))


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"# bench wall {time.time() - t0:.1f} s")
