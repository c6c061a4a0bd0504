"""One program per row with the whole row in registers: the ``ResidentConfig`` path of ``sgl_fused``.

Program ``b`` (``TH`` threads) holds row ``b``'s window, up to ``A x V x TH`` columns (16-byte loads, ``A x V``
keys per thread), as order keys in registers, read once:

1. ``L``, the window and the transform operands as the warp path (``split._select_row_setup``); rows with
   ``L <= k`` are written directly (``kernel._fill_short_row``).
2. The k-th largest key, exactly, over the registers: by interpolation (``_kth_key_secant``, float32 rows: each
   step one count and the nearest keys either side of a probe, ~8 steps on randn rows) or by bisection on the key
   bits (``_kth_key``, 16-bit rows: one count per bit). Both stop as soon as exactly k keys are at or above the
   bound.
3. One packed scan places every key above it and the first ``k - above`` keys equal to it (ties by position in
   the program's layout) in the k slots, through the transform; values are read back from the row (L1/L2).

No sample, no scratch, no second read, no fallback: plateaus, NaN (the top key) and +-inf are exact by
construction. Exact under TRITON_INTERPRET=1 (``tests/test_resident.py``); compiled for sm_90 in CI.
"""

from __future__ import annotations

import triton
import triton.language as tl

from topk_core.kernels.triton_common import order_key

from . import secant
from .kernel import _emit, _fill_short_row
from .split import _as_lists, _select_row_setup


@triton.jit
def _load_row(row_ptr, L, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr):
    """``(j, x)`` of the window's first ``A x V x TH`` columns in list order, 0 past ``L``: whole 16-byte runs by
    vector loads (the mask is one per run), the one run that ``L`` cuts by element loads."""
    t = tl.arange(0, TH)[:, None, None]
    a = tl.arange(0, A)[None, :, None]
    run = tl.broadcast_to(a * (TH * V) + t * V, [TH, A, V])  # each run's first column
    off3 = run + tl.arange(0, V)[None, None, :]
    whole = run + V <= L
    x3 = tl.load(row_ptr + off3, mask=whole, other=0.0)
    x3 = tl.where(whole, x3, tl.load(row_ptr + off3, mask=(off3 < L) & (run < L) & (run + V > L), other=0.0))
    return _as_lists(off3, A, V, TH), _as_lists(x3, A, V, TH)


@triton.jit
def _kth_key(key, k, KEY_BITS: tl.constexpr):
    """The k-th largest of ``key`` (``[R, TH]``, unused lanes 0, which no real key is), or a bound with
    exactly k keys at or above it (bisection from the top bit; stops early)."""
    t = tl.full([], 0, tl.uint32)  # count(key >= t) >= k holds throughout
    done = False
    for bit in tl.static_range(KEY_BITS - 1, -1, -1):
        if not done:
            c = t | tl.full([], 1 << bit, tl.uint32)
            cnt = tl.sum(tl.sum((key >= c).to(tl.int32), axis=0), axis=0)
            t = tl.where(cnt >= k, c, t)
            done = cnt == k
    return t


