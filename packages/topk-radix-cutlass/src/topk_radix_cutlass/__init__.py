"""topk-radix-cutlass: the portable exact radix top-k backend (CuTe DSL, sm_80+)."""

from .__about__ import __version__

__all__ = ["__version__"]
