"""Entry-point target of radix_filter. Importing it must not import cutlass."""

from __future__ import annotations

from topk_core.kernels.toolchain import have_module
from topk_core.protocol import PROTOCOL_VERSION, Call, Problem

from . import checks


class RadixFilterBackend:
    """Coarse 12-bit histogram, filter, on-chip refine; one CTA per row (CuTe DSL)."""

    name = "radix_filter"
    protocol = PROTOCOL_VERSION

    def environment(self) -> str | None:
        if not have_module("cutlass"):
            return "CuTe DSL (nvidia-cutlass-dsl) is not installed"
        if not have_module("cuda.bindings"):
            return "cuda-python (cuda.bindings) is not installed"
        import torch

        if not torch.cuda.is_available():
            return "no CUDA GPU visible"
        return None

    def supports(self, problem: Problem) -> str | None:
        return checks.supports(problem)

    def score(self, problem: Problem) -> float:
        return checks.score(problem)

    def run(self, problem: Problem, call: Call) -> None:
        from .launch import launch  # imports cutlass lazily

        launch(call)


backend = RadixFilterBackend()
