"""Entry-point target of radix_filter. Importing it must not import cutlass."""

from __future__ import annotations

from topk_core.kernels.backend_base import CUDA_PYTHON, CUTE_DSL, KernelBackend

from . import checks


class RadixFilterBackend(KernelBackend):
    """Sampled threshold, one streaming filter pass, on-chip refine; one CTA per row (CuTe DSL)."""

    name = "radix_filter"
    requires = (CUTE_DSL, CUDA_PYTHON)
    checks = checks
    launcher = "topk_radix_filter.launch:launch"  # imports cutlass lazily


backend = RadixFilterBackend()
