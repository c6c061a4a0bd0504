"""Two launches per call: a filter over (row, chunk) programs, then a select per row that
writes the k slots with the index transform fused in.

Why two: one program per row leaves most SMs idle on few rows, and a row's whole chain in
one program (bracket, stream, scans, candidate select) is long. Here the row-sized work
runs wide and each kernel stays small (few registers, no spills).

1. ``filter_kernel``, grid ``(rows, S)``: program ``(b, c)`` finds the row's sampled
   bracket ``[lo, hi]`` (``bisect_select._bracket_bisect``, or ``kernel._bracket``'s two
   histograms with ``BPB = 0``; every program of a row computes the same one), counts its
   chunk's keys above ``hi`` ("sure") and inside the bracket per list (one per thread),
   reserves list space with one 64-bit atomic per program, then
   writes the sure columns and the candidates (value bits, column) there (re-reading
   chunks longer than one tile, from L2). Each lane loads 16 bytes of a tile at a time
   (``_tile_offsets``). For float32 the bracket is applied as float compares
   (``_fp32_bounds``): a third of the instructions of building every key.
2. ``select_kernel``, grid ``rows``: reads the row's counts and resets them (so scratch
   needs no zeroing between calls, also under graph replay). If ``sure <= k <= sure +
   cand <= cap`` it copies the sure columns to slots ``[0, sure)``, selects the
   ``k - sure`` largest candidates exactly (``kernel._select_cands``) into the rest, then
   applies the page table / gathers values over the k slots. Otherwise (bracket missed,
   candidates overflow) it runs ``kernel._exact_row`` on the row: exactness never depends
   on the bracket.

Scratch, two buffers of int32 words: ``rows x CTR_WORDS`` counters (a buffer of their own,
so its words 0-1 of every row are zero between calls whatever the shapes of earlier calls),
and per row ``k`` sure columns, ``cap`` candidate keys, ``cap`` candidate columns.
"""

from __future__ import annotations

import triton
import triton.language as tl

from topk_core.kernels.triton_common import order_key, row_valid_length, window_length

from .bisect_select import _bracket_bisect, _select_bisect
from .kernel import _bracket, _exact_row, _fill_short_row, _gather_values, _late_page, _row_transform, _select_cands

#: Per row: sure | cand << 32 (int64, words 0-1), lo, hi, two counters of the exact fallback.
CTR_WORDS = tl.constexpr(8)


@triton.jit
def _row_window(b, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, HAS_STARTS: tl.constexpr):
    """``(L, start)``; ``start`` is the constant 0 without row_starts, so that aligned rows
    keep their 16-byte alignment in the compiler's eyes."""
    length = row_valid_length(seq_lens_ptr, b, next_n, compress_ratio, n)
    if HAS_STARTS:
        L, start = window_length(length, tl.load(row_starts_ptr + b), n)
    else:
        L, start = length, 0  # row_valid_length is already within [0, n]
    return L, start


@triton.jit
def _row_ptr(logits_ptr, stride_row, b, SU: tl.constexpr):
    """Row ``b``'s first logit (``stride_row * SU``: ``_select_row_setup``'s stride unit)."""
    return logits_ptr + b.to(tl.int64) * (stride_row * SU)


@triton.jit
def _window_shift(start, V: tl.constexpr, HEAD: tl.constexpr):
    """HEAD: the window's columns past the 16-byte boundary at or before its start (``_stream_base``); else 0."""
    if HEAD:
        return start % V
    else:
        return 0


