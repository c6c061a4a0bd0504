"""The exact candidate select by bisection on the key bits (``_select_bisect``), shared by the warp path
(``warp.py``: candidates as order keys) and the two-launch path's select (``split.select_kernel``: the values' bits,
``RAW``). One compare and one sum per candidate per bit, no histogram; it stops as soon as exactly the keys still
needed are at or above the bound. ``SB = 0``: the bound by interpolation instead (``_secant_rel``, session 19).
Also the sampled bracket by bisection (``_bracket_bisect``), the warp path's and (``SplitConfig.bracket_bits``) the
two-launch filter's."""

from __future__ import annotations

import triton
import triton.language as tl

from topk_core.kernels.triton_common import order_key

from . import secant
from .kernel import _cand_chunk, _emit_chunk, _packed_cand, _scratch_key


@triton.jit
def _rel_keys(off, lane, n_cand, buf_key, lo, row_ptr, RAW: tl.constexpr):
    """Candidate keys ``off ..`` relative to ``lo``, no columns (RAW 1: scratch holds value bits; 2: packed words,
    ``kernel._packed_cand``)."""
    i = off + lane
    m = i < n_cand
    if RAW == 2:
        key, _ = _packed_cand(buf_key, i, m)
        return key - lo, m
    return _scratch_key(tl.load(buf_key + i, mask=m, other=0), row_ptr, RAW) - lo, m


@triton.jit
def _count_ge(c, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK: tl.constexpr, RAW: tl.constexpr):
    """How many candidates have a relative key ``>= c`` (the first chunk from registers)."""
    cnt = tl.sum((m0 & (key0 >= c)).to(tl.int32), axis=0)
    for off in range(CBLOCK, n_cand, CBLOCK):
        key, m = _rel_keys(off, lane, n_cand, buf_key, lo, row_ptr, RAW)
        cnt += tl.sum((m & (key >= c)).to(tl.int32), axis=0)
    return cnt


@triton.jit
def _count_ge_multi(c, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK: tl.constexpr, RAW: tl.constexpr):
    """``_count_ge`` for a vector of thresholds ``c`` at once (``[CBLOCK, len(c)]`` compares,
    one reduction per chunk)."""
    cnt = tl.sum((m0[:, None] & (key0[:, None] >= c[None, :])).to(tl.int32), axis=0)
    for off in range(CBLOCK, n_cand, CBLOCK):
        key, m = _rel_keys(off, lane, n_cand, buf_key, lo, row_ptr, RAW)
        cnt += tl.sum((m[:, None] & (key[:, None] >= c[None, :])).to(tl.int32), axis=0)
    return cnt


@triton.jit
def _pack3(key, m, t, sh):
    """Per lane, ``key >= t + (j << sh)`` for j = 1, 2, 3 as 21-bit fields of one int64 (``_count3``)."""
    one = tl.full([], 1, tl.uint32) << sh
    w = (m & (key >= t + one)).to(tl.int64)
    w += (m & (key >= t + 2 * one)).to(tl.int64) << 21
    w += (m & (key >= t + 3 * one)).to(tl.int64) << 42
    return w


@triton.jit
def _count3(t, sh, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK: tl.constexpr, RAW: tl.constexpr):
    """The counts of candidates ``>= t + (j << sh)``, j = 1, 2, 3, in one reduction per chunk: 21-bit fields of one
    int64 (the warp path's caps keep ``n_cand`` below 2**21, ``launch.warp_cap``; the two-launch select's lists are
    bounded by its cap). ``t`` has no bits below ``sh + 2``, so the thresholds do not wrap."""
    cnt = tl.sum(_pack3(key0, m0, t, sh), axis=0)
    for off in range(CBLOCK, n_cand, CBLOCK):
        key, m = _rel_keys(off, lane, n_cand, buf_key, lo, row_ptr, RAW)
        cnt += tl.sum(_pack3(key, m, t, sh), axis=0)
    return cnt


