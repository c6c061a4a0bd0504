"""Fewer instructions per key for ``regs.py`` (compile-time flags ``fkey``, ``emit1``, ``nozero``).

At C=1 (1024 threads on one SM) the register kernel is issue-bound (NOTES.md, session 5 ncu),
so every instruction per key counts:

- ``f32_key_fadd``: the float32 order key in five instructions instead of eight. ``x + 0.0``
  (round to nearest, no flush) is ``x`` bit for bit except that ``-0.0`` becomes ``+0.0``, so
  the sign flip that follows needs no ``-0`` case; NaN (either sign, any payload) is tested
  on the input and takes the top key. The add runs on the FMA pipe, not the integer one.
- ``fkey`` also tests each slot against one bound: ``min(L, (n // V) * V)`` for the slots of
  16-byte vectors (a vector is real iff ``v < n // V``), ``L`` for scalar copies (``L <= n``), so
  the per-vector "loaded a real vector" select goes (all dtypes).
- ``emit1`` (in ``regs.py``) compares keys against the threshold bin's edges instead of
  shifting every key, and branches once per key (above the bin) instead of twice: the ties
  (one bin's keys, few) get their own loop, entered only by threads that hold one.
- ``nozero`` (in ``regs.py``): pass 0 adds key 0 (a column outside ``[0, L)``) to bin 0 like
  any key, with no branch per slot. Exact because bin 0 of pass 0 (keys below ``2^21``, or
  ``2^5`` for 16-bit keys) holds no real key (-inf's is ``0x007FFFFF``; bf16 ``0x7F``, fp16
  ``0x3FF``; NaN takes the top key), and the find never reaches it: it scans from the top and
  stops at the ``need``-th key, ``need <= k < L`` real keys. So the chosen bin never holds key
  0 and the later passes, the gather and the emit, which only look at that bin, never see one.

``tests/test_lean.py`` checks these rules on CPU (keys against ``topk_core.keys.order_keys``).
"""

from __future__ import annotations

import cutlass.cute as cute
from cutlass import Uint32

from topk_core.kernels.cute_common import order_key_f32_fadd


@cute.jit
def f32_key_fadd(bits: Uint32) -> Uint32:
    """``order_key(bits, "float32")``: ``cute_common.order_key_f32_fadd`` with the NaN test on the input."""
    return order_key_f32_fadd(bits, True)
