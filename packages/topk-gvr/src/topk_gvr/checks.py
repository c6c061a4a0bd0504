"""What the ``gvr`` backend runs, and how well: pure functions of a ``Problem``.

``supports`` returns None or a short reason and never raises. The README's Supports table is checked against the
constants here. Past the hint and the transform, the refusals are those of topk-sgl-fused's kernels, which ``gvr``
runs. ``score`` is not measured yet (no device run has timed this backend), so it ranks ``gvr`` under ``auto`` below
every backend with a measured table and above only ``reference``: pass ``backend="gvr"`` to use it.
"""

from __future__ import annotations

from topk_core.protocol import Problem
from topk_sgl_fused import checks as sgl_checks

CAPABILITY_MAJOR = sgl_checks.CAPABILITY_MAJOR
MAX_N = sgl_checks.MAX_N
MAX_K = sgl_checks.MAX_K
SUPPORTED_DTYPES = sgl_checks.SUPPORTED_DTYPES
#: Until a committed H200 run gives a measured table (``topk_core.kernels.scores``): below every measured backend.
UNMEASURED_SCORE = 0.01


def supports(problem: Problem, interpreter: bool = False) -> str | None:
    """None when the kernels can run ``problem``; else why not.

    ``interpreter``: TRITON_INTERPRET=1 is on, so CPU tensors run through Triton's interpreter.
    """
    try:
        if not problem.has_hint:
            return "needs the hint (pre_idx: the previous step's top-k indices), and this call has none"
        if problem.transform != "none" or problem.row_starts:
            return "top_k_varlen only (no fused transform, no row_starts windows)"
        return sgl_checks.supports(problem, interpreter=interpreter)
    except Exception as exc:  # never raise from a checker
        return f"unusual problem ({type(exc).__name__}: {exc})"


def score(problem: Problem) -> float:
    """``UNMEASURED_SCORE`` wherever it runs: no H200 measurement yet. Pure."""
    return UNMEASURED_SCORE
