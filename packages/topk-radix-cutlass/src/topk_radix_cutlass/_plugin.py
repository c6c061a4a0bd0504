"""Entry point ``topk.backends: radix_cutlass``. Importing this must not import cutlass."""

from __future__ import annotations

from topk_core.kernels.backend_base import CUTE_DSL, KernelBackend

from . import checks


class RadixCutlassBackend(KernelBackend):
    """The portable exact radix top-k (CuTe DSL, sm_80+)."""

    name = "radix_cutlass"
    requires = (CUTE_DSL,)
    min_capability = checks.MIN_CAPABILITY
    checks = checks
    launcher = "topk_radix_cutlass.launch:launch"


backend = RadixCutlassBackend()