@triton.jit
def _near_all(p, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK: tl.constexpr, RAW: tl.constexpr):
    """``secant.count_near`` over all the candidates (the first chunk from registers)."""
    cnt, d_min, d_max = secant.count_near(key0, m0, p)
    for off in range(CBLOCK, n_cand, CBLOCK):
        key, m = _rel_keys(off, lane, n_cand, buf_key, lo, row_ptr, RAW)
        c1, a1, b1 = secant.count_near(key, m, p)
        cnt += c1
        d_min = tl.minimum(d_min, a1)
        d_max = tl.maximum(d_max, b1)
    return cnt, d_min, d_max


@triton.jit
def _secant_rel(rem, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK: tl.constexpr, RAW: tl.constexpr):
    """The rem-th largest relative key of the candidates, or a key with exactly ``rem`` at or above it, by
    interpolation (``secant.py``) on the keys: a bracket of candidates is narrow, where keys are about linear in
    the values. ~5 steps on randn candidates against ~11 for bisection, 3 on integer ties against ~21 (CPU model)."""
    b_lo, b_top = secant.min_max(key0, m0)
    for off in range(CBLOCK, n_cand, CBLOCK):
        key, m = _rel_keys(off, lane, n_cand, buf_key, lo, row_ptr, RAW)
        a1, b1 = secant.min_max(key, m)
        b_lo = tl.minimum(b_lo, a1)
        b_top = tl.maximum(b_top, b1)
    b_lo, b_top, c_lo, c_hi, w_lo, w_hi, side, bad, done = secant.start(b_lo, b_top, n_cand, rem)
    while not done:
        p = secant.probe(b_lo, b_top, c_lo, c_hi, rem, w_lo, w_hi, bad, key0, False)
        cnt, d_min, d_max = _near_all(p, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK, RAW)
        b_lo, b_top, c_lo, c_hi, w_lo, w_hi, side, bad, done = secant.advance(p, cnt, d_min, d_max, rem, b_lo, b_top,
                                                                              c_lo, c_hi, w_lo, w_hi, side, bad)
    return b_lo


@triton.jit
def _select_bisect(n_out, rem, lo, hi, n_cand, k, buf_key, buf_idx, row_ptr, orow, out_idx_ptr, out_val_ptr,
                   req, offset, page_ptr, page_stride, return_values,
                   CBLOCK: tl.constexpr, TRANSFORM: tl.constexpr, SB: tl.constexpr = 1, RAW: tl.constexpr = False,
                   ALL: tl.constexpr = False, EMIT_DONE: tl.constexpr = False, PE: tl.constexpr = False,
                   K0: tl.constexpr = False):
    """``kernel._select_cands`` by bisection on ``key - lo`` (one bit per step: a compare and a
    sum per candidate, no histogram), stopping as soon as the keys ``>= t`` are exactly ``rem``:
    emits the ``rem`` largest of the ``n_cand`` candidates to slots ``[n_out, k)``. SB > 1:
    ``SB`` bits per step (``32 / SB`` steps at most, 2 or 4), each counting against the ``2**SB``
    thresholds ``t + j << shift`` at once (2: three counts packed into one reduction, ``_count3``); 0: by
    interpolation (``_secant_rel``). RAW: scratch holds the values'
    bits (``split.select_kernel``). ALL (``warp.py``'s all_cands): the candidates also hold the keys above ``hi``
    (the sure keys; ``n_out`` is 0 and ``rem`` is k); they are counted first, and more than ``rem`` of them returns
    False having written nothing (the caller's exact path settles the row). Returns True otherwise. EMIT_DONE:
    see ``_select_from``. PE (page table, TRANSFORM 1): the first chunk's page entries are gathered here, before
    the search, and its slots written from them. K0: the first chunk's columns are kept from its first load and its
    slots written from the registers, not re-read from scratch (PE implies it)."""
    lane = tl.arange(0, CBLOCK)
    if PE or K0:
        key0, col0, m0 = _cand_chunk(0, lane, n_cand, buf_key, buf_idx, lo, row_ptr, RAW)
        if PE:  # (ptxas issues these loads before the search: sm_90a SASS, session 34)
            pg0 = tl.load(page_ptr + req * page_stride + col0, mask=m0, other=-1)
        else:
            pg0 = None
    else:
        key0, m0 = _rel_keys(0, lane, n_cand, buf_key, lo, row_ptr, RAW)
        col0, pg0 = None, None
    diff = hi - lo
    ok = True
    if ALL:  # (diff + 1 wraps only when hi is the top key: no key is above it)
        n_above = _count_ge(diff + 1, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK, RAW)
        ok = (diff == 0xFFFFFFFF) | (n_above <= rem)
    if ok:
        _select_from(n_out, rem, lo, diff, n_cand, k, key0, m0, lane, buf_key, buf_idx, row_ptr, orow, out_idx_ptr,
                     out_val_ptr, req, offset, page_ptr, page_stride, return_values, CBLOCK, TRANSFORM, SB, RAW,
                     EMIT_DONE, PE or K0, col0, pg0)
    return ok


