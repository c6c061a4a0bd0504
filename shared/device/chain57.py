"""Dev (device): where does a one-program 8K row's time go in Triton? (session 57; issue 6's 1x8K, sgl_fused NOTES
"the resident chain, 1.4 µs").

A single program loads one float32 row of up to 8192 columns (length in [4K, 8K]), runs R dependent block-wide
reductions over it (each one count, or with OPS=3 a count and the nearest value either side, as the resident
search's steps), then writes k = 2048 int32 slots. Timed for R = 0, 1, 2, 4, 8, 16 and 4 / 8 / 16 warps, beside an
empty kernel and the shipped backends on the same rows (top_k_varlen: sgl_fused, radix_filter, torch.topk), with
CUDA-graph replay over rotating inputs, median of 10. The slope over R is the cost of one step of a search; R = 0
is the load and the stores alone.
Usage: bash shared/device/run.sh python3 shared/device/chain57.py   (carry .carry/dsl for radix_filter)
"""

import torch
import triton
import triton.language as tl
from gather_order55 import checked_time  # this script's folder is on sys.path when run

from topk_core import top_k_varlen
from topk_core.bench.timing import rotations
from topk_core.errors import BackendNotSupportedError

N, K = 8192, 2048


@triton.jit
def _empty(out_ptr):
    tl.store(out_ptr, 1)


@triton.jit
def _nearest(a_cnt, a_lo, a_hi, b_cnt, b_lo, b_hi):
    return a_cnt + b_cnt, tl.maximum(a_lo, b_lo), tl.minimum(a_hi, b_hi)


@triton.jit
def _chain(x_ptr, len_ptr, out_ptr, R: tl.constexpr, OPS: tl.constexpr, BLOCK: tl.constexpr, K: tl.constexpr):
    L = tl.load(len_ptr)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < L, other=float("-inf"))
    t = 0.0
    for _ in tl.static_range(R):
        ge = x >= t
        if OPS == 3:
            cnt, lo, hi = tl.reduce((ge.to(tl.int32), tl.where(ge, float("-inf"), x), tl.where(ge, x, float("inf"))),
                                    0, _nearest)
            t = t + (cnt.to(tl.float32) - K) * 1e-6 + (hi - lo) * 1e-3
        else:
            cnt = tl.sum(ge.to(tl.int32), axis=0)
            t = t + (cnt.to(tl.float32) - K) * 1e-6
    tl.store(out_ptr + offs, offs, mask=(offs < K) & (x >= t))
    tl.store(out_ptr + offs, -offs, mask=(offs < K) & (x < t))


def main() -> None:
    dev = torch.device("cuda")
    print(torch.cuda.get_device_name(dev), flush=True)
    count = rotations(N * 4)
    g = torch.Generator(device=dev).manual_seed(57)
    xs = [torch.randn(1, N, device=dev, generator=g) for _ in range(count)]
    lens = [torch.randint(N // 2, N + 1, (1,), device=dev, generator=g, dtype=torch.int32) for _ in range(count)]
    outs = [torch.empty(1, K, dtype=torch.int32, device=dev) for _ in range(count)]
    with torch.cuda.stream(torch.cuda.Stream()):  # graph capture needs a side stream
        def unchecked(_):  # the probe kernels compute nothing to check
            pass

        print(f"empty kernel: {checked_time(lambda i: _empty[(1,)](outs[i]), count, unchecked):.2f} us", flush=True)
        for warps in (4, 8, 16):
            for ops in (1, 3):
                line = []
                for r in (0, 1, 2, 4, 8, 16):
                    us = checked_time(lambda i, r=r, ops=ops, warps=warps: _chain[(1,)](
                        xs[i], lens[i], outs[i], R=r, OPS=ops, BLOCK=N, K=K, num_warps=warps), count, unchecked)
                    line.append(f"R={r} {us:.2f}")
                print(f"warps {warps} ops {ops}: " + " | ".join(line), flush=True)

        def check(i):
            want = set(torch.topk(xs[i][0, :int(lens[i])], K).indices.tolist())
            assert set(outs[i][0].tolist()) == want, "wrong set"

        for backend in ("sgl_fused", "radix_filter", "reference"):
            def step(i, backend=backend):
                top_k_varlen(xs[i], lens[i], K, out_indices=outs[i], backend=backend)
            try:
                step(0)
            except (ValueError, BackendNotSupportedError) as e:  # missing or unable here: say so, go on
                print(f"top_k_varlen {backend}: {type(e).__name__}: {e}"[:300], flush=True)
                continue
            print(f"top_k_varlen {backend} 1x8K: {checked_time(step, count, check):.2f} us", flush=True)

if __name__ == "__main__":
    main()
