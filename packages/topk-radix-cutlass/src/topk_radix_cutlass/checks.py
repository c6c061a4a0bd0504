"""What radix_cutlass runs, and how well: pure functions of a Problem (never raise).

The kernel is the portable fallback: every dtype, every k >= 1 (k > N included),
next_n, compress_ratio and return_values, on sm_80 and newer. It does not fuse
the page_table/ragged transforms and has no per-row window starts.
"""

from __future__ import annotations

from topk_core.kernels.backend_base import int32_layout_reason, plain_kernel_reason
from topk_core.kernels.scores import measured_score
from topk_core.protocol import Problem

#: Lowest compute capability, and why: only sm_80 features are used (no TMA, no clusters).
MIN_CAPABILITY = (8, 0)
DTYPES = ("float32", "bfloat16", "float16")
#: Row width and k must fit the kernel's int32 indexing with room for a loop's step (2**30: session 43's audit found
#: the column loops and the short-row fill wrapping near 2**31).
MAX_N = 1 << 30
MAX_K = 1 << 30


def supports(p: Problem) -> str | None:
    """None when the kernel runs ``p`` exactly, else a short reason."""
    try:
        reason = plain_kernel_reason(p, MIN_CAPABILITY) or int32_layout_reason(p)
        if reason:
            return reason
        if p.n > MAX_N:
            return f"N={p.n} exceeds {MAX_N}"
        if p.k > MAX_K:
            return f"k={p.k} exceeds {MAX_K}"
        if p.k < 1 or p.next_n < 1 or p.compress_ratio < 1:
            return "needs k, next_n and compress_ratio >= 1"
        return None
    except Exception as exc:  # a checker never raises
        return f"cannot judge problem: {type(exc).__name__}: {exc}"


#: torch.topk (masked) µs / radix_cutlass µs, fp32 k=2048, H200, 2026-12-05, from the committed
#: one-process runs benchmarks/results/2026-12-05-cuda-decode-session45.json and -dsa-session45.json (radix_cutlass
#: 0.3.1, the kernels of 0.2.0; each replay queued behind a sleep kernel; written by shared/device/update_scores.py).
MEASURED_SPEEDUP = {
    (1, 8192): 6.97, (1, 32768): 4.2, (1, 131072): 2.86, (1, 262144): 2.53, (1, 1048576): 2.67, (8, 32768): 4.07,
    (8, 131072): 3.48, (32, 32768): 5.27, (32, 131072): 4.52, (128, 32768): 8.12, (128, 131072): 8.41,
    (512, 32768): 7.56, (512, 131072): 9.67, (1024, 65536): 9.38, (4096, 8192): 7.49,
}


def score(p: Problem) -> float:
    """Estimated speed-up over torch.topk (masked): the nearest measured shape in log2 space,
    halved per octave beyond the first (``topk_core.kernels.scores``).

    The portable fallback: positive everywhere it runs, so ``auto`` prefers it to
    ``reference``; specialised backends outrank it where they measured faster.
    Weakest on few long rows (one CTA per row): about 2x torch at 1-8 rows of 128K.
    """
    if supports(p) is not None:
        return 0.0
    return measured_score(MEASURED_SPEEDUP, p)