@triton.jit
def _select_from(n_out, rem, lo, diff, n_cand, k, key0, m0, lane, buf_key, buf_idx, row_ptr, orow, out_idx_ptr,
                 out_val_ptr, req, offset, page_ptr, page_stride, return_values,
                 CBLOCK: tl.constexpr, TRANSFORM: tl.constexpr, SB: tl.constexpr, RAW: tl.constexpr,
                 EMIT_DONE: tl.constexpr = False, K0: tl.constexpr = False, col0=None, pg0=None):
    """``_select_bisect`` after its first chunk is loaded (``key0``, ``m0``; ``diff = hi - lo``). EMIT_DONE: a search
    that ended with exactly ``rem`` keys at or above its bound emits them without counting the keys above it. K0: the
    first chunk's columns ``col0`` (and, not None, its output indices ``pg0``) are in registers; its slots are written
    from them."""
    t = tl.full([], 0, tl.uint32)  # count(key >= t) >= rem holds throughout
    done = False
    if SB == 0:
        t = _secant_rel(rem, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK, RAW)
    elif SB == 1:
        for bit in tl.static_range(31, -1, -1):
            c = t | tl.full([], 1 << bit, tl.uint32)
            if not done:
                if c <= diff:
                    cnt = _count_ge(c, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK, RAW)
                    t = tl.where(cnt >= rem, c, t)
                    done = cnt == rem
    elif SB == 2:  # three thresholds per step, packed into one reduction (session 32)
        for s in tl.static_range(15, -1, -1):
            if not done:
                # thresholds above diff count only keys above hi (ALL), at most rem of them: skip the step when all
                # j >= 1 are
                if (t | tl.full([], 1 << (2 * s), tl.uint32)) <= diff:
                    cnt = _count3(t, 2 * s, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK, RAW)
                    c1 = (cnt & 0x1FFFFF).to(tl.int32)
                    c2 = ((cnt >> 21) & 0x1FFFFF).to(tl.int32)
                    c3 = (cnt >> 42).to(tl.int32)
                    jb = (c1 >= rem).to(tl.int32) + (c2 >= rem).to(tl.int32) + (c3 >= rem).to(tl.int32)
                    t = t + (jb.to(tl.uint32) << (2 * s))
                    cj = tl.where(jb == 3, c3, tl.where(jb == 2, c2, c1))
                    done = (jb > 0) & (cj == rem)
    else:
        jr = tl.arange(0, 1 << SB).to(tl.uint32)
        for s in tl.static_range(32 // SB - 1, -1, -1):
            if not done:
                # thresholds above diff count 0 (keys are <= diff): skip the step when all j >= 1 are
                if (t | tl.full([], 1 << (s * SB), tl.uint32)) <= diff:
                    cnt = _count_ge_multi(t + (jr << (s * SB)), key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK,
                                          RAW)
                    ok = cnt >= rem  # non-increasing in j; j = 0 (t itself) always holds
                    jb = tl.sum(ok.to(tl.int32), axis=0) - 1
                    t = t + (jb.to(tl.uint32) << (s * SB))
                    done = tl.sum(tl.where(jr == jb.to(tl.uint32), cnt, 0), axis=0) == rem
    # t is the rem-th largest relative key, or (done) a bound with exactly rem keys >= t.
    # EMIT_DONE, done with t >= 1: every key >= t, as the keys above t - 1 (no ties taken), without counting
    count_above = True
    prefix = t
    rem_tie = rem * 0
    if EMIT_DONE:
        count_above = (not done) | (t == 0)
        prefix = t - 1
    if count_above:
        prefix = t
        gt = _count_ge(t + 1, key0, m0, n_cand, buf_key, lo, lane, row_ptr, CBLOCK, RAW)
        gt = tl.where(t == 0xFFFFFFFF, 0, gt)  # t + 1 wraps only when t is the top key
        rem_tie = rem - gt
    n_tie = 0
    first = 0
    if K0:
        n_out, n_tie = _emit_chunk(key0, prefix, m0, col0, n_out, n_tie, k, rem_tie, orow, out_idx_ptr, out_val_ptr,
                                   row_ptr, req, offset, page_ptr, page_stride, return_values, TRANSFORM, pg0)
        first = CBLOCK
    for off in range(first, n_cand, CBLOCK):
        key, col, m = _cand_chunk(off, lane, n_cand, buf_key, buf_idx, lo, row_ptr, RAW)
        n_out, n_tie = _emit_chunk(key, prefix, m, col, n_out, n_tie, k, rem_tie, orow, out_idx_ptr, out_val_ptr,
                                   row_ptr, req, offset, page_ptr, page_stride, return_values, TRANSFORM)


@triton.jit
def _bracket_bisect(row_ptr, L, k, KEY_BITS: tl.constexpr, SAMPLE: tl.constexpr, BB: tl.constexpr = 1,
                    PB: tl.constexpr = 16, GUESS: tl.constexpr = 0.0, SRUN: tl.constexpr = 1,
                    SVEC: tl.constexpr = False, X0E: tl.constexpr = False):
    """``kernel._bracket``'s bracket (same sample, ranks and 16-bit bounds) by bisection on
    the top 16 key bits (``PB``): 16 steps of one packed count over the sample (a reduction; warp-local
    with one warp), instead of two histograms (ballots per bin bit, ~255 registers at 1024
    samples in one warp). BB > 1: ``BB`` bits per step (16 / BB steps), each counting the
    sample against ``2**BB`` prefixes at once (a ``[SAMPLE, 2**BB]`` compare, one reduction).
    PB < 16 (with BB = 1): bounds on the top ``PB`` key bits, PB steps; the bracket contains the 16-bit one
    (coarser prefixes only widen it), and the sample's rank margin is already much wider than a 12-bit bin.
    GUESS > 0: first the bounds guessed from the sample's moments (``_bracket_guess`` with that slack, two
    reductions); the bisection runs only when the sample rejects them. SRUN: the sample in runs of that many
    adjacent columns, SVEC: each run loaded as vectors (``_sample``)."""
    tl.static_assert(PB == 16 or BB == 1, "bracket prefix bits below 16 need one bit per step")
    SH1: tl.constexpr = KEY_BITS - PB
    x0 = 0.0
    if X0E and GUESS > 0:  # the guess's pivot loaded beside the sample, not after its keys and the range check
        x0 = tl.load(row_ptr, volatile=True).to(tl.float32)  # volatile: not sunk into the branch that uses it
    xs = _sample(row_ptr, L, SAMPLE, SRUN, SVEC)
    key = order_key(xs)
    k16 = (key >> SH1).to(tl.int32)
    r_lo, r_hi = _sample_ranks(L, k, SAMPLE)
    if GUESS > 0:
        lo = tl.full([], 0, tl.uint32)
        hi = tl.full([], (1 << KEY_BITS) - 1, tl.uint32)
        ok = r_lo < 0  # False, as a tensor
        # r_lo within the sample, any r_hi (session 31); r_lo >= 1 always holds, but this form of the guard leaves
        # the 32x128K filter without spills at its 128-register cap (NOTES.md, session 31)
        if (r_lo >= 1) & (r_lo <= SAMPLE):
            if not X0E:
                x0 = tl.load(row_ptr).to(tl.float32)
            ok, lo, hi = _bracket_guess(xs, key, x0, r_lo, r_hi, SAMPLE, GUESS)
        if not ok:
            lo, hi = _bracket_search(k16, r_lo, r_hi, KEY_BITS, SAMPLE, BB, PB)
    else:
        lo, hi = _bracket_search(k16, r_lo, r_hi, KEY_BITS, SAMPLE, BB, PB)
    return lo, hi


@triton.jit
def _sample(row_ptr, L, SAMPLE: tl.constexpr, RUN: tl.constexpr = 1, VEC: tl.constexpr = False):
    """``SAMPLE`` values of the row's first ``L`` columns: evenly spaced, or (RUN > 1) in ``SAMPLE / RUN`` evenly
    spaced runs of ``RUN`` adjacent columns, each run starting on a multiple of RUN. A sample denser than one value
    per 32-byte sector reads every sector of the row from DRAM; runs of 8 float32 values read one sector each.
    VEC (RUN > 1): each run loaded as ``[runs, RUN]`` (16-byte loads on aligned rows, not one load per value; the
    last runs moved back inside the row, every run masked off when ``L < RUN``), in any order (callers only count
    and sum the sample)."""
    if VEC and RUN > 1:
        NR: tl.constexpr = SAMPLE // RUN
        run = tl.arange(0, NR)
        first = ((run.to(tl.float32) + 0.5) * (L.to(tl.float32) / NR)).to(tl.int32)
        first = tl.maximum(tl.minimum((first // RUN) * RUN, ((L - RUN) // RUN) * RUN), 0)
        first = tl.multiple_of(first, RUN)
        pos = first[:, None] + tl.arange(0, RUN)[None, :]
        x = tl.load(row_ptr + pos, mask=(first + RUN <= L)[:, None], other=0.0)
        return tl.reshape(x, [SAMPLE], can_reorder=True)
    i = tl.arange(0, SAMPLE)
    if RUN == 1:
        pos = ((i.to(tl.float32) + 0.5) * (L.to(tl.float32) / SAMPLE)).to(tl.int32)
    else:
        run = i // RUN
        start = ((run.to(tl.float32) + 0.5) * (L.to(tl.float32) / (SAMPLE // RUN))).to(tl.int32)
        pos = (start // RUN) * RUN + i % RUN
    pos = tl.minimum(tl.maximum(pos, 0), L - 1)
    return tl.load(row_ptr + pos)


@triton.jit
def _sample_ranks(L, k, SAMPLE: tl.constexpr):
    """The bracket's sample ranks ``(r_lo, r_hi)``: ``p S -+ (5 sigma + 2)`` for ``p = k / L``."""
    p = k.to(tl.float32) / L.to(tl.float32)
    mid = p * SAMPLE
    margin = 5.0 * tl.sqrt(tl.maximum(mid * (1.0 - p), 0.0)) + 2.0
    r_hi = (mid - margin).to(tl.int32)  # truncation: < 1 means no sure keys
    r_lo = (mid + margin).to(tl.int32) + 1
    return r_lo, r_hi


@triton.jit
def _bracket_search(k16, r_lo, r_hi, KEY_BITS: tl.constexpr, SAMPLE: tl.constexpr, BB: tl.constexpr,
                    PB: tl.constexpr):
    """``_bracket_bisect``'s bounds by bisection over the sample's ``PB``-bit key prefixes ``k16``."""
    SH1: tl.constexpr = KEY_BITS - PB
    t_lo = tl.zeros([], dtype=tl.int32)  # the PB-bit prefix of the r_lo-th largest sample key
    t_hi = tl.zeros([], dtype=tl.int32)  # ... of the r_hi-th
    if BB == 1:
        for bit in tl.static_range(PB - 1, -1, -1):
            c_lo = t_lo | (1 << bit)
            c_hi = t_hi | (1 << bit)
            cnt = tl.sum((k16 >= c_lo).to(tl.int32) + ((k16 >= c_hi).to(tl.int32) << 16), axis=0)
            t_lo = tl.where((cnt & 0xFFFF) >= r_lo, c_lo, t_lo)
            t_hi = tl.where((cnt >> 16) >= r_hi, c_hi, t_hi)
    else:
        jr = tl.arange(0, 1 << BB)
        for s in tl.static_range(16 // BB - 1, -1, -1):
            c_lo = t_lo + (jr << (s * BB))  # [2**BB] prefixes; j = 0 is t itself
            c_hi = t_hi + (jr << (s * BB))
            ge = (k16[:, None] >= c_lo[None, :]).to(tl.int32) + ((k16[:, None] >= c_hi[None, :]).to(tl.int32) << 16)
            cnt = tl.sum(ge, axis=0)  # [2**BB], non-increasing in j
            # the largest j whose count still reaches the rank (j = 0 when none does: t stays)
            t_lo += tl.maximum(tl.sum(((cnt & 0xFFFF) >= r_lo).to(tl.int32), axis=0) - 1, 0) << (s * BB)
            t_hi += tl.maximum(tl.sum(((cnt >> 16) >= r_hi).to(tl.int32), axis=0) - 1, 0) << (s * BB)
    lo = tl.full([], 0, tl.uint32)
    hi = tl.full([], (1 << KEY_BITS) - 1, tl.uint32)
    if r_lo <= SAMPLE:
        lo = t_lo.to(tl.uint32) << SH1
    if r_hi >= 1:
        hi = ((t_hi + 1).to(tl.uint32) << SH1) - 1  # wraps to the top key
    return lo, hi


@triton.jit
def _bracket_guess(xs, key, x0, r_lo, r_hi, SAMPLE: tl.constexpr, SLACK: tl.constexpr):
    """``(ok, lo, hi)``: keys at the sample's ranks ``r_lo + SLACK sqrt(r_lo)`` and ``r_hi - SLACK sqrt(r_hi)`` as a
    skewed normal fitted to the sample would put them (mean, deviation and skew from one reduction of the
    differences to ``x0``; Cornish-Fisher to the skew), then one packed count of the sample checks them: ``ok``
    when at least ``r_lo`` sample keys are ``>= lo``, fewer than ``r_hi`` are ``> hi`` (what the bisection's
    bounds give) and the bracket holds at most twice the bisection's ranks. Non-finite moments (NaN, inf, overflow)
    give bounds the check rejects. Only speed depends on it, like the rest of the bracket.
    ``r_hi < 1`` (k a small share of the row: no sure keys): ``hi`` is the top key, as the bisection gives it, and
    only ``lo`` is checked (session 31; before, such rows were always rejected and bisected too)."""
    s1, s2, s3 = secant.moment_sums(xs, x0)
    inv = 1.0 / SAMPLE
    m, sd, skew = secant.fit(s1, s2, s3, inv)
    f_lo = r_lo.to(tl.float32)
    f_hi = tl.maximum(r_hi, 1).to(tl.float32)
    z_lo = secant.upper_z((f_lo + SLACK * tl.sqrt(f_lo)) * inv)
    z_hi = secant.upper_z(tl.maximum(f_hi - SLACK * tl.sqrt(f_hi), 0.5) * inv)
    z_lo = secant.skew_correct(z_lo, skew)  # after both quantiles: the statement order of the measured build
    z_hi = secant.skew_correct(z_hi, skew)
    lo = order_key((x0 + m + sd * z_lo).to(xs.dtype))
    hi = order_key((x0 + m + sd * z_hi).to(xs.dtype))
    if xs.dtype == tl.float32:
        top = tl.full([], 0xFFFFFFFF, tl.uint32)
    else:
        top = tl.full([], 0xFFFF, tl.uint32)
    hi = tl.where(r_hi < 1, top, hi)  # no key is above it: the check below holds with max(r_hi, 1)
    cnt = tl.sum((key >= lo).to(tl.int32) + ((key > hi).to(tl.int32) << 16), axis=0)  # SAMPLE < 2**16
    c_lo = cnt & 0xFFFF
    c_hi = cnt >> 16
    ok = (c_lo >= r_lo) & (c_hi < tl.maximum(r_hi, 1)) & (c_lo - c_hi <= 2 * (r_lo - r_hi))
    return ok, lo, hi