@triton.jit
def _stream_base(logits_ptr, stride_row, b, start, row_ptr, V: tl.constexpr, HEAD: tl.constexpr,
                 SU: tl.constexpr = 1):
    """``(base, shift)`` of a row's stream. HEAD (a window at a runtime start): the base is the window's start
    rounded down to ``V`` columns (16 bytes), ``shift`` the columns before the window, so that full tiles keep their
    16-byte loads at any start (the ``shift`` columns read before the window are in the row: ``start >= shift``;
    they are masked out of the first tile, ``_classify``'s ``low``). Else the window ``row_ptr`` and 0. SU: the row
    stride's unit (``_select_row_setup``)."""
    if HEAD:
        return _row_ptr(logits_ptr, stride_row, b, SU) + (start // V) * V, _window_shift(start, V, HEAD)
    else:
        return row_ptr, 0


@triton.jit
def _select_row_setup(b, logits_ptr, stride_row, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, k, cu_ptr,
                      has_cu, num_req, offsets_ptr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr,
                      HAS_STARTS: tl.constexpr, SU: tl.constexpr = 1):
    """What a row's k-slot writer needs first (``select_kernel``, ``warp.warp_kernel``):
    ``(lane, L, row_ptr, orow, req, offset, start)``: lanes of BLOCK, the window, the row's first
    logit, its first output slot, the transform's request / offset, and the window's start. SU: the row stride's
    unit (the launch passes ``stride / SU``, so that a stride divisible by 16 bytes but not 16 columns keeps its
    16-byte alignment in the compiler's eyes; ``launch.stride_unit``)."""
    lane = tl.arange(0, BLOCK)
    L, start = _row_window(b, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, HAS_STARTS)
    row_ptr = _row_ptr(logits_ptr, stride_row, b, SU) + start
    orow = b.to(tl.int64) * k
    req, offset = _row_transform(b, lane, cu_ptr, has_cu, num_req, offsets_ptr, BLOCK, TRANSFORM)
    return lane, L, row_ptr, orow, req, offset, start


@triton.jit
def _fp32_of_key(key):
    """The float32 whose ``order_key`` is ``key`` (a NaN for keys above +inf's)."""
    sign = tl.full([], 0x80000000, tl.uint32)
    full = tl.full([], 0xFFFFFFFF, tl.uint32)
    return tl.where((key & sign) != 0, key ^ sign, key ^ full).to(tl.float32, bitcast=True)


@triton.jit
def _fp32_bounds(lo, hi):
    """``(f_lo, f_hi)`` with, for every float32 x that is not a NaN,
    ``key(x) > hi  <=>  x > f_hi`` and ``lo <= key(x) <= hi  <=>  f_lo <= x <= f_hi``
    (float compares, where -0.0 == +0.0 as with the keys). Needs ``hi >= key(-inf)``, which
    the bracket guarantees (``hi`` is at or above a sampled key, by histograms or bisection). Keys past +inf's act as
    +inf (a ``hi`` at the top key gives ``f_hi = +inf``), below -inf's as -inf, and the key just below +0's (no value
    has it) as the largest negative float. Compares assume denormals are kept (no flush to zero; tested on the GPU).
    """
    inf_key = tl.full([], 0xFF800000, tl.uint32)
    neg_inf_key = tl.full([], 0x007FFFFF, tl.uint32)
    below_zero = tl.full([], 0x7FFFFFFF, tl.uint32)
    hi_c = tl.minimum(hi, inf_key)
    hi_c = tl.where(hi_c == below_zero, below_zero - 1, hi_c)
    lo_c = tl.maximum(lo, neg_inf_key)
    return _fp32_of_key(lo_c), _fp32_of_key(hi_c)


@triton.jit
def _tile_mask(j, end, MASKED: tl.constexpr, HEAD: tl.constexpr = False, low=0):
    """A tile's live lanes: all, or (MASKED) those before ``end`` and (HEAD) at or after ``low``."""
    if MASKED:
        m = j < end
        if HEAD:
            m = m & (j >= low)
    else:
        m = tl.full(j.shape, 1, tl.int1)
    return m


@triton.jit
def _classify(x, j, end, lo, hi, f_lo, f_hi, MASKED: tl.constexpr, HEAD: tl.constexpr = False, low=0):
    """One tile (with MASKED, lanes past ``end`` are out): (sure, cand) as int32 masks.
    float32 by float compares against ``_fp32_bounds`` (a third of the instructions of
    building every key), 16-bit dtypes by their keys.

    float32: every NaN is sure (the unordered ``~(x <= f_hi)``), also where ``hi`` is the top key:
    the NaNs are then the sure keys at ``hi`` rather than above it, which keeps the fast paths
    exact because they place all sure keys only when ``sure <= k`` (more than k NaNs take the exact
    path). So no candidate is a NaN (its key: ``order_key(x, NAN_FREE=True)``) and a key costs two compares
    (session 21: 8x32K 18.3 -> 17.6 µs, 512x128K 237 -> 200 with the NaN-free keys; NOTES.md).
    (f_lo is a NaN when lo is above +inf's key: no value is a candidate then.)
    HEAD (with MASKED): lanes below ``low`` are out too (``_stream_base``'s columns before the window)."""
    m = _tile_mask(j, end, MASKED, HEAD, low)
    if x.dtype == tl.float32:
        sure = m & ~(x <= f_hi)  # above f_hi, or a NaN
        cand = m & (x >= f_lo) & (x <= f_hi)
    else:
        key = order_key(x)
        sure = m & (key > hi)
        cand = m & (key >= lo) & (key <= hi)
    return sure.to(tl.int32), cand.to(tl.int32)


@triton.jit
def _raw_bits(x):
    """The values' bits as int32 (16-bit dtypes sign-extended; ``_cand_chunk`` truncates back)."""
    if x.dtype == tl.float32:
        bits = x.to(tl.int32, bitcast=True)
    else:
        bits = x.to(tl.int16, bitcast=True).to(tl.int32)
    return bits


@triton.jit
def _tile_offsets(A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr):
    """Columns of a tile as loaded, ``[TH, A, V]``: thread ``t`` holds ``A`` runs of ``V``
    contiguous columns (16 bytes), so full tiles load with vector loads."""
    t = tl.arange(0, TH)[:, None, None]
    a = tl.arange(0, A)[None, :, None]
    v = tl.arange(0, V)[None, None, :]
    return a * (TH * V) + t * V + v


@triton.jit
def _as_lists(x3, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr):
    """``[TH, A, V]`` -> ``[A * V, TH]``: column ``t`` is thread ``t``'s list. A permute and a
    reshape that keep every element in its thread (no shared-memory round trip), so the
    flat scattered stores below see the layout they want."""
    return tl.reshape(tl.permute(x3, (1, 2, 0)), [A * V, TH])


@triton.jit
def _load_tile(row_ptr, c0, end, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr, MASKED: tl.constexpr,
               whole=True):
    """``(j, x)`` of the tile at column ``c0``, in list order. MASKED: lanes past ``end`` read
    0; else ``whole`` (one flag for the tile, so loads stay 16 bytes wide) says whether to read."""
    off3 = _tile_offsets(A, V, TH)
    if MASKED:
        x3 = tl.load(row_ptr + c0 + off3, mask=c0 + off3 < end, other=0.0)
    else:
        x3 = tl.load(row_ptr + c0 + off3, mask=whole, other=0.0)
    return c0 + _as_lists(off3, A, V, TH), _as_lists(x3, A, V, TH)


@triton.jit
def _page_row(page_ptr, page_stride, b, cu_ptr, has_cu, num_req, TH: tl.constexpr):
    """Row ``req(b)`` of the page table (``page_stride`` a multiple of 4: the 16-byte loads of ``_page_tile``)."""
    req, _ = _row_transform(b, tl.arange(0, TH), cu_ptr, has_cu, num_req, cu_ptr, TH, 1)
    return page_ptr + tl.multiple_of(req * page_stride, 4)


@triton.jit
def _page_tile(prow, c0, end, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr, MASKED: tl.constexpr, whole,
               PSTREAM: tl.constexpr):
    """PSTREAM: the page-table entries of the tile at column ``c0`` in list order (``_load_tile``'s layout and masks;
    lanes not read hold -1); else nothing is read (0)."""
    if PSTREAM:
        off3 = _tile_offsets(A, V, TH)
        if MASKED:
            p3 = tl.load(prow + c0 + off3, mask=c0 + off3 < end, other=-1)
        else:
            p3 = tl.load(prow + c0 + off3, mask=whole, other=-1)
        return _as_lists(p3, A, V, TH)
    else:
        return 0


@triton.jit
def _write_tile(j, x, sure, cand, sp, cp, k, cap, row_lists, cand_key, cand_col, N: tl.constexpr, pg=0,
                PSTREAM: tl.constexpr = False):
    """Sure columns and candidates (value bits, column) of one tile (``N`` elements, a list
    per tile column) to the lists at per-list fills ``sp``, ``cp``. PSTREAM: the tile's page-table entries ``pg``
    in place of the columns."""
    s_slot = sp[None, :] + tl.cumsum(sure, axis=0) - sure  # within a thread
    c_slot = cp[None, :] + tl.cumsum(cand, axis=0) - cand
    s_slot = tl.reshape(s_slot, [N])
    c_slot = tl.reshape(c_slot, [N])
    if PSTREAM:
        ref = tl.reshape(pg, [N])
    else:
        ref = tl.reshape(j, [N])
    s_on = tl.reshape(sure != 0, [N]) & (s_slot < k)
    c_on = tl.reshape(cand != 0, [N]) & (c_slot < cap)
    tl.store(row_lists + s_slot, ref, mask=s_on)
    tl.store(cand_key + c_slot, tl.reshape(_raw_bits(x), [N]), mask=c_on)
    tl.store(cand_col + c_slot, ref, mask=c_on)
    return sp + tl.sum(sure, axis=0), cp + tl.sum(cand, axis=0)


@triton.jit
def _one_tile(row_ptr, c0, end, lo, hi, f_lo, f_hi, ctr, k, cap, row_lists, cand_key, cand_col,
              A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr, MASKED: tl.constexpr, prow=0,
              PSTREAM: tl.constexpr = False, HEAD: tl.constexpr = False, shift=0):
    """A chunk of one tile: classify it once and keep it in registers for the writes."""
    j, x = _load_tile(row_ptr, c0, end, A, V, TH, MASKED)
    pg = _page_tile(prow, c0, end, A, V, TH, MASKED, True, PSTREAM)
    _classify_write(j, x, end, lo, hi, f_lo, f_hi, ctr, k, cap, row_lists, cand_key, cand_col, A * V * TH,
                    MASKED, pg, PSTREAM, HEAD, shift)


@triton.jit
def _classify_write(j, x, end, lo, hi, f_lo, f_hi, ctr, k, cap, row_lists, cand_key, cand_col,
                    N: tl.constexpr, MASKED: tl.constexpr, pg=0, PSTREAM: tl.constexpr = False,
                    HEAD: tl.constexpr = False, shift=0):
    """A loaded tile: classify, reserve list space, write. HEAD: ``j`` counts from ``_stream_base``'s base, whose
    first ``shift`` columns are before the window (out with MASKED; the lists get window columns)."""
    sure, cand = _classify(x, j, end, lo, hi, f_lo, f_hi, MASKED, HEAD, shift)
    sp, cp = _reserve(tl.sum(sure + (cand << 16), axis=0), ctr)
    _write_tile(j - shift, x, sure, cand, sp, cp, k, cap, row_lists, cand_key, cand_col, N, pg, PSTREAM)


@triton.jit
def _head_tile(base, x_next, j0, end, n_full, lo, hi, f_lo, f_hi, shift, A: tl.constexpr, V: tl.constexpr,
               TH: tl.constexpr):
    """Chunk 0's first tile (``x_next``, columns ``j0``) with the ``shift`` columns before the window masked, and
    the next tile's load issued: ``(x, x_next, sure, cand)`` (the filter's count and write passes alike)."""
    _, after = _load_tile(base, A * V * TH, end, A, V, TH, False, n_full > 1)
    sure, cand = _classify(x_next, j0, end, lo, hi, f_lo, f_hi, True, True, shift)
    return x_next, after, sure, cand


@triton.jit
def _reserve(cnt, ctr):
    """Per-list start positions ``(sp, cp)`` for packed per-list counts (sure + cand << 16):
    one block scan, one 64-bit atomic on the row's counter."""
    per = (cnt & 0xFFFF).to(tl.int64) | ((cnt >> 16).to(tl.int64) << 32)
    excl = tl.cumsum(per, axis=0) - per
    base = tl.atomic_add(ctr.to(tl.pointer_type(tl.int64)), tl.sum(per, axis=0), sem="relaxed")
    sp = ((base & 0xFFFFFFFF) + (excl & 0xFFFFFFFF)).to(tl.int32)
    cp = ((base >> 32) + (excl >> 32)).to(tl.int32)
    return sp, cp


@triton.jit
def _hint_bracket(hint_ptr, req, k, L, row_ptr, KEY_BITS: tl.constexpr, HB: tl.constexpr):
    """The bracket from a hint (``topk-gvr``'s guess): ``lo`` is the lowest key at the hint's columns inside the
    row (``hint_ptr`` row ``req``, ``k`` columns, ``HB`` gathered at a time; -1 and columns at or past ``L`` are
    ignored), ``hi`` the top key, so no key is sure but the NaNs (float32, ``_classify``). With k distinct columns
    inside the row, at least k keys are at or above ``lo``; the previous step's top k put ``lo`` near the k-th key.
    Any other hint only makes the select's check fail, and the exact path runs: a hint never changes the answer."""
    if KEY_BITS == 32:
        top = tl.full([], 0xFFFFFFFF, tl.uint32)
    else:
        top = tl.full([], 0xFFFF, tl.uint32)
    lane = tl.arange(0, HB)
    hint_row = hint_ptr + req.to(tl.int64) * k
    lo = top
    for off in range(0, k, HB):
        i = off + lane
        col = tl.load(hint_row + i, mask=i < k, other=-1)
        inside = (col >= 0) & (col < L)
        x = tl.load(row_ptr + col, mask=inside, other=0.0)
        lo = tl.minimum(lo, tl.min(tl.where(inside, order_key(x), top), axis=0))
    return lo, top


@triton.jit(do_not_specialize=["n", "next_n", "compress_ratio", "k", "cap", "page_stride", "has_cu", "num_req"])
def filter_kernel(logits_ptr, stride_row, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, k,
                  ctr_ptr, lists_ptr, cap, page_ptr, page_stride, cu_ptr, has_cu, num_req, hint_ptr,
                  KEY_BITS: tl.constexpr, CHUNK: tl.constexpr, A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr,
                  SAMPLE: tl.constexpr, HAS_STARTS: tl.constexpr, EARLY: tl.constexpr = False,
                  BPB: tl.constexpr = 0, GUESS: tl.constexpr = 0.0, SRUN: tl.constexpr = 1,
                  SVEC: tl.constexpr = False, PSTREAM: tl.constexpr = False, PAGE_AFTER: tl.constexpr = False,
                  HEAD: tl.constexpr = False, SU: tl.constexpr = 1, HINT: tl.constexpr = 0):
    """Chunk ``c`` of row ``b``: sure columns and bracket candidates into the row's lists.
    EARLY: the chunk's first full tile is loaded before the bracket, so the two latencies overlap.
    BPB: 0 the bracket by two histograms (``kernel._bracket``), else by bisection on BPB key prefix bits
    (``bisect_select._bracket_bisect``: the same bounds at 16); GUESS: its bounds guessed from the sample's moments
    first (``SplitConfig.guess``); SRUN: with BPB, its sample in runs of that many adjacent columns (SVEC: loaded as
    vectors). PSTREAM (the page table's calls, ``SplitConfig.page_stream``): the row's page-table entries (row
    ``req`` of ``page_ptr``; ``page_stride`` a multiple of 4) streamed beside its scores into the lists in place of
    the columns; the other calls never read the page-table arguments. PAGE_AFTER (``SplitConfig.page_after_bracket``):
    the page tile and its row pointer only after the bracket, so they are not live across it. HEAD (with row_starts,
    not PSTREAM; ``SplitConfig.aligned_windows``): the tiles from the window's start rounded down to 16 bytes
    (``_stream_base``), chunk columns counted from there, the columns before the window masked out of chunk 0's
    first tile, so that full tiles load 16 bytes at a time at any start. HINT (> 0; ``hint_ptr`` the caller's
    ``pre_idx``, row ``b // next_n``, else None): the bracket from the hint (``_hint_bracket``, HINT columns of it
    gathered at a time), not from a sample.

    Tiles of ``A * V * TH`` columns (``_tile_offsets``), one list per thread, so list
    positions are an in-thread running count plus one block scan of the per-list counts.
    Full tiles load unmasked (16-byte loads on aligned rows); only a row's last tile is masked.
    """
    RT: tl.constexpr = A * V * TH
    b = tl.program_id(0)
    c = tl.program_id(1)
    tl.static_assert(not (HEAD and PSTREAM), "the page stream reads the table at window columns")
    L, start = _row_window(b, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, HAS_STARTS)
    c0 = c * CHUNK  # j: window columns + shift
    if (L > k) & (c0 < L + _window_shift(start, V, HEAD)):
        row_ptr = _row_ptr(logits_ptr, stride_row, b, SU) + start  # the window, for the bracket
        base, shift = _stream_base(logits_ptr, stride_row, b, start, row_ptr, V, HEAD, SU)  # tiles read from base
        end = tl.minimum(c0 + CHUNK, L + shift)
        n_full = (end - c0) // RT
        prow = page_ptr
        if PSTREAM and not PAGE_AFTER:
            prow = _page_row(page_ptr, page_stride, b, cu_ptr, has_cu, num_req, TH)
        if EARLY:  # the chunk's first full tile in flight while the bracket is found
            j_e, x_e = _load_tile(base, c0, end, A, V, TH, False, n_full > 0)
            if not PAGE_AFTER:
                p_e = _page_tile(prow, c0, end, A, V, TH, False, n_full > 0, PSTREAM)
        if HINT:  # (a truth test: builds from explicit constants bind None for a constexpr left out)
            lo, hi = _hint_bracket(hint_ptr, b // next_n, k, L, row_ptr, KEY_BITS, HINT)
        elif BPB == 0:
            lo, hi = _bracket(row_ptr, L, k, KEY_BITS, SAMPLE)
        else:
            lo, hi = _bracket_bisect(row_ptr, L, k, KEY_BITS, SAMPLE, 1, BPB, GUESS, SRUN, SVEC)
        f_lo, f_hi = _fp32_bounds(lo, hi)  # used for float32 rows only
        if PSTREAM and PAGE_AFTER:
            prow = _page_row(page_ptr, page_stride, b, cu_ptr, has_cu, num_req, TH)
        if EARLY and PAGE_AFTER:
            p_e = _page_tile(prow, c0, end, A, V, TH, False, n_full > 0, PSTREAM)
        ctr = ctr_ptr + b.to(tl.int64) * CTR_WORDS
        if c == 0:
            tl.store(ctr + 2, lo.to(tl.int32, bitcast=True))
            tl.store(ctr + 3, hi.to(tl.int32, bitcast=True))
        row_lists = lists_ptr + b.to(tl.int64) * (k + 2 * cap)
        cand_key = row_lists + k
        cand_col = cand_key + cap
        if CHUNK == RT:  # one tile; each branch runs to its end (tiles merged after an `if` get re-laid out)
            full = c0 + RT <= L + shift
            if HEAD:
                full = full & (c > 0)  # chunk 0's tile holds the columns before the window: masked
            if full:
                if EARLY:
                    _classify_write(j_e, x_e, end, lo, hi, f_lo, f_hi, ctr, k, cap, row_lists, cand_key,
                                    cand_col, A * V * TH, False, p_e, PSTREAM, HEAD, shift)
                else:
                    _one_tile(base, c0, end, lo, hi, f_lo, f_hi, ctr, k, cap, row_lists, cand_key,
                              cand_col, A, V, TH, False, prow, PSTREAM, HEAD, shift)
            else:
                _one_tile(base, c0, end, lo, hi, f_lo, f_hi, ctr, k, cap, row_lists, cand_key,
                          cand_col, A, V, TH, True, prow, PSTREAM, HEAD, shift)
        else:  # count, reserve, then re-read (L2) and write: full tiles, then one masked tail
            j0 = _as_lists(_tile_offsets(A, V, TH), A, V, TH)
            tail = c0 + n_full * RT
            cnt = tl.zeros([TH], dtype=tl.int32)  # per list: sure + cand << 16 (CHUNK / TH < 2**16)
            if EARLY:
                x_next = x_e
            else:
                _, x_next = _load_tile(base, c0, end, A, V, TH, False, n_full > 0)
            first = 0
            if HEAD:  # chunk 0's first tile holds the columns before the window: classified masked, before the loop
                first = ((c == 0) & (n_full > 0)).to(tl.int32)
                if first > 0:
                    x, x_next, sure, cand = _head_tile(base, x_next, j0, end, n_full, lo, hi, f_lo, f_hi, shift,
                                                       A, V, TH)
                    cnt += tl.sum(sure + (cand << 16), axis=0)
            for i in range(first, n_full):  # the next tile's load is issued before this one is used
                x = x_next
                j = c0 + i * RT + j0
                _, x_next = _load_tile(base, tl.multiple_of(c0 + (i + 1) * RT, RT), end, A, V, TH, False,
                                       i + 1 < n_full)
                sure, cand = _classify(x, j, end, lo, hi, f_lo, f_hi, False)
                cnt += tl.sum(sure + (cand << 16), axis=0)
            if tail < end:
                j, x = _load_tile(base, tail, end, A, V, TH, True)
                sure, cand = _classify(x, j, end, lo, hi, f_lo, f_hi, True, HEAD, shift)
                cnt += tl.sum(sure + (cand << 16), axis=0)
            sp, cp = _reserve(cnt, ctr)
            _, x_next = _load_tile(base, c0, end, A, V, TH, False, n_full > 0)
            p_next = _page_tile(prow, c0, end, A, V, TH, False, n_full > 0, PSTREAM)  # the write pass only
            if HEAD:
                if first > 0:
                    x, x_next, sure, cand = _head_tile(base, x_next, j0, end, n_full, lo, hi, f_lo, f_hi, shift,
                                                       A, V, TH)
                    sp, cp = _write_tile(j0 - shift, x, sure, cand, sp, cp, k, cap, row_lists, cand_key, cand_col,
                                         RT)
            for i in range(first, n_full):
                x = x_next
                pg = p_next
                j = c0 + i * RT + j0
                c1 = tl.multiple_of(c0 + (i + 1) * RT, RT)
                _, x_next = _load_tile(base, c1, end, A, V, TH, False, i + 1 < n_full)
                p_next = _page_tile(prow, c1, end, A, V, TH, False, i + 1 < n_full, PSTREAM)
                sure, cand = _classify(x, j, end, lo, hi, f_lo, f_hi, False)
                sp, cp = _write_tile(j - shift, x, sure, cand, sp, cp, k, cap, row_lists, cand_key, cand_col, RT,
                                     pg, PSTREAM)
            if tail < end:
                j, x = _load_tile(base, tail, end, A, V, TH, True)
                pg = _page_tile(prow, tail, end, A, V, TH, True, True, PSTREAM)
                sure, cand = _classify(x, j, end, lo, hi, f_lo, f_hi, True, HEAD, shift)
                _write_tile(j - shift, x, sure, cand, sp, cp, k, cap, row_lists, cand_key, cand_col, RT, pg,
                            PSTREAM)


@triton.jit
def _copy_sure(row_lists, n_s, out_idx_ptr, orow, offset, KB: tl.constexpr, TRANSFORM: tl.constexpr):
    """The row's sure columns (the ragged offset added) to slots ``[0, n_s)``, ``KB`` at a time."""
    lane = tl.arange(0, KB)
    for off in range(0, n_s, KB):
        i = off + lane
        m = i < n_s
        col = tl.load(row_lists + i, mask=m, other=0)
        if TRANSFORM == 2:
            col += offset
        tl.store(out_idx_ptr + orow + i, col, mask=m)


@triton.jit(do_not_specialize=["n", "rows", "next_n", "compress_ratio", "k", "return_values",
                               "page_stride", "has_cu", "num_req", "cap"])
def select_kernel(logits_ptr, stride_row, n, rows, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, k,
                  out_idx_ptr, out_val_ptr, return_values, page_ptr, page_stride, cu_ptr, has_cu, num_req,
                  offsets_ptr, ctr_ptr, lists_ptr, cap,
                  KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, CBLOCK: tl.constexpr, TRANSFORM: tl.constexpr,
                  HAS_STARTS: tl.constexpr, STREAM: tl.constexpr, BISECT: tl.constexpr = False,
                  SB: tl.constexpr = 1, PAGE_KB: tl.constexpr = None,
                  SURE_KB: tl.constexpr = None, PSTREAM: tl.constexpr = False, SU: tl.constexpr = 1):
    """Row ``b``: the k output slots, from the filter's lists or, if they cannot hold the
    answer, from the exact path. TRANSFORM: 0 none, 1 page_table, 2 ragged. BISECT: the candidates
    by ``bisect_select._select_bisect`` (else 8-bit digit histograms, ``kernel._select_cands``), SB its mode
    (1: bisection, 0: interpolation). PAGE_KB / SURE_KB: the page table over the k slots (``_late_page``) / the sure
    columns' copy to them in blocks of that many (not BLOCK). PSTREAM (page table, no values): the filter's lists
    hold page-table entries, not columns (no pass over the k slots at the end)."""
    LATE_PAGE: tl.constexpr = TRANSFORM == 1 and not PSTREAM
    b = tl.program_id(0)
    if PSTREAM:
        return_values = 0  # the lists hold page entries (``launch_split`` never asks for values with them)
    lane, L, row_ptr, orow, req, offset, _ = _select_row_setup(
        b, logits_ptr, stride_row, n, seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, k, cu_ptr, has_cu, num_req,
        offsets_ptr, BLOCK, TRANSFORM, HAS_STARTS, SU)
    if L <= k:
        _fill_short_row(L, k, orow, row_ptr, lane, req, offset, page_ptr, page_stride, out_idx_ptr, out_val_ptr,
                        return_values, BLOCK, TRANSFORM)
    else:
        ctr = ctr_ptr + b.to(tl.int64) * CTR_WORDS
        ctr64 = ctr.to(tl.pointer_type(tl.int64))
        tot = tl.load(ctr64)
        lo = tl.load(ctr + 2).to(tl.uint32, bitcast=True)
        hi = tl.load(ctr + 3).to(tl.uint32, bitcast=True)
        tl.debug_barrier()  # every thread has read the counts before any resets them
        tl.store(ctr64, tl.zeros_like(tot))  # every filter program of this call is done
        n_s = (tot & 0xFFFFFFFF).to(tl.int32)
        n_c = (tot >> 32).to(tl.int32)
        row_lists = lists_ptr + b.to(tl.int64) * (k + 2 * cap)
        cand_key = row_lists + k
        cand_col = cand_key + cap
        if (n_s <= k) & (n_s + n_c >= k) & (n_c <= cap):
            # The ragged add in place; the page table and the values over the k slots at the end
            # (measured: applying them as each slot is written was no faster, slower on many rows).
            LOCAL_T: tl.constexpr = (TRANSFORM // 2) * 2
            _copy_sure(row_lists, n_s, out_idx_ptr, orow, offset, SURE_KB if SURE_KB else BLOCK, TRANSFORM)
            if n_s < k:
                if BISECT:
                    _select_bisect(n_s, k - n_s, lo, hi, n_c, k, cand_key, cand_col, row_ptr, orow, out_idx_ptr,
                                   out_val_ptr, req, offset, page_ptr, page_stride, 0, CBLOCK, LOCAL_T, SB, True)
                else:
                    _select_cands(n_s, k - n_s, lo, hi, n_c, k, cand_key, cand_col, row_ptr, orow, out_idx_ptr,
                                  out_val_ptr, req, offset, page_ptr, page_stride, 0, CBLOCK, LOCAL_T, True)
            if LATE_PAGE | (return_values != 0):
                tl.debug_barrier()  # the slots were written by other threads
                if return_values:
                    _gather_values(out_idx_ptr, out_val_ptr, orow, k, row_ptr, offset, BLOCK, TRANSFORM)
                    if LATE_PAGE:
                        tl.debug_barrier()  # read before _late_page rewrites them
                if LATE_PAGE:
                    _late_page(out_idx_ptr, orow, k, req, page_ptr, page_stride, PAGE_KB if PAGE_KB else BLOCK)
        else:
            _exact_row(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, cand_key, cand_col, ctr + 4, cap,
                       req, offset, page_ptr, page_stride, return_values, lane, KEY_BITS, BLOCK, TRANSFORM,
                       STREAM, True)
