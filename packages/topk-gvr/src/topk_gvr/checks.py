"""What the ``gvr`` backend runs, and how well: pure functions of a ``Problem``.

``supports`` returns None or a short reason and never raises. The README's Supports table is checked against the
constants here. ``score`` is not measured yet (no device run has timed this backend), so it ranks ``gvr`` under
``auto`` below every backend with a measured table and above only ``reference``: pass ``backend="gvr"`` to use it.
"""

from __future__ import annotations

from topk_core.protocol import DTYPES, Problem

#: Compute capabilities the kernels are compiled for (Triton, Hopper; those of topk-sgl-fused, whose kernels run).
CAPABILITY_MAJOR = (9,)
#: As topk-sgl-fused's two-launch path: column counts and k stay well inside int32 lane arithmetic.
MAX_N = 1 << 30
MAX_K = 1 << 30
SUPPORTED_DTYPES = DTYPES
#: Until a committed H200 run gives a measured table (``topk_core.kernels.scores``): below every measured backend.
UNMEASURED_SCORE = 0.01


def supports(problem: Problem, interpreter: bool = False) -> str | None:
    """None when the kernels can run ``problem``; else why not.

    ``interpreter``: TRITON_INTERPRET=1 is on, so CPU tensors run through Triton's interpreter.
    """
    try:
        if not problem.has_hint:
            return "needs the hint (pre_idx: the previous step's top-k indices), and this call has none"
        if problem.dtype not in SUPPORTED_DTYPES:
            return f"dtype {problem.dtype} not supported (float32, bfloat16, float16)"
        if problem.transform != "none" or problem.row_starts:
            return "top_k_varlen only (no fused transform, no row_starts windows)"
        if problem.device == "cpu":
            if not interpreter:
                return "CPU tensors need TRITON_INTERPRET=1 (Triton interpreter)"
        elif problem.device != "cuda":
            return f"needs a CUDA device, got {problem.device}"
        elif problem.capability is not None and problem.capability[0] not in CAPABILITY_MAJOR:
            major, minor = problem.capability
            return f"compiled for Hopper (sm_90) only, got sm_{major}{minor}"
        if problem.n > MAX_N:
            return f"N={problem.n} above {MAX_N}"
        if problem.k > MAX_K:
            return f"k={problem.k} above {MAX_K}"
        if problem.rows >= 1 << 31:
            return f"rows={problem.rows} does not fit int32"
        return None
    except Exception as exc:  # never raise from a checker
        return f"unusual problem ({type(exc).__name__}: {exc})"


def score(problem: Problem) -> float:
    """``UNMEASURED_SCORE`` wherever it runs: no H200 measurement yet. Pure."""
    return UNMEASURED_SCORE
