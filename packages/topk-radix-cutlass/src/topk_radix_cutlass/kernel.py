"""radix_cutlass's row kernel: ``topk_core.kernels.cute_radix.RadixTopK``, one CTA per row.

The selection lives in topk-core because radix_filter builds on it too; this module
names it for radix_cutlass (``launch.build``) and for ``split.py``.
"""

from topk_core.kernels.cute_radix import RadixTopK, digits

__all__ = ["RadixTopK", "digits"]
