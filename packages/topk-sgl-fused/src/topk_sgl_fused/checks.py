"""What the ``sgl_fused`` backend runs, and how well: pure functions of a ``Problem``.

``supports`` returns None or a short reason and never raises; ``score`` ranks it under
``auto`` (priors for now: no H200 measurement yet, see NOTES.md).
The README's Supports table is checked against the constants here.
"""

from __future__ import annotations

from topk_core.protocol import DTYPES, TRANSFORMS, Problem

#: Compute capabilities the kernels are compiled and tested for (Triton, H200).
CAPABILITY_MAJOR = (9,)
#: Column counts and k stay well inside int32 lane arithmetic (offset + BLOCK never wraps).
MAX_N = 1 << 30
MAX_K = 1 << 30
SUPPORTED_DTYPES = DTYPES
SUPPORTED_TRANSFORMS = TRANSFORMS


def supports(problem: Problem, interpreter: bool = False) -> str | None:
    """None when the kernels can run ``problem``; else why not.

    ``interpreter``: TRITON_INTERPRET=1 is on, so CPU tensors run through Triton's interpreter.
    """
    try:
        if problem.dtype not in SUPPORTED_DTYPES:
            return f"dtype {problem.dtype} not supported (float32, bfloat16, float16)"
        if problem.transform not in SUPPORTED_TRANSFORMS:
            return f"unknown transform {problem.transform!r}"
        if problem.device == "cpu":
            if not interpreter:
                return "CPU tensors need TRITON_INTERPRET=1 (Triton interpreter)"
        elif problem.device != "cuda":
            return f"needs a CUDA device, got {problem.device}"
        elif problem.capability is not None and problem.capability[0] not in CAPABILITY_MAJOR:
            major, minor = problem.capability
            return f"compiled and tested for Hopper (sm_90) only, got sm_{major}{minor}"
        if problem.n > MAX_N:
            return f"N={problem.n} above {MAX_N}"
        if problem.k > MAX_K:
            return f"k={problem.k} above {MAX_K}"
        if problem.rows >= 1 << 31:
            return f"rows={problem.rows} does not fit int32"
        return None
    except Exception as exc:  # never raise from a checker
        return f"unusual problem ({type(exc).__name__}: {exc})"


#: Prior scores (estimated speed-up over masked torch.topk). Not yet measured on the H200
#: (the team's device budget ran out before this backend's turn; see NOTES.md), so they sit
#: below every measured backend for plain selection, and above ``reference`` (0) only.
PRIOR_PLAIN = 0.5
#: With a fused transform or row_starts windows no other kernel backend runs the call.
PRIOR_FUSED = 1.0


def score(problem: Problem) -> float:
    """Higher wins under auto (reference scores 0). Pure; priors until H200 numbers exist."""
    if problem.transform != "none" or problem.row_starts:
        return PRIOR_FUSED
    return PRIOR_PLAIN
