"""What the ``sgl_fused`` backend runs, and how well: pure functions of a ``Problem``.

``supports`` returns None or a short reason and never raises; ``score`` ranks it under
``auto`` from the H200 measurements below (NOTES.md).
The README's Supports table is checked against the constants here.
"""

from __future__ import annotations

from topk_core.kernels.scores import measured_score
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


#: Measured speed-up over masked torch.topk by (rows, N), per fused transform: H200, fp32,
#: k=2048, next_n=1; torch.topk us / sgl_fused us (0.27.2: the resident or warp path where ``launch.pick_warp``
#: names a config, else the two-launch path) from the committed one-process runs of 2026-12-05 (session 45, commit
#: b66627a), benchmarks/results/2026-12-05-cuda-decode-session45.json and
#: -dsa-session45.json (columns sgl_fused, sgl_fused:page, sgl_fused:ragged; the DSA run wins where cells repeat).
#: Written by shared/device/update_scores.py.
MEASURED = {
    "none": {
        (1, 8192): 6.14, (1, 32768): 4.43, (1, 131072): 4.97, (1, 262144): 3.63, (1, 1048576): 3.73,
        (8, 32768): 4.18, (8, 131072): 4.79, (32, 32768): 4.43, (32, 131072): 4.46, (128, 32768): 6.87,
        (128, 131072): 8.49, (512, 32768): 5.72, (512, 131072): 9.66, (1024, 65536): 8.28, (4096, 8192): 5.69,
    },
    "page_table": {
        (1, 8192): 5.93, (1, 32768): 4.36, (1, 131072): 4.87, (8, 32768): 4.03, (8, 131072): 4.64,
        (32, 32768): 4.31, (32, 131072): 4.32, (128, 32768): 6.72, (128, 131072): 8.2, (512, 32768): 5.68,
        (512, 131072): 9.17, (1024, 65536): 7.91, (4096, 8192): 5.49,
    },
    "ragged": {
        (1, 8192): 6.06, (1, 32768): 4.43, (1, 131072): 5.0, (8, 32768): 4.18, (8, 131072): 4.76,
        (32, 32768): 4.42, (32, 131072): 4.46, (128, 32768): 6.87, (128, 131072): 8.47, (512, 32768): 5.86,
        (512, 131072): 9.82, (1024, 65536): 8.38, (4096, 8192): 5.66,
    },
}


def score(problem: Problem) -> float:
    """Estimated speed-up over masked torch.topk: the nearest measured shape of the problem's
    transform (``topk_core.kernels.scores``). Pure; positive wherever it runs, so it outranks
    ``reference`` (0); without a transform the CuTe DSL backends measured faster. row_starts
    windows were not timed separately: they score as the same transform without them."""
    try:
        table = MEASURED.get(problem.transform) or MEASURED["none"]
        return measured_score(table, problem)
    except Exception:
        return 0.0
