"""Entry-point target: the ``sgl_fused`` backend object. Importing it never imports triton."""

from __future__ import annotations

import os

from topk_core.kernels.backend_base import TRITON, KernelBackend
from topk_core.protocol import Problem

from . import checks


def _interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "") not in ("", "0")


class SglFusedBackend(KernelBackend):
    """Triton radix select with the SGLang page-table / ragged transforms fused in."""

    name = "sgl_fused"
    requires = (TRITON,)
    no_gpu_reason = "no CUDA GPU (set TRITON_INTERPRET=1 to run on CPU through the Triton interpreter)"
    checks = checks
    launcher = "topk_sgl_fused.launch:launch"

    def runs_without_gpu(self) -> bool:
        return _interpreting()

    def supports(self, problem: Problem) -> str | None:
        return checks.supports(problem, interpreter=_interpreting())

    def kernel_as(self, transform: str):
        """A context in which every call runs the kernel picked for ``transform`` (the benchmark's same-kernel
        column: the page table's kernel with the identity transform)."""
        from . import launch  # imports triton

        return launch.picking_as(transform)


backend = SglFusedBackend()
