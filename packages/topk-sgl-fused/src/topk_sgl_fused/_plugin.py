"""Entry-point target: the ``sgl_fused`` backend object. Importing it never imports triton."""

from __future__ import annotations

from topk_core.kernels.backend_base import TritonBackend

from . import checks


class SglFusedBackend(TritonBackend):
    """Triton radix select with the SGLang page-table / ragged transforms fused in."""

    name = "sgl_fused"
    checks = checks
    launcher = "topk_sgl_fused.launch:launch"

    def kernel_as(self, transform: str):
        """A context in which every call runs the kernel picked for ``transform`` (the benchmark's same-kernel
        column: the page table's kernel with the identity transform)."""
        from . import launch  # imports triton

        return launch.picking_as(transform)


backend = SglFusedBackend()
