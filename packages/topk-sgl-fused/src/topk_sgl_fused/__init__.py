"""topk-sgl-fused: SGLang-compatible exact top-k in Triton, with fused page-table / ragged transforms."""

from .__about__ import __version__

__all__ = ["__version__"]
