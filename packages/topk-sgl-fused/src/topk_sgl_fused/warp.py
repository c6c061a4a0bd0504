"""One launch, one small program per row: the ``WarpConfig`` path of ``sgl_fused``.

Program ``b`` (``num_warps`` = ``TH / 32``: 4-16 where ``launch.pick_warp`` picks it, fewer the
more rows there are, so that several rows share an SM and one row's latency chain hides
behind the others'; block steps of a one-warp program are warp-local) does the whole row:

1. ``L``, the window and the transform operands as the other paths (``split._row_window``,
   ``kernel._row_transform``); rows with ``L <= k`` are written directly
   (``kernel._fill_short_row``).
2. A sampled bracket ``[lo, hi]`` (``_bracket_bisect``: ``kernel._bracket``'s ranks
   ``p S -+ (5 sigma + 2)`` and 16-bit bounds, by bisection); exactness never depends on it.
3. One read of the row in tiles of ``A x V x TH`` columns (16-byte loads, full tiles
   unmasked, the next tile's load issued before this one is used; ``split._load_tile``).
   Each tile is classified (``split._classify``: float compares for float32), one packed scan
   of the per-thread counts (sure + cand << 16) plus in-thread running counts give every key
   its slot: "sure" keys (above ``hi``) go straight to the output through the transform
   (values from registers, as bits), bracket keys (order key, column) to the row's candidate
   scratch (``cap`` entries). With ``all_cands`` (``WarpConfig.all_cands``) there is no sure list: every key at or
   above ``lo`` is a packed candidate (``_classify_all``, ``_place_all``: a third fewer instructions per key).
4. If ``sure <= k <= sure + cand`` and ``cand <= cap``: the ``k - sure`` largest candidates,
   exactly (``_select_bisect``, or with BISECT off ``kernel._select_cands``: 8-bit digits),
   through the transform; with LATE the page table goes over the k slots at the end instead.
   Otherwise the exact two-pass path (``kernel._exact_row``) rewrites every slot of the row:
   plateaus, all-equal rows, NaN and +-inf stay exact whatever the bracket did.

Scratch: per row ``cap`` candidate keys and ``cap`` columns (int32), written before read, so
it needs no zeroing (graph replays are safe). Exact under TRITON_INTERPRET=1
(``tests/test_warp.py``); compiled for sm_90 in CI (``tests/test_compile_sm90.py``); timed
against the default by ``shared/device/sgl10_bench.py``.
"""

from __future__ import annotations

import triton
import triton.language as tl

from topk_core.kernels.triton_common import order_key

from .bisect_select import _bracket_bisect, _select_bisect
from .kernel import _exact_row, _fill_short_row, _late_page, _row_transform, _select_cands, _transform
from .row_order import ordered_row
from .split import (
    _as_lists,
    _classify,
    _fp32_bounds,
    _load_tile,
    _page_tile,
    _raw_bits,
    _select_row_setup,
    _stream_base,
    _tile_mask,
    _tile_offsets,
)


@triton.jit
def warp_region_cap(cap, W: tl.constexpr):
    """WR: each warp region's candidates before it stops storing: a fair share of the row's list (about twice the
    expected, ``launch.warp_cap``; each warp's columns are stripes spread over the row)."""
    return cap // W


@triton.jit
def warp_sure_cap(k, W: tl.constexpr):
    """WR without ALLC: each warp's sure region before it stops storing: twice a fair share of the k slots."""
    return (2 * k) // W


@triton.jit
def warp_row_words(cap, k, W: tl.constexpr, R: tl.constexpr, ALLC: tl.constexpr):
    """WR: a row's scratch in 32-bit words: its list of ``cap`` packed words, ``W`` candidate regions of
    ``warp_region_cap`` packed words and a warp's tile of slack each, and without ALLC ``W`` sure regions of
    ``warp_sure_cap`` columns and a tile of slack each (``launch.warp_scratch_words`` on the host)."""
    words = 2 * (cap + W * (warp_region_cap(cap, W) + R * 32))
    if not ALLC:
        words += W * (warp_sure_cap(k, W) + R * 32)
    return words


@triton.jit
def _store_packed(buf_key, slot, ckey, ref, mask):
    """Candidates as one 64-bit scratch word each, order key << 32 | column (or page entry), both halves
    zero-extended (read back by ``kernel._packed_cand``)."""
    word = (ckey.to(tl.int64) << 32) | ref.to(tl.uint32, bitcast=True).to(tl.int64)
    tl.store(buf_key.to(tl.pointer_type(tl.int64)) + slot, word, mask=mask)


