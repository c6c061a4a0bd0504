"""Shared selection rules as pure torch: valid lengths and order-preserving keys.

Kernels implement the same rules on device; these twins are what tests compare to.
"""

from __future__ import annotations

import torch

# Bit width of each logits dtype, and the matching signed integer view.
_INT_VIEW = {torch.float32: torch.int32, torch.bfloat16: torch.int16, torch.float16: torch.int16}
_BITS = {torch.float32: 32, torch.bfloat16: 16, torch.float16: 16}

#: Key given to a column outside its row: below every real value, -inf and NaN included.
OUTSIDE_KEY = -1


def valid_lengths(
    seq_lens: torch.Tensor, rows: int, n: int, next_n: int = 1, compress_ratio: int = 1
) -> torch.Tensor:
    """``L_r = clamp((seq_lens[r // next_n] - next_n + r % next_n + 1) // compress_ratio, 0, n)``.

    Returns int64 ``[rows]`` on the device of ``seq_lens``; no host sync.
    """
    r = torch.arange(rows, device=seq_lens.device)
    numerator = seq_lens.to(torch.int64)[r // next_n] - next_n + (r % next_n) + 1
    # Floor division of a negative numerator stays negative, so it clamps to 0.
    return torch.div(numerator, compress_ratio, rounding_mode="floor").clamp_(0, n)


def window_starts(row_starts: torch.Tensor | None, rows: int, n: int, device) -> torch.Tensor:
    """Per-row window start clamped to ``[0, n]`` (int64); zeros without row_starts."""
    if row_starts is None:
        return torch.zeros(rows, dtype=torch.int64, device=device)
    return row_starts.to(torch.int64).clamp(0, n)


def window_lengths(lengths: torch.Tensor, starts: torch.Tensor, n: int) -> torch.Tensor:
    """Per-row length clamped to the window ``[start, n)``: ``clamp(len, 0, n - start)``."""
    return torch.minimum(lengths.to(torch.int64).clamp(min=0), n - starts)


def order_keys(x: torch.Tensor) -> torch.Tensor:
    """Map floats to int64 keys with the same order: ``key(a) > key(b)`` iff ``a > b``.

    Every NaN maps to the largest key (above +inf, as in torch.topk); -0.0 maps to
    +0.0's key. Keys are non-negative, so ``OUTSIDE_KEY`` ranks below all of them.
    """
    if x.dtype not in _INT_VIEW:
        raise ValueError(f"order_keys: expected float32/bfloat16/float16, got {x.dtype}")
    bits = _BITS[x.dtype]
    full = (1 << bits) - 1
    sign = 1 << (bits - 1)
    u = x.view(_INT_VIEW[x.dtype]).to(torch.int64) & full
    u = torch.where(u == sign, torch.zeros_like(u), u)  # -0.0 -> +0.0
    keys = torch.where((u & sign) != 0, u ^ full, u | sign)
    return torch.where(torch.isnan(x), torch.full_like(keys, full), keys)


def key_threshold_bits(dtype: torch.dtype) -> int:
    """Number of key bits for a logits dtype (radix passes need it)."""
    return _BITS[dtype]
