"""``torch.ops.topk.top_k_varlen``: a custom op so ``torch.compile(fullgraph=True)`` traces calls.

The op always returns a values tensor; it is empty (``[rows, 0]``) when
``return_values`` is False, since an op's outputs cannot be optional.
"""

from __future__ import annotations

import torch


@torch.library.custom_op("topk::top_k_varlen", mutates_args=())
def _top_k_varlen(
    logits: torch.Tensor,
    seq_lens: torch.Tensor,
    top_k: int,
    pre_idx: torch.Tensor | None,
    compress_ratio: int,
    next_n: int,
    return_values: bool,
    backend: str,
    load_balance: bool,
) -> tuple[torch.Tensor, torch.Tensor]:
    from .api import top_k_varlen

    indices, values = top_k_varlen(logits, seq_lens, top_k, pre_idx=pre_idx, compress_ratio=compress_ratio,
                                   next_n=next_n, return_values=return_values, backend=backend,
                                   load_balance=load_balance)
    if values is None:
        values = logits.new_empty((logits.shape[0], 0))
    return indices, values


@_top_k_varlen.register_fake
def _(logits, seq_lens, top_k, pre_idx, compress_ratio, next_n, return_values, backend, load_balance):
    rows = logits.shape[0]
    indices = logits.new_empty((rows, top_k), dtype=torch.int32)
    values = logits.new_empty((rows, top_k if return_values else 0))
    return indices, values


def top_k_varlen_op(logits, seq_lens, top_k, pre_idx=None, compress_ratio=1, next_n=1,
                    return_values=False, backend="auto", load_balance=True):
    """Same results as ``top_k_varlen`` through the registered op (no out buffers or workspace)."""
    indices, values = torch.ops.topk.top_k_varlen(logits, seq_lens, top_k, pre_idx, compress_ratio, next_n,
                                                  return_values, backend, load_balance)
    return indices, (values if return_values else None)
