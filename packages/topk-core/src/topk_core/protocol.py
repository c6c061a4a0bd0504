"""The backend protocol: what a backend package implements and what it is given.

A backend is an object registered under the entry-point group ``topk.backends``.
Loading the entry point must stay cheap: it must not import cutlass or triton.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import torch

PROTOCOL_VERSION = 1

DTYPES = ("float32", "bfloat16", "float16")
TRANSFORMS = ("none", "page_table", "ragged")


@dataclass(frozen=True)
class Problem:
    """Host-side facts of one call. Hashable, so decisions can be cached.

    Nothing here depends on device data: it is what graph capture may dispatch on.
    """

    rows: int
    n: int
    k: int
    dtype: str  # one of DTYPES
    device: str = "cuda"  # "cuda" or "cpu"
    capability: tuple[int, int] | None = None  # CUDA compute capability, None on CPU
    next_n: int = 1
    compress_ratio: int = 1
    has_hint: bool = False
    return_values: bool = False
    load_balance: bool = True
    row_starts: bool = False  # per-row window starts (SGLang API)
    transform: str = "none"  # one of TRANSFORMS
    long_stride: bool = False  # rows >= 2 whose stride is 2**31 elements or more (no int32 kernel argument holds it)

    @property
    def itemsize(self) -> int:
        return 4 if self.dtype == "float32" else 2

    @property
    def nbytes(self) -> int:
        """Bytes of logits a one-read pass touches."""
        return self.rows * self.n * self.itemsize


@dataclass
class Call:
    """Device tensors of one validated call. Outputs are already allocated.

    ``indices`` is int32 ``[rows, k]``; ``values`` is ``[rows, k]`` in the logits
    dtype or None. Row ``r`` ranks ``logits[r, s_r : s_r + L_r]`` where ``L_r`` is
    ``valid_lengths(...)`` and ``s_r`` is ``row_starts[r]`` (0 without row_starts).
    Indices are relative to ``s_r``. Transforms then map each selected index ``j``:
    ``page_table``: ``page_table[req(r), j]``; ``ragged``: ``j + index_offsets[r]``.
    """

    logits: torch.Tensor
    seq_lens: torch.Tensor
    top_k: int
    indices: torch.Tensor
    values: torch.Tensor | None = None
    next_n: int = 1
    compress_ratio: int = 1
    pre_idx: torch.Tensor | None = None
    load_balance: bool = True
    workspace: dict | None = None
    row_starts: torch.Tensor | None = None
    transform: str = "none"
    page_table: torch.Tensor | None = None
    cu_seqlens_q: torch.Tensor | None = None  # None: req(r) = r
    index_offsets: torch.Tensor | None = None
    extra: dict = field(default_factory=dict)


@runtime_checkable
class Backend(Protocol):
    """What every backend provides. ``name`` equals its entry-point name."""

    name: str
    protocol: int

    def environment(self) -> str | None:
        """None when usable on this machine, else why not (no GPU, no DSL, ...)."""

    def supports(self, problem: Problem) -> str | None:
        """None when it can run ``problem``, else a short reason. Never raises."""

    def score(self, problem: Problem) -> float:
        """Higher wins under auto. Pure and fast; from measured tables.

        The common scale: the measured (or estimated) speed-up over masked
        ``torch.topk`` on the same shape, CUDA-graph replay, H200. The reference
        scores 0 and always ranks last.
        """

    def run(self, problem: Problem, call: Call) -> None:
        """Write every slot of ``call.indices`` (and ``call.values``)."""
