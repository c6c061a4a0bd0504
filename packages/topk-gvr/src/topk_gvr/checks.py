"""What the ``gvr`` backend runs, and how well: pure functions of a ``Problem``.

``supports`` returns None or a short reason and never raises. The README's Supports table is checked against the
constants here. Past the hint and the transform, the refusals are those of topk-sgl-fused's kernels, which ``gvr``
runs. ``score`` is not measured yet (no device run has timed this backend), so it ranks ``gvr`` under ``auto`` below
every backend with a measured table and above only ``reference``: pass ``backend="gvr"`` to use it.
"""

from __future__ import annotations

from topk_core.kernels.scores import measured_score
from topk_core.protocol import Problem
from topk_sgl_fused import checks as sgl_checks

CAPABILITY_MAJOR = sgl_checks.CAPABILITY_MAJOR
MAX_N = sgl_checks.MAX_N
#: Below topk-sgl-fused's: a row's list (k + 2 x cap words, cap >= k + a block) is addressed with an int32 size
#: (session 43's audit: k near 2**29 wrapped it).
MAX_K = 1 << 28
SUPPORTED_DTYPES = sgl_checks.SUPPORTED_DTYPES
#: Where MEASURED is empty (a table cleared for a new GPU): below every measured backend, above only ``reference``.
UNMEASURED_SCORE = 0.01
#: Measured speed-up over masked torch.topk by (rows, N): H200, fp32, k=2048, next_n=1, every call given the previous
#: step's top k as its hint: benchmarks/results/2026-12-05-cuda-decode-hint-session45.json (``topk bench --grid decode
#: --hint``, noise 0.05, session 45; gvr 0.1.2).
#: Written by shared/device/update_scores.py.
MEASURED = {
    (1, 8192): 1.93, (1, 32768): 4.13, (1, 131072): 4.74, (1, 262144): 5.11, (1, 1048576): 7.52, (8, 32768): 3.69,
    (8, 131072): 4.76, (32, 131072): 4.39,
}


def supports(problem: Problem, interpreter: bool = False) -> str | None:
    """None when the kernels can run ``problem``; else why not.

    ``interpreter``: TRITON_INTERPRET=1 is on, so CPU tensors run through Triton's interpreter.
    """
    try:
        if not problem.has_hint:
            return "needs the hint (pre_idx: the previous step's top-k indices), and this call has none"
        if problem.transform != "none" or problem.row_starts:
            return "top_k_varlen only (no fused transform, no row_starts windows)"
        if problem.k > MAX_K:
            return f"k={problem.k} above {MAX_K} (a row's candidate list is sized in int32)"
        return sgl_checks.supports(problem, interpreter=interpreter)
    except Exception as exc:  # never raise from a checker
        return f"unusual problem ({type(exc).__name__}: {exc})"


def score(problem: Problem) -> float:
    """Estimated speed-up over masked torch.topk: the nearest measured shape (``topk_core.kernels.scores``), or
    ``UNMEASURED_SCORE`` while nothing is measured. Pure."""
    try:
        measured = measured_score(MEASURED, problem)
    except Exception:
        return 0.0
    return UNMEASURED_SCORE if measured is None else measured
