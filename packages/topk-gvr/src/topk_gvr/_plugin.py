"""Entry-point target: the ``gvr`` backend object. Importing it never imports triton."""

from __future__ import annotations

import os

from topk_core.kernels.backend_base import TRITON, KernelBackend
from topk_core.protocol import Problem

from . import checks


def _interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "") not in ("", "0")


class GvrBackend(KernelBackend):
    """Guess a threshold from the hint, verify it in one streaming pass, refine the survivors exactly."""

    name = "gvr"
    requires = (TRITON,)
    no_gpu_reason = "no CUDA GPU (set TRITON_INTERPRET=1 to run on CPU through the Triton interpreter)"
    checks = checks
    launcher = "topk_gvr.launch:launch"

    def runs_without_gpu(self) -> bool:
        return _interpreting()

    def supports(self, problem: Problem) -> str | None:
        return checks.supports(problem, interpreter=_interpreting())


backend = GvrBackend()
