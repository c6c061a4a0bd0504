"""topk-gvr: exact top-k that starts from the previous decode step's indices (guess, verify, refine)."""

from .__about__ import __version__

__all__ = ["__version__"]
