"""Exact rank searches by interpolation (session 19), shared by the resident path's k-th key and the candidate select
(``bisect_select._secant_rel``).

The search for the r-th largest of a set of keys keeps a bracket with real keys at both ends: ``lo`` with
``c_lo = count(key >= lo) >= r`` and ``top`` with ``c_hi = count(key > top) < r``. Each step counts the keys at or
above one probe ``p`` and, in the same reduction, finds the nearest key at or above it and the nearest under it
(``count_near``: the uint32 differences ``key - p`` put the first group below ``2**32 - p`` and the second at or
above it), so the bracket shrinks onto keys. The probe interpolates the rank between the ends, on the values when
both are finite and of one sign (else on the keys), with the Illinois rule (an end kept twice weighs half), and
after GUARD steps that did not halve the ranks in the bracket it is the key midpoint. The search ends when exactly
r keys are at or above ``lo``, or the bracket is one key, which is then the r-th: ~8 steps on randn rows of 4K-8K
keys against ~18 for bisection, 3-4 on integer ties against 21-32 (CPU model in NOTES.md).
"""

from __future__ import annotations

import triton
import triton.language as tl

from topk_core.kernels.triton_common import order_key

from .kernel import _add3


@triton.jit
def _add_min_max(c0, a0, b0, c1, a1, b1):
    return c0 + c1, tl.minimum(a0, a1), tl.maximum(b0, b1)


@triton.jit
def _min_max(a0, b0, a1, b1):
    return tl.minimum(a0, a1), tl.maximum(b0, b1)


@triton.jit
def key_value(key, like):
    """The float32 value of an order key of ``like``'s dtype (NaN's key gives NaN)."""
    if like.dtype == tl.float32:  # split._fp32_of_key's map (not imported: split imports this module's users)
        return tl.where(key >= 0x80000000, key ^ 0x80000000, key ^ 0xFFFFFFFF).to(tl.float32, bitcast=True)
    else:
        bits = tl.where(key >= 0x8000, key ^ 0x8000, key ^ 0xFFFF)
        if like.dtype == tl.bfloat16:
            return (bits << 16).to(tl.float32, bitcast=True)
        else:
            return bits.to(tl.uint16).to(tl.float16, bitcast=True).to(tl.float32)


@triton.jit
def min_max(key, valid):
    """``(min, max)`` of the valid keys of a 1-D block (one reduction)."""
    return tl.reduce((tl.where(valid, key, 0xFFFFFFFF), tl.where(valid, key, 0)), 0, _min_max)


@triton.jit
def count_near(key, valid, p, MASKED: tl.constexpr = True):
    """``(count(key >= p), min(key - p), max(key - p))`` over the valid keys of a block (reduced over axis 0), the
    differences as uint32 (invalid lanes never win). MASKED=False: every lane counts (lanes holding key 0 never
    win either, since probes are above 0 and real keys lie between)."""
    d = key - p
    if MASKED:
        ge = valid & (key >= p)
        return tl.reduce((ge.to(tl.int32), tl.where(valid, d, 0xFFFFFFFF), tl.where(valid, d, 0)), 0, _add_min_max)
    else:
        return tl.reduce(((key >= p).to(tl.int32), d, d), 0, _add_min_max)


@triton.jit
def start(lo, top, count, r):
    """The search state from the set's min and max keys and its size: ``(lo, top, c_lo, c_hi, w_lo, w_hi, side,
    bad, done)``."""
    c_hi = count * 0
    one = tl.full([], 1.0, tl.float32)
    zero = tl.full([], 0, tl.int32)
    return lo, top, count, c_hi, one, one, zero, zero, (count == r) | (lo == top)


@triton.jit
def probe(lo, top, c_lo, c_hi, r, w_lo, w_hi, bad, like, VALUES: tl.constexpr, GUARD: tl.constexpr = 6):
    """The next probe, in ``(lo, top]``."""
    above = (c_lo - r).to(tl.float32) + 0.5
    below = (r - c_hi).to(tl.float32) - 0.5
    frac = above * w_lo / (above * w_lo + below * w_hi)
    if VALUES:
        lv = key_value(lo, like)
        hv = key_value(top, like)
        if (lv * hv > 0) & (tl.abs(lv) < float("inf")) & (tl.abs(hv) < float("inf")):
            p = order_key((lv + (hv - lv) * frac).to(like.dtype))
        else:
            p = lo + ((top - lo).to(tl.float32) * frac).to(tl.uint32)
    else:
        p = lo + ((top - lo).to(tl.float32) * frac).to(tl.uint32)
    if bad >= GUARD:
        p = lo + (top - lo) // 2 + 1
    return tl.minimum(tl.maximum(p, lo + 1), top)


