"""topk-radix: single-pass cluster radix top-k (CuTe DSL, Hopper thread-block clusters)."""

from .__about__ import __version__

__all__ = ["__version__"]