@triton.jit
def _place(j, x, sure, cand, n_s, n_c, k, cap, orow, out_idx_ptr, out_val_ptr, return_values, buf_key, buf_idx,
           req, offset, page_ptr, page_stride, N: tl.constexpr, TRANSFORM: tl.constexpr, PACK: tl.constexpr = False,
           pg=None, PSTREAM: tl.constexpr = False):
    """Slots for one classified tile (``[R, TH]``, a list per thread): sure columns to the
    output from slot ``n_s`` (transformed), candidates to scratch from
    ``n_c``. One packed scan over the threads, in-thread running counts for the rest. PACK: each candidate as one
    64-bit word (key << 32 | column, ``kernel._packed_cand``), one store instead of two. PSTREAM: ``pg`` holds the
    tile's page-table entries (loaded with it): sure keys write them, candidates carry them in place of columns."""
    cnt = tl.sum(sure + (cand << 16), axis=0)  # per thread; a tile has < 65536 columns
    excl = tl.cumsum(cnt, axis=0) - cnt
    s_slot = (n_s + (excl & 0xFFFF))[None, :] + tl.cumsum(sure, axis=0) - sure
    c_slot = (n_c + (excl >> 16))[None, :] + tl.cumsum(cand, axis=0) - cand
    # Flat stores: a 2-D store of scattered addresses would be re-laid out through shared memory.
    s_slot = tl.reshape(s_slot, [N])
    c_slot = tl.reshape(c_slot, [N])
    jf = tl.reshape(j, [N])
    s_on = tl.reshape(sure != 0, [N]) & (s_slot < k)
    c_on = tl.reshape(cand != 0, [N]) & (c_slot < cap)
    if PSTREAM:
        ref = tl.reshape(pg, [N])  # what the output and the candidates carry: page entries, not columns
        dst = ref
    else:
        ref = jf
        dst = _transform(jf, s_on, req, offset, page_ptr, page_stride, TRANSFORM)
    tl.store(out_idx_ptr + orow + s_slot, dst, mask=s_on)
    if return_values:  # from registers, as bits
        bits = tl.reshape(_raw_bits(x), [N])
        if x.dtype == tl.float32:
            tl.store(out_val_ptr.to(tl.pointer_type(tl.int32)) + orow + s_slot, bits, mask=s_on)
        else:
            tl.store(out_val_ptr.to(tl.pointer_type(tl.int16)) + orow + s_slot, bits.to(tl.int16), mask=s_on)
    # no candidate is a NaN (split._classify)
    ckey = tl.reshape(order_key(x, NAN_FREE=True), [N])
    if PACK:
        _store_packed(buf_key, c_slot, ckey, ref, c_on)
    else:
        tl.store(buf_key + c_slot, ckey.to(tl.int32, bitcast=True), mask=c_on)
        tl.store(buf_idx + c_slot, ref, mask=c_on)
    tot = tl.sum(cnt, axis=0)
    return n_s + (tot & 0xFFFF), n_c + (tot >> 16)


@triton.jit
def _classify_all(x, j, end, lo, f_lo, MASKED: tl.constexpr, HEAD: tl.constexpr = False, low=0):
    """ALLC's classify: every key at or above ``lo`` (float32: ``x >= f_lo``, or a NaN, whose key is on top) is a
    candidate; one compare per key. (A NaN ``f_lo``, lo above +inf's key, keeps every key: the cap check then sends
    the row to the exact path.)"""
    m = _tile_mask(j, end, MASKED, HEAD, low)
    if x.dtype == tl.float32:
        cand = m & ~(x < f_lo)
    else:
        cand = m & (order_key(x) >= lo)
    return cand.to(tl.int32)


@triton.jit
def _place_all(j, x, cand, n_c, cap, buf_key, N: tl.constexpr, pg=None, PSTREAM: tl.constexpr = False):
    """ALLC's ``_place``: candidates only, each one packed word (order key << 32 | column, or its page entry with
    PSTREAM) from slot ``n_c``; one scan over the threads, in-thread running counts for the rest. ``cap`` is the
    scratch's entries less one tile (``WarpConfig.all_cands``' cap has that slack), so a tile that starts at most
    ``cap`` stores unchecked; past it nothing is stored and the row fails the caller's ``n_c <= cap``."""
    cnt = tl.sum(cand, axis=0)
    if n_c <= cap:
        c_slot = (n_c + tl.cumsum(cnt, axis=0) - cnt)[None, :] + tl.cumsum(cand, axis=0) - cand
        c_slot = tl.reshape(c_slot, [N])
        if PSTREAM:
            ref = tl.reshape(pg, [N])
        else:
            ref = tl.reshape(j, [N])
        ckey = tl.reshape(order_key(x), [N])  # NaNs are candidates here: their key is the top one
        _store_packed(buf_key, c_slot, ckey, ref, tl.reshape(cand != 0, [N]))
    return n_c + tl.sum(cnt, axis=0)


