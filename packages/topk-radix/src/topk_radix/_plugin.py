"""Entry-point target (``topk.backends``: ``radix``). Importing it stays cheap:
cutlass is imported only inside ``run()`` (through ``launch``)."""

from __future__ import annotations

from topk_core.kernels.toolchain import have_module
from topk_core.protocol import PROTOCOL_VERSION, Call, Problem

from . import checks


class RadixBackend:
    """Single-pass cluster radix top-k for decode-sized batches (Hopper clusters)."""

    name = "radix"
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
        from . import launch

        launch.run(problem, call)


backend = RadixBackend()
