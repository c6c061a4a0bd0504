"""Triton device helpers shared by the Triton backends (import only inside a launch path).

They implement on device what ``topk_core.keys`` does in torch:

- ``order_key(x)``: uint32 key with the order of the floats; every NaN gets the top
  key (above +inf, as torch.topk), -0.0 gets +0.0's key. 16-bit dtypes use the low
  16 bits. Key 0 (``OUTSIDE_KEY``) is never produced by a real value (it would be
  a negative NaN), so it can mark columns outside a row.
- ``valid_length(...)``: the spec's ``L_r``, never negative, never past ``n``.
- ``window_length(...)``: ``L_r`` clamped to a window ``[start, n)``.
- ``select_bin(hist, rem, NUM_BINS)``: the radix-select step over a histogram.

Interpreter traps (TRITON_INTERPRET=1): ``~x`` on unsigned fails, so keys flip with
``x ^ 0xFFFFFFFF``; constants are built as typed tensors so both the interpreter and
the compiler see uint32 arithmetic.
Names here are stable: other backends import them.
"""

from __future__ import annotations

import triton
import triton.language as tl

#: The key of a column outside its row: below every real value, -inf and NaN included.
OUTSIDE_KEY = 0


@triton.jit
def order_key(x, NAN_FREE: tl.constexpr = False):
    """Order-preserving uint32 key of a float32/bfloat16/float16 tensor. NAN_FREE: the caller guarantees no NaN,
    so a float32 key skips the NaN test (4 instructions, not 8; 16-bit keys are built as without it)."""
    if NAN_FREE and x.dtype == tl.float32:
        sign = tl.full([], 0x80000000, tl.uint32)
        u = x.to(tl.uint32, bitcast=True)
        u = tl.where(u == sign, tl.full([], 0, tl.uint32), u)  # -0.0 ranks as +0.0
        return u ^ ((u.to(tl.int32, bitcast=True) >> 31).to(tl.uint32, bitcast=True) | sign)
    # NaN is tested on the bits: the interpreter has no native bfloat16 compare.
    if x.dtype == tl.float32:
        u = x.to(tl.uint32, bitcast=True)
        sign = tl.full([], 0x80000000, tl.uint32)
        full = tl.full([], 0xFFFFFFFF, tl.uint32)
        inf = tl.full([], 0x7F800000, tl.uint32)
    else:
        u = x.to(tl.uint16, bitcast=True).to(tl.uint32)
        sign = tl.full([], 0x8000, tl.uint32)
        full = tl.full([], 0xFFFF, tl.uint32)
        if x.dtype == tl.bfloat16:
            inf = tl.full([], 0x7F80, tl.uint32)
        else:
            inf = tl.full([], 0x7C00, tl.uint32)
    zero = tl.full([], 0, tl.uint32)
    is_nan = (u & (sign - 1)) > inf
    u = tl.where(u == sign, zero, u)  # -0.0 ranks as +0.0
    key = tl.where((u & sign) != zero, u ^ full, u | sign)
    return tl.where(is_nan, full, key)  # every NaN, of either sign, on top


@triton.jit
def valid_length(seq_len, t, next_n, compress_ratio, n):
    """``clamp((seq_len - next_n + t + 1) // compress_ratio, 0, n)`` in int32.

    The numerator is clamped at 0 before dividing, so a negative one (padded slot)
    gives an empty row whatever the rounding of the division. ``seq_len`` is raised to -1 first
    (any negative one is an empty row), so that one near -2**31 cannot wrap to a long row. (Of the
    forms tried, this one leaves ptxas's registers and spills of every shipped sgl_fused build as
    they were: ``shared/dev/sgl_ptx_hashes.py --regs``.)
    """
    num = tl.maximum(seq_len.to(tl.int32), -1) - next_n + t + 1
    num = tl.maximum(num, 0)
    return tl.minimum(num // compress_ratio, n)


@triton.jit
def row_valid_length(seq_lens_ptr, row, next_n, compress_ratio, n):
    """``L_r`` of row ``row``: request ``row // next_n``, offset ``row % next_n``."""
    seq_len = tl.load(seq_lens_ptr + row // next_n)
    return valid_length(seq_len, row % next_n, next_n, compress_ratio, n)


@triton.jit
def window_length(length, start, n):
    """A length clamped to the window ``[start, n)``, with ``start`` clamped to ``[0, n]``."""
    start = tl.minimum(tl.maximum(start, 0), n)
    return tl.minimum(tl.maximum(length, 0), n - start), start


@triton.jit
def select_bin(hist, rem, NUM_BINS: tl.constexpr):
    """The bin holding the ``rem``-th largest element of a histogram (bins ascending).

    Returns ``(bin, above, count)``: elements in higher bins, and in the bin itself.
    Needs ``1 <= rem <= sum(hist)``; then exactly one bin satisfies
    ``above < rem <= above + count``.
    """
    bins = tl.arange(0, NUM_BINS)
    total = tl.sum(hist, axis=0)
    above_all = total - tl.cumsum(hist, axis=0)
    hit = (above_all < rem) & (above_all + hist >= rem)
    b = tl.max(tl.where(hit, bins, -1), axis=0)
    above = tl.sum(tl.where(bins == b, above_all, 0), axis=0)
    count = tl.sum(tl.where(bins == b, hist, 0), axis=0)
    return b, above, count
