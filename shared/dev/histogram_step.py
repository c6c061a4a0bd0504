"""Dev (CPU): a histogram step for the resident path's 1x8K chain (sgl_fused NOTES.md, session 60), in place of
the interpolation's count steps: bin each key linearly in a window of +-C standard errors of the k-th rank around
the moments' guess, histogram the window, and take every key in the bins from the k-th's up when that is exactly k.

- default: what ``tl.histogram`` costs a thread on sm_90 (Triton's lowering, counted in the PTX): 8192 float32 keys
  on 16 warps (16 a thread), masked outside the window, histogrammed and suffix-summed; beside it, the same load
  with one interpolation step's reduction (``secant.count_near``) instead;
- ``--model``: how often that ends the search (the k-th and the next key in different bins) on randn rows of
  4K-8K keys, k = 2048, with the mean and deviation as the guess.

Usage: python shared/dev/histogram_step.py [--model] [bins ...]   (default 64 256 1024)
"""

import collections
import os
import re
import sys

os.environ.pop("TRITON_INTERPRET", None)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "packages", "topk-sgl-fused", "src"))
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from topk_core.kernels.triton_common import order_key  # noqa: E402
from topk_sgl_fused import secant  # noqa: E402


@triton.jit
def _window_histogram(x_ptr, out_ptr, lo, inv_w, N: tl.constexpr, NB: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    fb = (x - lo) * inv_w
    inside = (fb >= 0) & (fb < NB)
    h = tl.histogram(tl.where(inside, fb, 0.0).to(tl.int32), NB, mask=inside)
    tl.store(out_ptr + tl.arange(0, NB), tl.cumsum(h, 0, reverse=True))


@triton.jit
def _count_step(x_ptr, out_ptr, p, N: tl.constexpr):
    key = order_key(tl.load(x_ptr + tl.arange(0, N)))
    cnt, d_min, d_max = secant.count_near(key, key > 0, p, False)
    tl.store(out_ptr, cnt)
    tl.store(out_ptr + 1, d_min)
    tl.store(out_ptr + 2, d_max)


def ptx_counts(bins: int, keys: int = 8192, warps: int = 16) -> collections.Counter:
    """PTX instructions of the histogram kernel (``bins`` > 0) or of the count step (``bins`` = 0)."""
    if bins:
        src = ASTSource(fn=_window_histogram, signature={"x_ptr": "*fp32", "out_ptr": "*i32", "lo": "fp32",
                                                         "inv_w": "fp32", "N": "constexpr", "NB": "constexpr"},
                        constexprs={"N": keys, "NB": bins})
    else:
        src = ASTSource(fn=_count_step, signature={"x_ptr": "*fp32", "out_ptr": "*u32", "p": "u32", "N": "constexpr"},
                        constexprs={"N": keys})
    ptx = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": warps}).asm["ptx"]
    return collections.Counter(re.findall(r"^\s*(?:@%p\d+\s+)?([a-z]+(?:\.[a-z0-9]+)*)", ptx, re.M))


def model(bins: int, c: float, rows: int = 2000, k: int = 2048, seed: int = 0) -> tuple[float, float]:
    """(share of rows whose k-th key lies in the window, share the histogram alone ends)."""
    from statistics import NormalDist

    import numpy as np

    unit, rng = NormalDist(), np.random.default_rng(seed)
    inside = ended = 0
    for _ in range(rows):
        n = int(rng.integers(4096, 8193))
        x = rng.standard_normal(n).astype(np.float32)
        z = unit.inv_cdf(1 - k / n)
        guess = x.mean() + x.std() * z
        half = c * (k * (1 - k / n)) ** 0.5 / (n * unit.pdf(z) / x.std())  # C standard errors of the k-th, in value
        lo, width = guess - half, 2 * half / bins
        kth, nxt = np.sort(x)[::-1][k - 1:k + 1]
        if lo <= kth < guess + half:
            inside += 1
            ended += int(np.floor((kth - lo) / width) != np.floor((nxt - lo) / width))
    return inside / rows, ended / rows


if __name__ == "__main__":
    as_model = "--model" in sys.argv
    bin_counts = [int(a) for a in sys.argv[1:] if a != "--model"] or [64, 256, 1024]
    if not as_model:
        ops = ptx_counts(0)
        print(f"one count step: {sum(ops.values())} PTX instructions a thread; "
              + ", ".join(f"{op} {n}" for op, n in ops.most_common(6)))
    for bins in bin_counts:
        if as_model:
            for c in (3, 4, 5):
                inside, ended = model(bins, c)
                print(f"{bins} bins, +-{c} standard errors: k-th in the window {inside:.3f}, ended {ended:.3f}")
        else:
            ops = ptx_counts(bins)
            top = ", ".join(f"{op} {n}" for op, n in ops.most_common(6))
            print(f"{bins} bins: {sum(ops.values())} PTX instructions a thread; {top}")
