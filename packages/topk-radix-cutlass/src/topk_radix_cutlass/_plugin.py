"""Entry point ``topk.backends: radix_cutlass``. Importing this must not import cutlass."""

from __future__ import annotations

from topk_core.kernels.toolchain import have_module
from topk_core.protocol import PROTOCOL_VERSION, Call, Problem

from . import checks


class RadixCutlassBackend:
    """The portable exact radix top-k (CuTe DSL, sm_80+)."""

    name = "radix_cutlass"
    protocol = PROTOCOL_VERSION

    def environment(self) -> str | None:
        if not have_module("cutlass"):
            return "CuTe DSL (nvidia-cutlass-dsl) is not installed"
        import torch

        if not torch.cuda.is_available():
            return "no CUDA GPU visible"
        cap = torch.cuda.get_device_capability()
        if cap < checks.MIN_CAPABILITY:
            return f"needs compute capability >= 8.0, got {cap[0]}.{cap[1]}"
        return None

    def supports(self, problem: Problem) -> str | None:
        return checks.supports(problem)

    def score(self, problem: Problem) -> float:
        return checks.score(problem)

    def run(self, problem: Problem, call: Call) -> None:
        from .launch import launch

        launch(call)


backend = RadixCutlassBackend()
