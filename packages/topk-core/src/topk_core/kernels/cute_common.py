"""CuTe DSL device helpers shared by the CuTe DSL backends (radix, radix_filter, radix_cutlass).

Importing this module imports ``cutlass``: only kernel modules should import it,
lazily, never a plugin. The helpers follow ``topk_core.keys`` (their pure-torch
twins) bit for bit:

- ``order_key(bits, dtype)``: the order-preserving unsigned key of a logit given
  as its raw bits (read the logits through an int32/int16 view so values can be
  copied back bit-exactly). NaN of either sign maps to the top key, ``-0.0`` to
  ``+0.0``'s key. Keys lie in ``[0, 2**bits - 1]`` as ``Uint32``.
- ``valid_length(seq_len, t, next_n, compress_ratio, n)``: the spec's
  ``clamp((seq_len - next_n + t + 1) // compress_ratio, 0, n)`` without overflow
  for any int32 ``seq_len`` and without unsigned reinterpretation.

Stable names (other packages import them): ``KEY_BITS``, ``NAN_EXP_MASK``,
``NEG_INF_BITS``, ``order_key``, ``order_key_f32``, ``order_key_f16``,
``order_key_bf16``, ``valid_length``.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Uint32

#: Key width per dtype name.
KEY_BITS = {"float32": 32, "bfloat16": 16, "float16": 16}
#: Exponent mask (sign bit cleared) of +inf: |bits| above it is a NaN.
NAN_EXP_MASK = {"float32": 0x7F800000, "bfloat16": 0x7F80, "float16": 0x7C00}
#: Raw bits of -inf (the padding value), as the signed integer the int view holds.
NEG_INF_BITS = {"float32": -0x00800000, "bfloat16": -0x0080, "float16": -0x0400}


@cute.jit
def _order_key(bits: Int32, width: cutlass.Constexpr, inf_bits: cutlass.Constexpr) -> Uint32:
    full = (1 << width) - 1
    sign = 1 << (width - 1)
    u = Uint32(bits) & Uint32(full)
    key = u | Uint32(sign)
    if (u & Uint32(sign)) != Uint32(0):
        key = u ^ Uint32(full)
    if u == Uint32(sign):  # -0.0 ranks as +0.0
        key = Uint32(sign)
    if (u & Uint32(full ^ sign)) > Uint32(inf_bits):  # any NaN: top key
        key = Uint32(full)
    return key


@cute.jit
def order_key_f32(bits: Int32) -> Uint32:
    """Key of a float32 given as its int32 bits."""
    return _order_key(bits, 32, 0x7F800000)


@cute.jit
def order_key_f16(bits: Int32) -> Uint32:
    """Key of a float16 given as its bits (int16 sign-extended or not)."""
    return _order_key(bits, 16, 0x7C00)


@cute.jit
def order_key_bf16(bits: Int32) -> Uint32:
    """Key of a bfloat16 given as its bits (int16 sign-extended or not)."""
    return _order_key(bits, 16, 0x7F80)


@cute.jit
def order_key(bits: Int32, dtype: cutlass.Constexpr) -> Uint32:
    """Key of a logit of ``dtype`` ("float32" | "bfloat16" | "float16") from its raw bits."""
    return _order_key(bits, KEY_BITS[dtype], NAN_EXP_MASK[dtype])


@cute.jit
def valid_length(seq_len: Int32, t: Int32, next_n: Int32, compress_ratio: Int32, n: Int32) -> Int32:
    """``clamp((seq_len - next_n + t + 1) // compress_ratio, 0, n)`` for ``0 <= t < next_n``."""
    lag = next_n - t - 1  # >= 0 and small: comparing first cannot overflow
    length = Int32(0)
    if seq_len > lag:
        length = (seq_len - lag) // compress_ratio  # positive numerator: floor == trunc
        if length > n:
            length = n
    return length