@triton.jit
def advance(p, cnt, d_min, d_max, r, lo, top, c_lo, c_hi, w_lo, w_hi, side, bad):
    """The state after counting probe ``p`` (``count_near``'s results)."""
    span = c_lo - c_hi
    hit = cnt >= r
    s = tl.where(hit, 1, -1)
    lo = tl.where(hit, p + d_min, tl.where(cnt == r - 1, p + d_max, lo))  # r - 1 above: the next key down is it
    c_lo = tl.where(hit, cnt, c_lo)
    top = tl.where(hit, top, p + d_max)
    c_hi = tl.where(hit, c_hi, cnt)
    w_lo = tl.where(s == side, tl.where(hit, w_lo, w_lo * 0.5), 1.0)
    w_hi = tl.where(s == side, tl.where(hit, w_hi * 0.5, w_hi), 1.0)
    bad = tl.where((c_lo - c_hi) * 2 > span, bad + 1, 0)
    return lo, top, c_lo, c_hi, w_lo, w_hi, s, bad, (c_lo == r) | (lo == top)


@triton.jit
def fold_near(cnt, d_min, d_max):
    """``count_near``'s results over a 2-D block (one more reduction over the rows' axis)."""
    return tl.reduce((cnt, d_min, d_max), 0, _add_min_max)


@triton.jit
def fold_min_max(lo, top):
    """``min_max``'s results over a 2-D block."""
    return tl.reduce((lo, top), 0, _min_max)


@triton.jit
def moment_sums(x, x0):
    """The sums of ``d``, ``d^2`` and ``d^3`` for ``d = x - x0`` over a 1-D block (``fit``'s inputs; the pivot ``x0``
    keeps the variance from cancelling on offset rows). ``min_max_moments`` adds them to a ``min_max`` reduction."""
    d = x.to(tl.float32) - x0
    return tl.reduce((d, d * d, d * d * d), 0, _add3)


@triton.jit
def _min_max_moments(a0, b0, s0, q0, c0, a1, b1, s1, q1, c1):
    return tl.minimum(a0, a1), tl.maximum(b0, b1), s0 + s1, q0 + q1, c0 + c1


@triton.jit
def min_max_moments(key, valid, x, x0):
    """``min_max`` and, in the same reduction, ``moment_sums`` over the valid keys of a block."""
    d = tl.where(valid, x.to(tl.float32) - x0, 0.0)
    return tl.reduce((tl.where(valid, key, 0xFFFFFFFF), tl.where(valid, key, 0), d, d * d, d * d * d), 0,
                     _min_max_moments)


@triton.jit
def fold_min_max_moments(lo, top, s1, s2, s3):
    """``min_max_moments``' results over a 2-D block."""
    return tl.reduce((lo, top, s1, s2, s3), 0, _min_max_moments)


@triton.jit
def fit(s1, s2, s3, inv):
    """``(m, sd, skew)`` of values ``x0 + d`` from the sums of ``d``, ``d^2``, ``d^3`` and ``inv`` = 1 / their count:
    the mean is ``x0 + m``; the skew is clamped to +-2 and 0 where it is undefined (non-finite sums give a NaN or
    infinite ``sd``, or 0, which callers reject)."""
    m = s1 * inv
    var = tl.maximum(s2 * inv - m * m, 0.0)
    sd = tl.sqrt(var)
    mu3 = s3 * inv - 3.0 * m * (s2 * inv) + 2.0 * m * m * m
    skew = tl.where(var > 0.0, mu3 / (var * sd), 0.0)
    skew = tl.where(skew == skew, tl.minimum(tl.maximum(skew, -2.0), 2.0), 0.0)
    return m, sd, skew


@triton.jit
def upper_z(q):
    """The z with ``P(Z > z) = q`` for a standard normal Z, 0 < q < 1 (Abramowitz and Stegun 26.2.23,
    error below 4.5e-4)."""
    pp = tl.minimum(q, 1.0 - q)
    t = tl.sqrt(-2.0 * tl.log(pp))
    z = t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)))
    return tl.where(q < 0.5, z, -z)


@triton.jit
def skew_correct(z, skew):
    """A standard normal quantile ``z`` corrected to a skew (the first Cornish-Fisher term)."""
    return z + (z * z - 1.0) * skew / 6.0
