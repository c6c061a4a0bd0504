"""supports() and score() for radix_filter: pure functions of a Problem, never raising.

Each refusal is a short reason. Scores are the measured speedup over torch.topk on
masked logits (H200, fp32 unless noted, CUDA-graph replay over rotating inputs; see NOTES.md),
the nearest measured shape in log2(rows), log2(N), halved per octave beyond the first
(``topk_core.kernels.scores``); higher wins under ``auto``.
"""

from __future__ import annotations

from topk_core.kernels.backend_base import int32_layout_reason
from topk_core.kernels.scores import measured_score
from topk_core.kernels.toolchain import cuda_reason
from topk_core.protocol import DTYPES, Problem

#: Oldest GPU: the kernel uses only sm_80 instructions (shared atomics, warp votes, shuffles).
MIN_CAPABILITY = (8, 0)
MAX_K = 16384
#: Column loops step by up to 8192 columns in int32 (and the tail adds a thread index): 2**30 keeps them far from
#: wrapping (session 43's audit; N near 2**31 read before the row and looped without end).
MAX_N = 1 << 30

#: Speedup over torch.topk (masked), measured: {(rows, n): speedup}. H200, fp32, k=2048,
#: next_n=1; torch.topk us / radix_filter us (0.10.4's plan, session 14's kernels: before 0.10.5's longest-first
#: order) from the committed one-process runs of 2026-12-05 (session 45), benchmarks/results/
#: 2026-12-05-cuda-decode-session45.json and -dsa-session45.json (the DSA run wins where cells repeat; written by
#: shared/device/update_scores.py).
MEASURED: dict[tuple[int, int], float] = {
    (1, 8192): 9.55, (1, 32768): 7.03, (1, 131072): 5.72, (1, 262144): 5.64, (1, 1048576): 4.85, (8, 32768): 7.35,
    (8, 131072): 6.55, (32, 32768): 9.14, (32, 131072): 9.61, (128, 32768): 13.3, (128, 131072): 17.82,
    (512, 32768): 13.63, (512, 131072): 19.33, (1024, 65536): 17.8, (4096, 8192): 12.6,
}
#: Only used if MEASURED is emptied: positive (above ``reference``), below the measured
#: backends, more for batches, which this design targets.
PRIOR_FEW_ROWS, PRIOR_MANY_ROWS = 0.3, 0.5


def supports(p: Problem) -> str | None:
    """None when radix_filter runs ``p``, else why not."""
    try:
        reason = cuda_reason(p.device, p.capability, MIN_CAPABILITY)
        if reason:
            return reason
        if p.dtype not in DTYPES:
            return f"dtype {p.dtype} not supported (float32, bfloat16, float16)"
        if not 1 <= p.k <= MAX_K:
            return f"k={p.k} outside 1..{MAX_K}"
        if p.n > MAX_N:
            return f"N={p.n} above {MAX_N} (int32 column loops)"
        reason = int32_layout_reason(p)
        if reason:
            return reason
        if p.next_n < 1 or p.compress_ratio < 1:
            return "next_n and compress_ratio must be >= 1"
        if p.transform != "none":
            return f"transform {p.transform!r} not implemented (indices only)"
        if p.row_starts:
            return "row_starts windows not implemented"
        return None
    except Exception as exc:  # a checker never raises
        return f"checker error: {type(exc).__name__}: {exc}"


def score(p: Problem) -> float:
    """Estimated speedup over masked torch.topk; only meaningful where supports() is None."""
    try:
        measured = measured_score(MEASURED, p)
        if measured is not None:
            return float(measured)
        return PRIOR_MANY_ROWS if p.rows >= 32 else PRIOR_FEW_ROWS
    except Exception:
        return 0.0