@triton.jit
def _place_all_warps(j, x, cand, n_w, cap_w, region, R: tl.constexpr, TH: tl.constexpr, pg=None,
                     PSTREAM: tl.constexpr = False):
    """WR's ``_place_all``: each warp appends its candidates to a region of its own (``region + w * (cap_w + R *
    32)`` packed words), so the slots come from in-warp scans and sums alone: no block-wide scan, no barrier in the
    stream. ``n_w`` (``[W]``): each region's count; a warp whose count is past ``cap_w`` stores nothing more (a
    warp's tile of slack past ``cap_w``), and the caller's overflow check sends the row to the exact path."""
    W: tl.constexpr = TH // 32
    cnt = tl.reshape(tl.sum(cand, axis=0), [W, 32])  # per thread, a row per warp (no data movement: sm_90 PTX)
    start = n_w[:, None] + tl.cumsum(cnt, axis=1) - cnt
    room = n_w[:, None] + tl.zeros([W, 32], tl.int32) <= cap_w
    warp_base = (tl.arange(0, TH) // 32) * (cap_w + R * 32)
    slot = (warp_base + tl.reshape(start, [TH]))[None, :] + tl.cumsum(cand, axis=0) - cand
    if PSTREAM:
        ref = pg
    else:
        ref = j
    keep = (cand != 0) & tl.reshape(room, [TH])[None, :]
    _store_packed(region, tl.reshape(slot, [R * TH]), tl.reshape(order_key(x), [R * TH]), tl.reshape(ref, [R * TH]),
                  tl.reshape(keep, [R * TH]))
    return n_w + tl.sum(cnt, axis=1)


@triton.jit
def _place_warps(j, x, sure, cand, n_s, n_c, cap_s, cap_c, region, region_s, R: tl.constexpr, TH: tl.constexpr,
                 pg=None, PSTREAM: tl.constexpr = False):
    """WR's ``_place``: each warp appends its sure columns (or page entries) and its packed candidates to regions of
    its own (``_place_all_warps``); ``n_s`` / ``n_c`` (``[W]``) count them, ``cap_s`` / ``cap_c`` bound them."""
    W: tl.constexpr = TH // 32
    cnt = tl.reshape(tl.sum(sure + (cand << 16), axis=0), [W, 32])  # a tile has < 65536 columns
    pre = tl.cumsum(cnt, axis=1) - cnt
    zero = tl.zeros([W, 32], tl.int32)
    s_room = tl.reshape(n_s[:, None] + zero <= cap_s, [TH])[None, :]
    c_room = tl.reshape(n_c[:, None] + zero <= cap_c, [TH])[None, :]
    warp = tl.arange(0, TH) // 32
    s_start = warp * (cap_s + R * 32) + tl.reshape(n_s[:, None] + (pre & 0xFFFF), [TH])
    c_start = warp * (cap_c + R * 32) + tl.reshape(n_c[:, None] + (pre >> 16), [TH])
    s_slot = s_start[None, :] + tl.cumsum(sure, axis=0) - sure
    c_slot = c_start[None, :] + tl.cumsum(cand, axis=0) - cand
    if PSTREAM:
        ref = pg
    else:
        ref = j
    # Flat stores: a 2-D store of scattered addresses would be re-laid out through shared memory.
    tl.store(region_s + tl.reshape(s_slot, [R * TH]), tl.reshape(ref, [R * TH]),
             mask=tl.reshape((sure != 0) & s_room, [R * TH]))
    # no candidate is a NaN (split._classify)
    _store_packed(region, tl.reshape(c_slot, [R * TH]), tl.reshape(order_key(x, NAN_FREE=True), [R * TH]),
                  tl.reshape(ref, [R * TH]), tl.reshape((cand != 0) & c_room, [R * TH]))
    tot = tl.sum(cnt, axis=1)
    return n_s + (tot & 0xFFFF), n_c + (tot >> 16)


@triton.jit
def _emit_sure_regions(n_s, cap_s, k, region_s, orow, out_idx_ptr, out_val_ptr, return_values, row_ptr, req, offset,
                       page_ptr, page_stride, R: tl.constexpr, TH: tl.constexpr, CH: tl.constexpr,
                       TRANSFORM: tl.constexpr, PSTREAM: tl.constexpr, DSK: tl.constexpr = 0):
    """WR without ALLC: the sure regions' entries to output slots from 0, region after region (transformed, with
    values); returns their count, or ``k + 1`` where a region or the k slots would overflow (nothing written).
    DSK > 0 (``defer_sure``): slots below DSK get local columns (the caller gathers their entries later)."""
    W: tl.constexpr = TH // 32
    pre, most, total, fits = _region_counts(n_s, cap_s, k)
    if fits:
        src = region_s + (tl.arange(0, W) * (cap_s + R * 32))[:, None]
        for c0 in range(0, most, CH):
            i = c0 + tl.arange(0, CH)[None, :]
            m = i < n_s[:, None]
            # Flat: a 2-D store of scattered addresses would be re-laid out through shared memory.
            ref = tl.reshape(tl.load(src + i, mask=m, other=0), [W * CH])
            mf = tl.reshape(m, [W * CH])
            if PSTREAM:
                dst = ref
            elif DSK > 0:  # (slot computed here, not shared with pos: that keeps the other builds' PTX as it was)
                slot = tl.reshape(pre[:, None] + i, [W * CH])
                dst = tl.where(slot < DSK, ref,
                               _transform(ref, mf & (slot >= DSK), req, offset, page_ptr, page_stride, TRANSFORM))
            else:
                dst = _transform(ref, mf, req, offset, page_ptr, page_stride, TRANSFORM)
            pos = orow + tl.reshape(pre[:, None] + i, [W * CH])
            tl.store(out_idx_ptr + pos, dst, mask=mf)
            if return_values:
                tl.store(out_val_ptr + pos, tl.load(row_ptr + ref, mask=mf), mask=mf)
    else:
        total = k + 1
    return total


@triton.jit
def _region_counts(n_w, cap_w, limit):
    """The regions' offsets in what they are copied to (exclusive scan of their counts ``n_w``), the largest count,
    their total, and whether no region (``cap_w``) nor the total (``limit``) overflowed."""
    pre = tl.cumsum(n_w, axis=0) - n_w
    most = tl.max(n_w, axis=0)
    total = tl.sum(n_w, axis=0)
    return pre, most, total, (most <= cap_w) & (total <= limit)


@triton.jit
def _gather_regions(n_w, cap_w, list_cap, region, buf_key, R: tl.constexpr, TH: tl.constexpr, CH: tl.constexpr):
    """WR: the regions' candidates copied to one list from ``buf_key`` (what the select reads), region after
    region; returns their count, or ``list_cap + 1`` where a region or the list would overflow."""
    W: tl.constexpr = TH // 32
    pre, most, total, fits = _region_counts(n_w, cap_w, list_cap)
    if fits:
        src = region + (tl.arange(0, W) * (cap_w + R * 32))[:, None]
        dst = buf_key.to(tl.pointer_type(tl.int64)) + pre[:, None]
        for c0 in range(0, most, CH):
            i = c0 + tl.arange(0, CH)[None, :]
            m = i < n_w[:, None]
            tl.store(dst + i, tl.load(src + i, mask=m), mask=m)
    else:
        total = list_cap + 1
    return total


@triton.jit
def _tile(j, x, end, lo, hi, f_lo, f_hi, n_s, n_c, k, cap, orow, out_idx_ptr, out_val_ptr, return_values, buf_key,
          buf_idx, req, offset, page_ptr, page_stride, N: tl.constexpr, TRANSFORM: tl.constexpr, PACK: tl.constexpr,
          pg, PSTREAM: tl.constexpr, MASKED: tl.constexpr, ALLC: tl.constexpr, HEAD: tl.constexpr = False, shift=0,
          WR: tl.constexpr = False, region=None, R: tl.constexpr = 1, TH: tl.constexpr = 32, region_s=None,
          cap_s=0):
    """Classify and place one loaded tile (stream columns ``j``; ``j - shift`` are window columns). WR: ``n_s`` /
    ``n_c`` are per-warp counts, ``cap_s`` / ``cap`` each region's (``_place_warps``, ``_place_all_warps``)."""
    if WR and ALLC:
        cand = _classify_all(x, j, end, lo, f_lo, MASKED, HEAD, shift)
        n_c = _place_all_warps(j - shift, x, cand, n_c, cap, region, R, TH, pg, PSTREAM)
    elif WR:
        sure, cand = _classify(x, j, end, lo, hi, f_lo, f_hi, MASKED, HEAD, shift)
        n_s, n_c = _place_warps(j - shift, x, sure, cand, n_s, n_c, cap_s, cap, region, region_s, R, TH, pg, PSTREAM)
    elif ALLC:
        cand = _classify_all(x, j, end, lo, f_lo, MASKED, HEAD, shift)
        n_c = _place_all(j - shift, x, cand, n_c, cap, buf_key, N, pg, PSTREAM)
    else:
        sure, cand = _classify(x, j, end, lo, hi, f_lo, f_hi, MASKED, HEAD, shift)
        n_s, n_c = _place(j - shift, x, sure, cand, n_s, n_c, k, cap, orow, out_idx_ptr, out_val_ptr,
                          return_values, buf_key, buf_idx, req, offset, page_ptr, page_stride, N, TRANSFORM, PACK,
                          pg, PSTREAM)
    return n_s, n_c


@triton.jit
def _warp_fast(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, return_values, buf_key, buf_idx, cap,
               req, offset, page_ptr, page_stride,
               KEY_BITS: tl.constexpr, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr, SAMPLE: tl.constexpr,
               CBLOCK: tl.constexpr, TRANSFORM: tl.constexpr, BISECT: tl.constexpr = True, SB: tl.constexpr = 1,
               BB: tl.constexpr = 1, BPB: tl.constexpr = 16, GUESS: tl.constexpr = 0.0, AHEAD: tl.constexpr = 1,
               SRUN: tl.constexpr = 1, SVEC: tl.constexpr = False, PACK: tl.constexpr = False, prow=None,
               PSTREAM: tl.constexpr = False, base=None, shift=0, HEAD: tl.constexpr = False,
               ALLC: tl.constexpr = False, EMIT_DONE: tl.constexpr = False, X0E: tl.constexpr = False,
               PE: tl.constexpr = False, K0: tl.constexpr = False, WR: tl.constexpr = False, region=None,
               region_s=None, DS: tl.constexpr = False, DSK: tl.constexpr = 0):
    """Steps 2-4 of the module docstring for a row with ``L > k``; False (having settled
    nothing: the caller's exact path rewrites every slot) when the counts show a miss. AHEAD: tiles in flight
    ahead of the one being placed (1 or 2). SVEC: the sample's runs loaded as vectors. PACK (with BISECT): each
    candidate as one 64-bit scratch word (``_place``). PSTREAM: the page-table row ``prow`` streamed beside the
    scores, tile for tile (``_place``; TRANSFORM is then the identity: the candidates carry page entries). HEAD
    (not PSTREAM): the stream reads from ``base`` (``split._stream_base``), ``shift`` columns before the window
    (16-byte loads at any window start); its first tile is placed before the loop with those columns masked out.
    ALLC (with PACK): no sure keys in the stream: every key at or above ``lo`` is a candidate, and the select counts
    those above ``hi`` (more than k of them: False, as the counts' miss). PE (TRANSFORM 1): the select gathers its
    first chunk's page entries before its search (``WarpConfig.page_early``). K0: the select emits its first chunk from
    registers (``WarpConfig.first_chunk_regs``). WR (with PACK): the stream appends to regions per warp, copied to one
    list (the candidates) and to the output (the sure keys) before the select (``WarpConfig.warp_regions``;
    ``region``: the candidate regions' first packed word, ``region_s`` the sure regions' first column). DS (WR, not
    ALLC, TRANSFORM 1): the sure slots below DSK get local columns, whose entries are gathered after a barrier and
    stored once the select is done (``WarpConfig.defer_sure``)."""
    tl.static_assert(not WR or PACK, "warp regions hold packed candidates")
    tl.static_assert(not PACK or BISECT, "packed candidates are read by the bisection select only")
    tl.static_assert(not ALLC or PACK, "all-candidate rows are written as packed words")
    tl.static_assert(not (HEAD and PSTREAM), "the page stream reads the table at window columns")
    tl.static_assert(not DS or (WR and not ALLC and not PSTREAM and TRANSFORM == 1), "defer_sure: sure regions")
    RT: tl.constexpr = A * V * TH
    end = L + shift  # stream columns j: window columns + shift
    n_full = end // RT
    j0 = _as_lists(_tile_offsets(A, V, TH), A, V, TH)
    _, x_next = _load_tile(base, 0, end, A, V, TH, False, n_full > 0)  # in flight during the bracket
    p_next = _page_tile(prow, 0, L, A, V, TH, False, n_full > 0, PSTREAM)
    if AHEAD == 2:
        _, x_after = _load_tile(base, RT, end, A, V, TH, False, n_full > 1)
        p_after = _page_tile(prow, RT, L, A, V, TH, False, n_full > 1, PSTREAM)
    lo, hi = _bracket_bisect(row_ptr, L, k, KEY_BITS, SAMPLE, BB, BPB, GUESS, SRUN, SVEC, X0E)
    R: tl.constexpr = A * V
    list_cap = cap
    if ALLC:
        cap = cap - RT  # the tile of slack (``_place_all``)
    cap_s = 0
    if WR:
        cap = warp_region_cap(list_cap, TH // 32)  # each region's (``_place_all_warps``)
        cap_s = warp_sure_cap(k, TH // 32)
    f_lo, f_hi = _fp32_bounds(lo, hi)  # used for float32 rows only
    if WR:
        n_s = tl.zeros([TH // 32], dtype=tl.int32)
        n_c = tl.zeros([TH // 32], dtype=tl.int32)
    else:
        n_s = tl.zeros([], dtype=tl.int32)
        n_c = tl.zeros([], dtype=tl.int32)
    first = 0
    if HEAD:  # the first tile holds the columns before the window
        first = (n_full > 0).to(tl.int32)
        if first > 0:
            x = x_next
            if AHEAD == 2:
                x_next = x_after
                _, x_after = _load_tile(base, 2 * RT, end, A, V, TH, False, n_full > 2)
            else:
                _, x_next = _load_tile(base, RT, end, A, V, TH, False, n_full > 1)
            n_s, n_c = _tile(j0, x, end, lo, hi, f_lo, f_hi, n_s, n_c, k, cap, orow, out_idx_ptr, out_val_ptr,
                             return_values, buf_key, buf_idx, req, offset, page_ptr, page_stride, RT, TRANSFORM,
                             PACK, None, False, True, ALLC, HEAD, shift, WR, region, R, TH, region_s, cap_s)
    for i in range(first, n_full):  # the next tile's load (AHEAD 2: the one after it) is issued before this one is used
        x = x_next
        pg = p_next
        c0 = i * RT
        j = c0 + j0
        if AHEAD == 2:
            x_next = x_after
            p_next = p_after
            c2 = tl.multiple_of(c0 + 2 * RT, RT)
            _, x_after = _load_tile(base, c2, end, A, V, TH, False, i + 2 < n_full)
            p_after = _page_tile(prow, c2, L, A, V, TH, False, i + 2 < n_full, PSTREAM)
        else:
            c1 = tl.multiple_of(c0 + RT, RT)
            _, x_next = _load_tile(base, c1, end, A, V, TH, False, i + 1 < n_full)
            p_next = _page_tile(prow, c1, L, A, V, TH, False, i + 1 < n_full, PSTREAM)
        n_s, n_c = _tile(j, x, end, lo, hi, f_lo, f_hi, n_s, n_c, k, cap, orow, out_idx_ptr, out_val_ptr,
                         return_values, buf_key, buf_idx, req, offset, page_ptr, page_stride, RT, TRANSFORM, PACK,
                         pg, PSTREAM, False, ALLC, False, shift, WR, region, R, TH, region_s, cap_s)
    tail = n_full * RT
    if tail < end:
        j, x = _load_tile(base, tail, end, A, V, TH, True)
        pg = _page_tile(prow, tail, L, A, V, TH, True, True, PSTREAM)
        n_s, n_c = _tile(j, x, end, lo, hi, f_lo, f_hi, n_s, n_c, k, cap, orow, out_idx_ptr, out_val_ptr,
                         return_values, buf_key, buf_idx, req, offset, page_ptr, page_stride, RT, TRANSFORM, PACK,
                         pg, PSTREAM, True, ALLC, HEAD, shift, WR, region, R, TH, region_s, cap_s)
    if WR:
        tl.debug_barrier()  # the regions were written by their warps
        if ALLC:
            n_s = tl.zeros([], dtype=tl.int32)
        else:
            n_s = _emit_sure_regions(n_s, cap_s, k, region_s, orow, out_idx_ptr, out_val_ptr, return_values, row_ptr,
                                     req, offset, page_ptr, page_stride, R, TH, 8 * 32, TRANSFORM, PSTREAM,
                                     DSK if DS else 0)
        n_c = _gather_regions(n_c, cap, list_cap, region, buf_key, R, TH, 8 * 32)
        cap = list_cap
    ok = (n_s <= k) & (n_s + n_c >= k) & (n_c <= cap)
    if DS:
        tl.debug_barrier()  # the sure slots and the candidates were written by other threads
        ds_i = tl.arange(0, DSK)
        ds_m = (ds_i < n_s) & (n_s <= k)  # n_s past k: nothing was written
        ds_ent = tl.load(page_ptr + req * page_stride + tl.load(out_idx_ptr + orow + ds_i, mask=ds_m, other=0),
                         mask=ds_m, other=-1)
    if ok & (n_s < k):
        if not DS:
            tl.debug_barrier()  # candidates were written by other threads
        if BISECT:
            settled = _select_bisect(n_s, k - n_s, lo, hi, n_c, k, buf_key, buf_idx, row_ptr, orow, out_idx_ptr,
                                     out_val_ptr, req, offset, page_ptr, page_stride, return_values, CBLOCK, TRANSFORM,
                                     SB, 2 * PACK, ALLC, EMIT_DONE, PE and TRANSFORM == 1, K0)
            if ALLC:
                ok = settled
        else:
            _select_cands(n_s, k - n_s, lo, hi, n_c, k, buf_key, buf_idx, row_ptr, orow, out_idx_ptr, out_val_ptr,
                          req, offset, page_ptr, page_stride, return_values, CBLOCK, TRANSFORM, False)
    if DS:
        if ok:
            tl.store(out_idx_ptr + orow + ds_i, ds_ent, mask=ds_m)
    return ok


@triton.jit(do_not_specialize=["n", "next_n", "compress_ratio", "k", "return_values", "page_stride", "has_cu",
                               "num_req", "cap"])
def warp_kernel(logits_ptr, stride_row, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, k,
                out_idx_ptr, out_val_ptr, return_values, page_ptr, page_stride, cu_ptr, has_cu, num_req, offsets_ptr,
                scratch_ptr, cap, order_ptr, order_first,
                KEY_BITS: tl.constexpr, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr, SAMPLE: tl.constexpr,
                CBLOCK: tl.constexpr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr, HAS_STARTS: tl.constexpr,
                BISECT: tl.constexpr = True, LATE: tl.constexpr = False, LATE_KB: tl.constexpr = 0,
                SB: tl.constexpr = 1, BB: tl.constexpr = 1, LAZY: tl.constexpr = False, BPB: tl.constexpr = 16,
                GUESS: tl.constexpr = 0.0, AHEAD: tl.constexpr = 1, SRUN: tl.constexpr = 1,
                SVEC: tl.constexpr = False, PACK: tl.constexpr = False, PSTREAM: tl.constexpr = False,
                HEAD: tl.constexpr = False, SU: tl.constexpr = 1, ALLC: tl.constexpr = False,
                EMIT_DONE: tl.constexpr = False, X0E: tl.constexpr = False, PE: tl.constexpr = False,
                K0: tl.constexpr = False, WR: tl.constexpr = False, DS: tl.constexpr = False,
                DSK: tl.constexpr = 0, ORDER: tl.constexpr = 0):
    """Row ``program_id(0)``: its k output slots. TRANSFORM: 0 none, 1 page_table, 2 ragged.
    ``stride_row`` is specialized (16-divisible strides keep the 16-byte loads); BLOCK is the
    lane count of the short-row fill and of the exact fallback. LATE (page table only): local
    columns first, the table over the k slots at the end in blocks of ``LATE_KB`` (0: BLOCK).
    SB / BB: bits per step of the candidate select / of the bracket (1: bisection). LAZY (with LATE): the page
    table's request is found where a branch first needs it, not before the stream loop, so that its registers
    (request, table pointer) are not live across the loop (fewer registers: more programs per SM). BPB: the bracket's
    prefix bits (16; fewer: fewer bisection steps, a slightly wider bracket). GUESS: the bracket guessed from the
    sample's moments first (``WarpConfig.guess``). AHEAD: tiles of the stream in flight ahead of the one placed.
    SRUN: the bracket's sample in runs of that many adjacent columns (``WarpConfig.sample_run``); SVEC: loaded as
    vectors (``WarpConfig.sample_vec``). PACK: candidates as one 64-bit word each (``WarpConfig.pack_cands``). PSTREAM
    (page table, not LATE, no values; ``page_stride`` a multiple of 4 and the table 16-byte aligned): the row's
    page-table entries streamed beside its scores (``WarpConfig.page_stream``). HEAD (row_starts, not PSTREAM;
    ``WarpConfig.aligned_windows``): the stream's full tiles load 16 bytes at a time at any window start
    (``split._stream_base``). ALLC: no sure keys in the stream (``WarpConfig.all_cands``). EMIT_DONE:
    ``WarpConfig.emit_done``. PE: ``WarpConfig.page_early`` (where the select applies the page table). K0:
    ``WarpConfig.first_chunk_regs``. WR: ``WarpConfig.warp_regions`` (each row's scratch: its list, then the
    regions, ``warp_row_words``). ORDER: programs from ``order_first`` on take row ``order_ptr[p]``
    (``row_order.ordered_row``; ``WarpConfig.longest_first``); without it both are None and 1, so that neither is a
    runtime argument."""
    b = ordered_row(order_ptr, order_first, ORDER)
    # LATE: the fast path writes local columns; the page table goes over the k slots at the end.
    tl.static_assert(not PSTREAM or (TRANSFORM == 1 and not LATE), "the page stream replaces the late page pass")
    FAST_T: tl.constexpr = 0 if (LATE or PSTREAM) and TRANSFORM == 1 else TRANSFORM
    SETUP_T: tl.constexpr = FAST_T if LAZY else TRANSFORM
    lane, L, row_ptr, orow, req, offset, start = _select_row_setup(
        b, logits_ptr, stride_row, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, k, cu_ptr, has_cu, num_req,
        offsets_ptr, BLOCK, SETUP_T, HAS_STARTS, SU)
    if L <= k:
        if SETUP_T != TRANSFORM:
            req, offset = _row_transform(b, lane, cu_ptr, has_cu, num_req, offsets_ptr, BLOCK, TRANSFORM)
        _fill_short_row(L, k, orow, row_ptr, lane, req, offset, page_ptr, page_stride, out_idx_ptr, out_val_ptr,
                        return_values, BLOCK, TRANSFORM)
    else:
        region_s = None
        if WR:
            buf_key = scratch_ptr + b.to(tl.int64) * warp_row_words(cap, k, TH // 32, A * V, ALLC)
            region = buf_key.to(tl.pointer_type(tl.int64)) + cap
            if not ALLC:
                region_s = buf_key + 2 * (cap + (TH // 32) * (warp_region_cap(cap, TH // 32) + A * V * 32))
        else:
            buf_key = scratch_ptr + b.to(tl.int64) * (2 * cap)
            region = None
        buf_idx = buf_key + cap
        prow = page_ptr
        if PSTREAM:
            prow = page_ptr + tl.multiple_of(req.to(tl.int64) * page_stride, 4)
            return_values = 0  # candidates carry page entries, not columns (``launch_warp`` never asks for values)
        base, shift = _stream_base(logits_ptr, stride_row, b, start, row_ptr, V, HEAD, SU)
        ok = _warp_fast(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, return_values, buf_key, buf_idx, cap,
                        req, offset, page_ptr, page_stride, KEY_BITS, A, V, TH, SAMPLE, CBLOCK, FAST_T, BISECT,
                        SB, BB, BPB, GUESS, AHEAD, SRUN, SVEC, PACK, prow, PSTREAM, base, shift, HEAD, ALLC,
                        EMIT_DONE, X0E, PE, K0, WR, region, region_s, DS, DSK)
        if SETUP_T != TRANSFORM:
            req, offset = _row_transform(b, lane, cu_ptr, has_cu, num_req, offsets_ptr, BLOCK, TRANSFORM)
        if (FAST_T != TRANSFORM) and not PSTREAM:  # the late pass (the page stream wrote entries already)
            if ok:
                tl.debug_barrier()  # slots were written by other threads
                _late_page(out_idx_ptr, orow, k, req, page_ptr, page_stride, LATE_KB if LATE_KB > 0 else BLOCK)
        if not ok:
            tl.debug_barrier()  # scratch is reused
            _exact_row(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, buf_key, buf_idx, buf_key, cap,
                       req, offset, page_ptr, page_stride, return_values, lane, KEY_BITS, BLOCK, TRANSFORM,
                       False, False)
