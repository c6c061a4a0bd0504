"""radix_filter: sampled-filter top-k backend (CuTe DSL). Importing stays cheap."""

from .__about__ import __version__

__all__ = ["__version__"]