@triton.jit
def _kth_key2(key, k, KEY_BITS: tl.constexpr):
    """``_kth_key`` two bits per step: half the steps (each a block-wide reduction, the chain's cost), three
    counts per key per step (two packed in one word: fields stay below 2**16 for N <= 32768)."""
    t = tl.full([], 0, tl.uint32)
    done = False
    for s in tl.static_range(KEY_BITS // 2 - 1, -1, -1):
        if not done:
            c1 = t + tl.full([], 1 << (2 * s), tl.uint32)
            c2 = t + tl.full([], 2 << (2 * s), tl.uint32)
            c3 = t + tl.full([], 3 << (2 * s), tl.uint32)
            p12 = (key >= c1).to(tl.int32) + ((key >= c2).to(tl.int32) << 16)
            p12 = tl.sum(tl.sum(p12, axis=0), axis=0)
            n3 = tl.sum(tl.sum((key >= c3).to(tl.int32), axis=0), axis=0)
            n1 = p12 & 0xFFFF
            n2 = (p12 >> 16) & 0xFFFF
            t = tl.where(n3 >= k, c3, tl.where(n2 >= k, c2, tl.where(n1 >= k, c1, t)))
            done = tl.where(n3 >= k, n3, tl.where(n2 >= k, n2, tl.where(n1 >= k, n1, 0))) == k
    return t


@triton.jit
def _kth_key_secant(key, k, L, like, x0, GUESS: tl.constexpr = False):
    """``_kth_key`` by interpolation (``secant.py``) over the registers (padding lanes hold 0, no real key). GUESS
    (float32 rows, ``x0`` the row's first value): the first two probes from the row's moments (``_model_probes``).
    Returns ``(bound, count)``: the count of keys at or above the bound where it is k; else it may be a stale, larger
    count (a search that ends by stepping down to the next key keeps the previous one), so read it only as "== k"."""
    if GUESS:
        lo, top, s1, s2, s3 = secant.min_max_moments(key, key > 0, like, x0)
        lo, top, s1, s2, s3 = secant.fold_min_max_moments(lo, top, s1, s2, s3)
    else:
        lo, top = secant.min_max(key, key > 0)  # padding (0) would be the min
        lo, top = secant.fold_min_max(lo, top)
    lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done = secant.start(lo, top, L, k)
    if GUESS:
        lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done = _model_probes(
            key, k, L, like, x0, s1, s2, s3, lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done)
    while not done:
        p = secant.probe(lo, top, c_lo, c_hi, k, w_lo, w_hi, bad, like, True)
        cnt, lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done = _step(key, p, k, lo, top, c_lo, c_hi, w_lo, w_hi,
                                                                       side, bad)
    return lo, c_lo


@triton.jit
def _step(key, p, k, lo, top, c_lo, c_hi, w_lo, w_hi, side, bad):
    """Count probe ``p`` over the registers and advance the search: ``(count, *state)``."""
    cnt, d_min, d_max = secant.count_near(key, key > 0, p, False)
    cnt, d_min, d_max = secant.fold_near(cnt, d_min, d_max)
    lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done = secant.advance(p, cnt, d_min, d_max, k, lo, top, c_lo, c_hi,
                                                                      w_lo, w_hi, side, bad)
    return cnt, lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done


@triton.jit
def _model_probes(key, k, L, like, x0, s1, s2, s3, lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done):
    """Two probes before the interpolation (session 22, prepared, not timed): the key where a normal distribution
    with the row's mean, deviation and skew puts rank k, then one Newton step on its count with that distribution's
    density. Each is clamped into the bracket and counted like any probe, so the search stays exact whatever the
    row; rows with non-finite or zero spread skip them. A numpy model of the search (randn rows of 4K-8K, k = 2048)
    took 6.9 steps without them and 3.4 with them (sums of ReLU'd products 6.8 -> 3.9, exponential 8.8 -> 4.9,
    integer ties 3.3 either way)."""
    lf = L.to(tl.float32)
    m, sd, skew = secant.fit(s1, s2, s3, 1.0 / lf)
    if (sd > 0.0) & (sd < float("inf")) & (done == 0):
        z = secant.skew_correct(secant.upper_z(k.to(tl.float32) / lf), skew)
        v = x0 + m + sd * z
        p = tl.minimum(tl.maximum(order_key(v.to(like.dtype)), lo + 1), top)
        cnt, lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done = _step(key, p, k, lo, top, c_lo, c_hi, w_lo, w_hi,
                                                                       side, bad)
        if done == 0:
            density = lf * tl.exp(-0.5 * z * z) * 0.3989422804 / sd  # keys per unit value at v
            v = v + ((cnt - k).to(tl.float32) + 0.5) / density
            p = tl.minimum(tl.maximum(order_key(v.to(like.dtype)), lo + 1), top)
            _, lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done = _step(key, p, k, lo, top, c_lo, c_hi, w_lo, w_hi,
                                                                         side, bad)
    return lo, top, c_lo, c_hi, w_lo, w_hi, side, bad, done


@triton.jit
def _emit_reread(base, t, n_above, k, L, row_ptr, orow, out_idx_ptr, out_val_ptr, return_values, req, offset,
                 page_ptr, page_stride, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr, TRANSFORM: tl.constexpr):
    """Step 3 from a second read: each thread walks its own columns (the registers' layout, one 16-byte run a
    step) from its packed exclusive offset ``base`` (above + equal << 16), so every key gets the slot the
    one-pass placement would give it."""
    run = base[None, :]
    tt = tl.arange(0, TH)[None, :]
    vv = tl.arange(0, V)[:, None]
    for a in range(0, A):  # a loop, not unrolled: nothing of it is kept from the bisection's registers
        off = a * (TH * V) + tt * V + vv  # [V, TH]: thread t's run a
        m = off < L
        kk = tl.where(m, order_key(tl.load(row_ptr + off, mask=m, other=0.0)), 0)
        ab = kk > t
        p = ab.to(tl.int32) + ((kk == t).to(tl.int32) << 16)
        r = run + tl.cumsum(p, axis=0) - p
        run += tl.sum(p, axis=0)[None, :]
        r_eq = (r >> 16) & 0xFFFF
        sel = ab | ((kk == t) & (r_eq < k - n_above))
        pos = tl.where(ab, r & 0xFFFF, n_above + r_eq)
        _emit(out_idx_ptr, out_val_ptr, orow, tl.reshape(pos, [V * TH]), tl.reshape(off, [V * TH]),
              tl.reshape(sel, [V * TH]), row_ptr, req, offset, page_ptr, page_stride, return_values, TRANSFORM)


@triton.jit(do_not_specialize=["n", "next_n", "compress_ratio", "k", "return_values", "page_stride", "has_cu",
                               "num_req"])
def resident_kernel(logits_ptr, stride_row, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, k,
                    out_idx_ptr, out_val_ptr, return_values, page_ptr, page_stride, cu_ptr, has_cu, num_req,
                    offsets_ptr,
                    KEY_BITS: tl.constexpr, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr,
                    BLOCK: tl.constexpr, TRANSFORM: tl.constexpr, HAS_STARTS: tl.constexpr, SB: tl.constexpr = 1,
                    REREAD: tl.constexpr = False, SECANT: tl.constexpr = False, GUESS: tl.constexpr = False,
                    ONE_SCAN: tl.constexpr = False, SU: tl.constexpr = 1):
    """Row ``program_id(0)``: its k output slots. TRANSFORM: 0 none, 1 page_table, 2 ragged. The window must
    fit the program (``L <= A x V x TH``, which ``launch`` guarantees by ``n``); BLOCK is the short-row fill's
    lane count. SB: key bits per bisection step (1 or 2); SECANT: the k-th key by interpolation
    (``_kth_key_secant``) instead. REREAD: the slots placed from a second read of the row
    (L1/L2), ``V`` columns per thread at a time, so that no per-key state but the keys lives in registers. GUESS
    (with SECANT): the search's first two probes from the row's moments (``_model_probes``). ONE_SCAN (with SECANT,
    not REREAD): where the search ends with exactly k keys at or above its bound (no ties to split, the usual end),
    the slots come from one scan of those keys, without the count of the keys above the bound."""
    b = tl.program_id(0)
    lane, L, row_ptr, orow, req, offset, _ = _select_row_setup(
        b, logits_ptr, stride_row, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, k, cu_ptr, has_cu, num_req,
        offsets_ptr, BLOCK, TRANSFORM, HAS_STARTS, SU)
    if L <= k:
        _fill_short_row(L, k, orow, row_ptr, lane, req, offset, page_ptr, page_stride, out_idx_ptr, out_val_ptr,
                        return_values, BLOCK, TRANSFORM)
    else:
        N: tl.constexpr = A * V * TH
        j, x = _load_row(row_ptr, L, A, V, TH)
        key = tl.where(j < L, order_key(x), 0)  # the lowest real key is -inf's, above 0
        if SECANT:
            if GUESS:
                x0 = tl.load(row_ptr).to(tl.float32)
            else:
                x0 = 0.0
            t, c_t = _kth_key_secant(key, k, L, x, x0, GUESS)
        elif SB == 2:
            t = _kth_key2(key, k, KEY_BITS)
            c_t = 0  # the bisections keep no count: the packed placement
        else:
            t = _kth_key(key, k, KEY_BITS)
            c_t = 0
        if ONE_SCAN and SECANT and not REREAD and c_t == k:  # every key at or above t, in scan order
            ge = (key >= t).to(tl.int32)
            rank = _list_ranks(ge, tl.sum(ge, axis=0))
            _emit(out_idx_ptr, out_val_ptr, orow, tl.reshape(rank, [N]), tl.reshape(j, [N]),
                  tl.reshape(ge != 0, [N]), row_ptr, req, offset, page_ptr, page_stride, return_values, TRANSFORM)
        else:
            _place_bound(key, t, k, j, L, row_ptr, orow, out_idx_ptr, out_val_ptr, return_values, req, offset,
                         page_ptr, page_stride, A, V, TH, TRANSFORM, REREAD)


@triton.jit
def _list_ranks(f, cnt):
    """Exclusive running sums of ``f`` (``[R, TH]``, a list per thread; ``cnt`` its per-thread sums) in list
    order, thread by thread."""
    return (tl.cumsum(cnt, axis=0) - cnt)[None, :] + tl.cumsum(f, axis=0) - f


@triton.jit
def _place_bound(key, t, k, j, L, row_ptr, orow, out_idx_ptr, out_val_ptr, return_values, req, offset, page_ptr,
                 page_stride, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr, TRANSFORM: tl.constexpr,
                 REREAD: tl.constexpr):
    """Step 3: every key above ``t`` and the first ``k - above`` keys equal to it to the k slots (one packed scan;
    REREAD: from a second read of the row)."""
    N: tl.constexpr = A * V * TH
    above = (key > t).to(tl.int32)
    packed = above + ((key == t).to(tl.int32) << 16)  # fields stay below 2**16 (N <= 32768)
    cnt = tl.sum(packed, axis=0)  # per thread
    n_above = tl.sum(cnt, axis=0) & 0xFFFF
    if REREAD:
        _emit_reread(tl.cumsum(cnt, axis=0) - cnt, t, n_above, k, L, row_ptr, orow, out_idx_ptr, out_val_ptr,
                     return_values, req, offset, page_ptr, page_stride, A, V, TH, TRANSFORM)
    else:
        rank = _list_ranks(packed, cnt)
        r_above = rank & 0xFFFF
        r_eq = (rank >> 16) & 0xFFFF
        # Flat stores: a 2-D store of scattered addresses would be re-laid out through shared memory.
        is_above = tl.reshape(above != 0, [N])
        r_eq = tl.reshape(r_eq, [N])
        sel = is_above | (tl.reshape((packed >> 16) != 0, [N]) & (r_eq < k - n_above))
        pos = tl.where(is_above, tl.reshape(r_above, [N]), n_above + r_eq)
        _emit(out_idx_ptr, out_val_ptr, orow, pos, tl.reshape(j, [N]), sel, row_ptr, req, offset, page_ptr,
              page_stride, return_values, TRANSFORM)
