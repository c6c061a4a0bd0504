"""Entry-point target: the ``sgl_fused`` backend object. Importing it never imports triton."""

from __future__ import annotations

import os

from topk_core.kernels.toolchain import have_module
from topk_core.protocol import PROTOCOL_VERSION, Call, Problem

from . import checks


def _interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "") not in ("", "0")


class SglFusedBackend:
    """Triton radix select with the SGLang page-table / ragged transforms fused in."""

    name = "sgl_fused"
    protocol = PROTOCOL_VERSION

    def environment(self) -> str | None:
        if not have_module("triton"):
            return "triton is not installed"
        if _interpreting():
            return None
        import torch

        if not torch.cuda.is_available():
            return "no CUDA GPU (set TRITON_INTERPRET=1 to run on CPU through the Triton interpreter)"
        return None

    def supports(self, problem: Problem) -> str | None:
        return checks.supports(problem, interpreter=_interpreting())

    def score(self, problem: Problem) -> float:
        return checks.score(problem)

    def run(self, problem: Problem, call: Call) -> None:
        from .launch import launch

        launch(call)


backend = SglFusedBackend()
