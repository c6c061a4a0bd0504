"""Entry-point target (``topk.backends``: ``radix``). Importing it stays cheap:
cutlass is imported only inside ``run()`` (through ``launch``)."""

from __future__ import annotations

from topk_core.kernels.backend_base import CUDA_PYTHON, CUTE_DSL, KernelBackend

from . import checks


class RadixBackend(KernelBackend):
    """Single-pass cluster radix top-k for decode-sized batches (Hopper clusters)."""

    name = "radix"
    requires = (CUTE_DSL, CUDA_PYTHON)
    checks = checks
    launcher = "topk_radix.launch:run"
    launch_takes_problem = True


backend = RadixBackend()
