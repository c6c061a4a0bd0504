"""Dev only: time radix_cutlass against torch.topk (masked) with CUDA-graph replay.

fp32 (unless given), k=2048, seq_lens uniform in [N/2, N]. One graph runs the op over
R rotating input buffers (R * bytes >= 256 MiB, so L2 is cold); the time per op is the
median over replays of (replay time / R). Floor = rows*N*itemsize / 4178 GB/s.

Usage: python3 packages/topk-radix-cutlass/bench_quick.py [--shapes 1x8192,8x131072] [--dtype bfloat16]
"""

import argparse
import statistics

import torch

from topk_core import top_k_varlen

SHAPES = ("1x8192,1x32768,1x131072,8x32768,8x131072,32x32768,32x131072,128x32768,128x131072,"
          "512x32768,512x131072,4096x8192,1024x65536")
FI = {"1x8192": 11.9, "1x131072": 42.0, "8x131072": 45.2, "32x32768": 25.8, "32x131072": 54.7,
      "128x32768": 27.7, "128x131072": 64.0, "512x131072": 205.8, "4096x8192": 263.6, "1024x65536": 223.6}
TORCH_REF = {"1x8192": 40.0, "1x32768": 46.6, "1x131072": 56.7, "8x32768": 55.6, "8x131072": 76.6,
             "32x32768": 73.1, "32x131072": 123.4, "128x32768": 126.3, "128x131072": 359.4,
             "512x32768": 365.1, "512x131072": 1230, "4096x8192": 690.7, "1024x65536": 1238}


def time_graph(fn, bufs, replays=15):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for b in bufs[:2]:
            fn(*b)
    s.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=s):
        for b in bufs:
            fn(*b)
    g.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        g.replay()
        e1.record()
        e1.synchronize()
        times.append(e0.elapsed_time(e1) * 1e3 / len(bufs))
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--k", type=int, default=2048)
    ap.add_argument("--threads", type=int, default=0, help="force threads per CTA (tuning)")
    ap.add_argument("--first-bits", type=int, default=0, help="force first-digit width (tuning)")
    a = ap.parse_args()
    from topk_radix_cutlass import launch

    auto_plan = launch.plan

    def forced(rows, n):
        threads, first_bits = auto_plan(rows, n)
        return a.threads or threads, a.first_bits or first_bits

    launch.plan = forced
    print(f"first_bits={a.first_bits or 'auto'} threads={a.threads or 'auto'}")
    dtype = getattr(torch, a.dtype)
    k = a.k
    dev = torch.device("cuda")
    print(f"{'rows x N':>12} {'floor':>7} {'ours':>8} {'torch':>8} {'t/ours':>7} {'FI(ref)':>8} {'FI/ours':>8}")
    for shape in a.shapes.split(","):
        rows, n = map(int, shape.split("x"))
        nbytes = rows * n * dtype.itemsize
        R = max(2, min(64, (256 << 20) // nbytes + 1))
        torch.manual_seed(0)
        bufs = []
        for _ in range(R):
            x = torch.randn(rows, n, device=dev).to(dtype)
            s = torch.randint(n // 2, n + 1, (rows,), device=dev, dtype=torch.int32)
            oi = torch.empty(rows, k, dtype=torch.int32, device=dev)
            bufs.append((x, s, oi))
        cols = torch.arange(n, device=dev)
        neg_inf = torch.tensor(float("-inf"), dtype=dtype, device=dev)

        def ours(x, s, oi):
            top_k_varlen(x, s, k, out_indices=oi, backend="radix_cutlass")

        def masked_torch(x, s, oi, cols=cols, neg_inf=neg_inf, n=n):
            m = torch.where(cols[None, :] < s[:, None], x, neg_inf)
            torch.topk(m, min(k, n), dim=1)

        t_ours = time_graph(ours, bufs)
        t_torch = time_graph(masked_torch, bufs)
        floor = nbytes / 4178e3
        fi = FI.get(shape) if a.dtype == "float32" and k == 2048 else None
        fi_s = f"{fi:8.1f} {fi / t_ours:8.2f}" if fi else f"{'-':>8} {'-':>8}"
        print(f"{shape:>12} {floor:7.2f} {t_ours:8.1f} {t_torch:8.1f} {t_torch / t_ours:7.2f} {fi_s}", flush=True)
        del bufs
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
