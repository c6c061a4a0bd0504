"""topk_core: exact, batched, variable-length top-k for sparse attention.

Public API: ``top_k_varlen``, ``explain``, ``available_backends``,
``release_resources``, the ``sgl`` module, and ``BackendNotSupportedError``.
"""

from . import ops as _ops  # noqa: F401  (registers torch.ops.topk.top_k_varlen)
from . import sgl
from .__about__ import __version__
from .api import explain, top_k_varlen
from .errors import BackendNotSupportedError
from .protocol import PROTOCOL_VERSION, Backend, Call, Problem
from .registry import available_backends
from .workspace import release_resources

__all__ = [
    "PROTOCOL_VERSION",
    "Backend",
    "BackendNotSupportedError",
    "Call",
    "Problem",
    "__version__",
    "available_backends",
    "explain",
    "release_resources",
    "sgl",
    "top_k_varlen",
]
