"""Triton kernel: exact per-row top-k by radix select, with the SGLang index transform fused in.

For each row ``b`` (a persistent program walks rows ``pid, pid + P, ...``):

- the valid length ``L`` (``topk_core`` formula with next_n / compress_ratio), clamped to
  the window ``[row_starts[b], N)``;
- ``L <= k``: slots ``0..L-1`` get ``0..L-1`` (transformed), the rest ``-1`` / ``-inf``;
- ``L > k``: the ``k`` largest by ``order_key`` (NaN on top, -0 == +0), with 8-bit digits.
  Two strategies (``STREAM``, a compile-time choice made on N and k by the host):
  - two-pass (short rows): a 256-bin histogram of the top digit over the row; a second
    pass writes every column above the threshold digit and copies the threshold digit's
    columns to per-program scratch (``cap`` entries; beyond that the deeper digits re-read
    the row); deeper digits are resolved over those candidates;
  - stream (long rows, ``k + BLOCK <= cap``): a threshold sampled from the row's first
    keys, then one read of the row that keeps only keys above the running threshold in
    scratch; when scratch would overflow, an exact select over it keeps ``k`` and raises
    the threshold; if the sampled threshold kept fewer than ``k``, one more read from 0.
  Both finish with a select over scratch that writes the keys above the threshold, then
  ``rem`` of the ties (in scratch order; ties are interchangeable): exactly ``k`` slots.
  Sparse passes take their slots from atomic counters, dense ones from a block scan.
- each selected local index ``j`` goes out through the transform: ``j`` (none),
  ``page_table[req(b), j]`` (req from ``cu_seqlens_q`` by counting), or ``j + offsets[b]``.

Limits: ``N, k <= 2**30``; outputs contiguous ``[rows, k]``. Scratch is written before
it is read (its counters are reset before use), so it needs no zeroing and no restoring. Exact under TRITON_INTERPRET=1;
compiled for sm_90 in CI; timed by ``bench_quick.py`` beside the package.
"""

from __future__ import annotations

import triton
import triton.language as tl

from topk_core.kernels.triton_common import order_key, row_valid_length, select_bin, window_length

NUM_BINS = tl.constexpr(256)  # 8-bit digits: tl.histogram's cost grows with the bin count


@triton.jit
def _transform(local, sel, req, offset, page_ptr, page_stride, TRANSFORM: tl.constexpr):
    """The output index of each selected local column (unselected lanes: -1)."""
    if TRANSFORM == 1:
        dst = tl.load(page_ptr + req * page_stride + local, mask=sel, other=-1)
    elif TRANSFORM == 2:
        dst = local + offset
    else:
        dst = local
    return tl.where(sel, dst, -1)


@triton.jit
def _emit(out_idx_ptr, out_val_ptr, orow, pos, local, sel, row_ptr, req, offset, page_ptr, page_stride,
          return_values, TRANSFORM: tl.constexpr, dst=None):
    """Write the selected lanes at output slots ``pos`` of the row (values gathered from the row). ``dst``: the
    lanes' output indices already gathered (``bisect_select._select_bisect``'s PE), else the transform's."""
    if dst is None:
        dst = _transform(local, sel, req, offset, page_ptr, page_stride, TRANSFORM)
    tl.store(out_idx_ptr + orow + pos, dst, mask=sel)
    if return_values:
        tl.store(out_val_ptr + orow + pos, tl.load(row_ptr + local, mask=sel), mask=sel)


@triton.jit
def _ranks(a, b):
    """Exclusive running counts of two disjoint lane masks with one scan (Triton's scan is
    the costliest op here, ~40-60 instructions per element): (rank among a, rank among b)."""
    packed = a.to(tl.int32) + (b.to(tl.int32) << 16)  # per-chunk counts stay below 2**16
    excl = tl.cumsum(packed, axis=0) - packed
    return excl & 0xFFFF, excl >> 16


@triton.jit
def _source(off, lane, from_buf, n_src, buf_key, buf_idx, row_ptr, top_bin, SH0: tl.constexpr):
    """A chunk of candidates: from scratch, or re-derived from the row (top digit == top_bin)."""
    i = off + lane
    m = i < n_src
    if from_buf:
        key = tl.load(buf_key + i, mask=m, other=0).to(tl.uint32, bitcast=True)
        col = tl.load(buf_idx + i, mask=m, other=0)
    else:
        key = order_key(tl.load(row_ptr + i, mask=m, other=0.0))
        col = i
        m = m & ((key >> SH0) == top_bin)
    return key, col, m


@triton.jit
def _row_transform(b, lane, cu_ptr, has_cu, num_req, offsets_ptr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr):
    """Row ``b``'s transform operands: ``(req, offset)`` (page-table row, ragged offset)."""
    req = tl.cast(b, tl.int64)
    offset = 0
    if TRANSFORM == 1:
        if has_cu:
            req = _request_of_row(b, cu_ptr, num_req, lane, BLOCK).to(tl.int64)
    if TRANSFORM == 2:
        offset = tl.load(offsets_ptr + b)
    return req, offset


@triton.jit
def _gather_values(out_idx_ptr, out_val_ptr, orow, k, row_ptr, offset, KB: tl.constexpr, TRANSFORM: tl.constexpr):
    """The values of the row's k slots (local columns; the ragged offset taken back off), ``KB`` at a time."""
    lane = tl.arange(0, KB)
    for off in range(0, k, KB):
        i = off + lane
        mk = i < k
        local = tl.load(out_idx_ptr + orow + i, mask=mk, other=0)
        if TRANSFORM == 2:
            local -= offset
        tl.store(out_val_ptr + orow + i, tl.load(row_ptr + local, mask=mk), mask=mk)


@triton.jit
def _late_page(out_idx_ptr, orow, k, req, page_ptr, page_stride, KB: tl.constexpr):
    """The page table over the row's k slots (local columns in, page entries out) in blocks of
    ``KB`` slots: every slot load of a block, then every gather, then the stores, so a row pays
    ``ceil(k / KB)`` dependent round trips (one where ``KB >= k``) rather than one per lane block."""
    i0 = tl.arange(0, KB)
    for off in range(0, k, KB):
        i = off + i0
        mk = i < k
        local = tl.load(out_idx_ptr + orow + i, mask=mk, other=0)
        dst = tl.load(page_ptr + req * page_stride + local, mask=mk, other=-1)
        tl.store(out_idx_ptr + orow + i, dst, mask=mk)


@triton.jit
def _fill_short_row(L, k, orow, row_ptr, lane, req, offset, page_ptr, page_stride, out_idx_ptr, out_val_ptr,
                    return_values, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr):
    """A row with ``L <= k``: slots ``0..L-1`` get ``0..L-1`` (transformed), the rest -1 / -inf."""
    for off in range(0, k, BLOCK):
        j = off + lane
        sel = j < L
        dst = _transform(j, sel, req, offset, page_ptr, page_stride, TRANSFORM)
        tl.store(out_idx_ptr + orow + j, dst, mask=j < k)
        if return_values:
            x = tl.load(row_ptr + j, mask=sel, other=float("-inf"))
            tl.store(out_val_ptr + orow + j, x, mask=j < k)


@triton.jit
def _request_of_row(b, cu_ptr, num_req, lane, BLOCK: tl.constexpr):
    """``req(b)``: how many of ``cu[1 .. num_req-1]`` are <= b (cu is non-decreasing)."""
    count = 0
    for off in range(1, num_req, BLOCK):
        r = off + lane
        v = tl.load(cu_ptr + r, mask=r < num_req, other=0)
        count += tl.sum(((r < num_req) & (v <= b)).to(tl.int32), axis=0)
    return count


@triton.jit
def _refine(rem, prefix, from_buf, n_src, buf_key, buf_idx, row_ptr, top_bin, lane,
            KEY_BITS: tl.constexpr, FIRST: tl.constexpr, BLOCK: tl.constexpr):
    """Resolve digits ``FIRST..`` of the ``rem``-th largest among candidates matching ``prefix``.

    Stops early once the tie class is a whole bin. Returns ``(prefix, fshift, rem)``: keys
    with ``key >> fshift > prefix`` are in, and the first ``rem`` with ``==`` are in.
    """
    fshift = tl.full([], KEY_BITS - 8 * FIRST, tl.uint32)
    done = False
    for lvl in tl.static_range(FIRST, KEY_BITS // 8):
        sh = KEY_BITS - 8 * (lvl + 1)  # constexpr: lvl is static
        if not done:
            hist = tl.zeros([NUM_BINS], dtype=tl.int32)
            for off in range(0, n_src, BLOCK):
                key, col, m = _source(off, lane, from_buf, n_src, buf_key, buf_idx, row_ptr, top_bin,
                                      KEY_BITS - 8)
                if lvl > 0:
                    m = m & ((key >> (sh + 8)) == prefix)
                hist += tl.histogram(((key >> sh) & 0xFF).to(tl.int32), NUM_BINS, mask=m)
            bl, gtl, eql = select_bin(hist, rem, NUM_BINS)
            rem -= gtl
            prefix = (prefix << 8) | bl.to(tl.uint32)
            fshift = tl.full([], sh, tl.uint32)
            done = eql == rem
    return prefix, fshift, rem


@triton.jit
def _emit_chunk(hk, prefix, m, col, n_out, n_tie, k, rem, orow, out_idx_ptr, out_val_ptr, row_ptr, req, offset,
                page_ptr, page_stride, return_values, TRANSFORM: tl.constexpr, dst=None):
    """One chunk of the final gather: lanes whose prefix ``hk`` is above ``prefix`` go to slots from
    ``n_out``, the first ``rem - n_tie`` ties (in lane order) to ``[k - rem + n_tie, k)``.
    Returns the updated ``(n_out, n_tie)``; one packed sum counts both (a chunk has < 65536 lanes)."""
    above = m & (hk > prefix)
    tie = m & (hk == prefix)
    a_rank, t_rank = _ranks(above, tie)
    t_rank += n_tie
    take = tie & (t_rank < rem)
    pos = tl.where(above, n_out + a_rank, k - rem + t_rank)
    _emit(out_idx_ptr, out_val_ptr, orow, pos, col, above | take, row_ptr, req, offset, page_ptr, page_stride,
          return_values, TRANSFORM, dst)
    tot = tl.sum(above.to(tl.int32) + (tie.to(tl.int32) << 16), axis=0)
    return n_out + (tot & 0xFFFF), n_tie + (tot >> 16)


@triton.jit
def _emit_final(n_out, k, prefix, fshift, rem, from_buf, n_src, buf_key, buf_idx, row_ptr, top_bin, lane,
                orow, out_idx_ptr, out_val_ptr, req, offset, page_ptr, page_stride, return_values,
                KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr):
    """Write candidates above the threshold prefix to slots ``[n_out, k - rem)``, then the
    first ``rem`` ties to ``[k - rem, k)``."""
    n_tie = 0
    for off in range(0, n_src, BLOCK):
        key, col, m = _source(off, lane, from_buf, n_src, buf_key, buf_idx, row_ptr, top_bin, KEY_BITS - 8)
        n_out, n_tie = _emit_chunk(key >> fshift, prefix, m, col, n_out, n_tie, k, rem, orow, out_idx_ptr,
                                   out_val_ptr, row_ptr, req, offset, page_ptr, page_stride, return_values, TRANSFORM)


@triton.jit
def _select_buf(n_out, need, n_cur, buf_key, buf_idx, row_ptr, lane, orow, out_idx_ptr, out_val_ptr, req,
                offset, page_ptr, page_stride, return_values,
                KEY_BITS: tl.constexpr, FIRST: tl.constexpr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr):
    """Emit the ``need`` largest of scratch ``[0, n_cur)`` (equal in digits ``< FIRST``) from slot ``n_out``.

    Per digit: a histogram over the current tie class, then one pass that emits the keys
    above the threshold digit and moves the tie class to the front in place (a lane moves
    to a slot <= its own, and a chunk is read whole before it is written), so deeper digits
    only see the ties. At the last digit, or when the whole class is needed, the first
    ``rem`` ties in scratch order are emitted instead.
    """
    rem = need
    done = False
    for lvl in tl.static_range(FIRST, KEY_BITS // 8):
        sh = KEY_BITS - 8 * (lvl + 1)  # constexpr: lvl is static
        if not done:
            tl.debug_barrier()  # the class was written by other threads
            hist = tl.zeros([NUM_BINS], dtype=tl.int32)
            for off in range(0, n_cur, BLOCK):
                i = off + lane
                m = i < n_cur
                key = tl.load(buf_key + i, mask=m, other=0).to(tl.uint32, bitcast=True)
                hist += tl.histogram(((key >> sh) & 0xFF).to(tl.int32), NUM_BINS, mask=m)
            bl, gtl, eql = select_bin(hist, rem, NUM_BINS)
            rem_tie = rem - gtl
            last = (eql == rem_tie) | tl.full([], lvl + 1 == KEY_BITS // 8, tl.int1)
            blu = bl.to(tl.uint32)
            # Skipped when the whole class shares this digit: nothing to emit, nothing moves.
            if (eql != n_cur) | last:
                n_above = 0
                n_tie = 0
                for off in range(0, n_cur, BLOCK):
                    i = off + lane
                    m = i < n_cur
                    raw = tl.load(buf_key + i, mask=m, other=0)
                    col = tl.load(buf_idx + i, mask=m, other=0)
                    d = (raw.to(tl.uint32, bitcast=True) >> sh) & 0xFF
                    above = m & (d > blu)
                    tie = m & (d == blu)
                    a_rank, t_rank = _ranks(above, tie)
                    t_rank += n_tie
                    take = tie & last & (t_rank < rem_tie)
                    # Above-threshold keys fill [n_out, n_out + gtl); taken ties follow them.
                    pos = tl.where(above, n_out + n_above + a_rank, n_out + gtl + t_rank)
                    _emit(out_idx_ptr, out_val_ptr, orow, pos, col, above | take, row_ptr, req, offset, page_ptr,
                          page_stride, return_values, TRANSFORM)
                    move = tie & (last == 0)
                    tl.store(buf_key + t_rank, raw, mask=move)
                    tl.store(buf_idx + t_rank, col, mask=move)
                    n_above += tl.sum(above.to(tl.int32), axis=0)
                    n_tie += tl.sum(tie.to(tl.int32), axis=0)
            n_out += gtl + tl.where(last, rem_tie, 0)
            n_cur = eql
            rem = rem_tie
            done = last


@triton.jit
def _two_pass(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, buf_key, buf_idx, ctr_ptr, cap,
              req, offset, page_ptr, page_stride, return_values, lane,
              KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr, ATOMIC: tl.constexpr):
    """Rows with ``L > k``: histogram pass, filter pass, then candidates in scratch.

    ATOMIC: the filter pass takes output and scratch slots from two atomic counters
    (warp-aggregated by the compiler) instead of a block scan.
    """
    SH0: tl.constexpr = KEY_BITS - 8
    hist = tl.zeros([NUM_BINS], dtype=tl.int32)
    for off in range(0, L, BLOCK):
        j = off + lane
        m = j < L
        key = order_key(tl.load(row_ptr + j, mask=m, other=0.0))
        hist += tl.histogram((key >> SH0).to(tl.int32), NUM_BINS, mask=m)
    b0, gt0, eq0 = select_bin(hist, k, NUM_BINS)
    rem = k - gt0
    take_all = eq0 == rem
    to_buf = (eq0 <= cap) & (eq0 != rem)
    top_bin = b0.to(tl.uint32)
    n_out = 0
    n_cand = 0
    _set_counter(ctr_ptr, 0, ATOMIC)
    _set_counter(ctr_ptr + 1, 0, ATOMIC)
    for off in range(0, L, BLOCK):
        j = off + lane
        m = j < L
        key = order_key(tl.load(row_ptr + j, mask=m, other=0.0))
        d = key >> SH0
        sel = m & ((d > top_bin) | ((d == top_bin) & take_all))
        c = m & (d == top_bin) & to_buf
        if ATOMIC:
            zeros = tl.zeros_like(j)
            s_pos = tl.atomic_add(ctr_ptr + zeros, 1, mask=sel, sem="relaxed")
            c_pos = tl.atomic_add(ctr_ptr + 1 + zeros, 1, mask=c, sem="relaxed")
        else:
            s_rank, c_rank = _ranks(sel, c)
            s_pos = n_out + s_rank
            c_pos = n_cand + c_rank
        _emit(out_idx_ptr, out_val_ptr, orow, s_pos, j, sel, row_ptr, req, offset,
              page_ptr, page_stride, return_values, TRANSFORM)
        tl.store(buf_key + c_pos, key.to(tl.int32, bitcast=True), mask=c)
        tl.store(buf_idx + c_pos, j, mask=c)
        n_out += tl.sum(sel.to(tl.int32), axis=0)
        n_cand += tl.sum(c.to(tl.int32), axis=0)
    tl.debug_barrier()  # scratch written by other threads is read next
    if to_buf:
        _select_buf(n_out, rem, eq0, buf_key, buf_idx, row_ptr, lane, orow, out_idx_ptr, out_val_ptr, req,
                    offset, page_ptr, page_stride, return_values, KEY_BITS, 1, BLOCK, TRANSFORM)
    elif not take_all:  # more ties on the top digit than scratch holds: deeper digits re-read the row
        prefix, fshift, rem = _refine(rem, top_bin, False, L, buf_key, buf_idx, row_ptr, top_bin, lane,
                                      KEY_BITS, 1, BLOCK)
        _emit_final(n_out, k, prefix, fshift, rem, False, L, buf_key, buf_idx, row_ptr, top_bin, lane,
                    orow, out_idx_ptr, out_val_ptr, req, offset, page_ptr, page_stride, return_values,
                    KEY_BITS, BLOCK, TRANSFORM)


@triton.jit
def _compact(nb, k, buf_key, buf_idx, row_ptr, lane, KEY_BITS: tl.constexpr, BLOCK: tl.constexpr):
    """Keep exactly the ``k`` largest of scratch ``[0, nb)`` in place; return the smallest kept key."""
    tl.debug_barrier()
    zero = tl.full([], 0, tl.uint32)
    prefix, fshift, rem = _refine(k, zero, True, nb, buf_key, buf_idx, row_ptr, zero, lane, KEY_BITS, 0, BLOCK)
    n_keep = 0
    n_tie = 0
    t = tl.full([], 0xFFFFFFFF, tl.uint32)
    for off in range(0, nb, BLOCK):
        i = off + lane
        m = i < nb
        key = tl.load(buf_key + i, mask=m, other=0)
        col = tl.load(buf_idx + i, mask=m, other=0)
        hi = key.to(tl.uint32, bitcast=True) >> fshift
        tie = m & (hi == prefix)
        ti = tie.to(tl.int32)
        sel = (m & (hi > prefix)) | (tie & (n_tie + tl.cumsum(ti, axis=0) - ti < rem))
        s = sel.to(tl.int32)
        pos = n_keep + tl.cumsum(s, axis=0) - s  # pos <= i: in place is safe chunk by chunk
        tl.store(buf_key + pos, key, mask=sel)
        tl.store(buf_idx + pos, col, mask=sel)
        t = tl.minimum(t, tl.min(tl.where(sel, key.to(tl.uint32, bitcast=True), 0xFFFFFFFF), axis=0))
        n_keep += tl.sum(s, axis=0)
        n_tie += tl.sum(ti, axis=0)
    tl.debug_barrier()
    return t


@triton.jit
def _append(nb, cnt, key, col, keep, buf_key, buf_idx, ctr_ptr, ATOMIC: tl.constexpr):
    """Append the kept lanes to scratch at ``nb``; returns the new fill.

    ATOMIC: slots from relaxed atomic increments of a per-program counter (which holds
    ``nb``) instead of a block scan: the stream keeps ~2k of L keys, so few lanes pay,
    while the scan costs every lane (order among appended keys does not matter).
    """
    if ATOMIC:
        pos = tl.atomic_add(ctr_ptr + tl.zeros_like(col), 1, mask=keep, sem="relaxed")
    else:
        ki = keep.to(tl.int32)
        pos = nb + tl.cumsum(ki, axis=0) - ki
    tl.store(buf_key + pos, key.to(tl.int32, bitcast=True), mask=keep)
    tl.store(buf_idx + pos, col, mask=keep)
    return nb + cnt


@triton.jit
def _set_counter(ctr_ptr, value, ATOMIC: tl.constexpr):
    """Reset the append counter, as an atomic too (all its accesses happen at L2), before
    any thread of the program appends again (barrier)."""
    if ATOMIC:
        tl.debug_barrier()
        tl.atomic_xchg(ctr_ptr, value, sem="relaxed")
        tl.debug_barrier()


@triton.jit
def _sample_threshold(row_ptr, L, k, KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, SAMPLE: tl.constexpr):
    """A starting threshold for the stream path from the row's first ``SAMPLE`` keys (0: no guess).

    The sample holds ``e = k SAMPLE / L`` of the row's top k on average; its
    ``e + 4 sqrt(e) + 4``-th largest key (to 16 bits) is beaten by at least k keys of the
    row unless the sample is ~4 sigma off. A guess that keeps fewer than k only costs a
    second read (see ``_stream``).
    """
    SH0: tl.constexpr = KEY_BITS - 8
    t = tl.full([], 0, tl.uint32)
    if L >= 4 * BLOCK:
        key = order_key(tl.load(row_ptr + tl.arange(0, SAMPLE)))
        expect = (k * SAMPLE).to(tl.float32) / L.to(tl.float32)
        want = (expect + 4.0 * tl.sqrt(expect) + 4.0).to(tl.int32)
        if want < SAMPLE // 2:
            top = key >> SH0
            b0, above0, count0 = select_bin(tl.histogram(top.to(tl.int32), NUM_BINS), want, NUM_BINS)
            in_bin = top == b0.to(tl.uint32)
            second = ((key >> (SH0 - 8)) & 0xFF).to(tl.int32)
            b1, above1, count1 = select_bin(tl.histogram(second, NUM_BINS, mask=in_bin), want - above0, NUM_BINS)
            base = ((b0.to(tl.uint32) << 8) | b1.to(tl.uint32)) << (KEY_BITS - 16)
            if base > 0:
                t = base - 1
    return t


@triton.jit
def _stream(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, buf_key, buf_idx, ctr_ptr, cap,
            req, offset, page_ptr, page_stride, return_values, lane,
            KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr, ATOMIC: tl.constexpr):
    """Rows with ``L > k``, one read: keep keys above a running threshold (needs k + BLOCK <= cap).

    The first attempt starts from a sampled threshold; if fewer than k keys beat it, a
    second attempt starts from 0 (no real value has key 0), which always keeps enough.
    """
    SAMPLE: tl.constexpr = min(BLOCK, 1024)  # ~2 histograms of 1024 keys per row
    t = _sample_threshold(row_ptr, L, k, KEY_BITS, BLOCK, SAMPLE)
    nb = 0
    attempt = 0
    while attempt < 2:
        nb = 0
        _set_counter(ctr_ptr, 0, ATOMIC)
        x_next = tl.load(row_ptr + lane, mask=lane < L, other=0.0)
        for off in range(0, L, BLOCK):
            j = off + lane
            m = j < L
            x = x_next
            x_next = tl.load(row_ptr + j + BLOCK, mask=j + BLOCK < L, other=0.0)  # prefetch
            key = order_key(x)
            keep = m & (key > t)
            cnt = tl.sum(keep.to(tl.int32), axis=0)
            if nb + cnt > cap:
                # Scratch holds >= k keys >= any dropped one; keep exactly k of them. The chunk
                # is reloaded afterwards (L1/L2) so that its registers are free during the select.
                t = _compact(nb, k, buf_key, buf_idx, row_ptr, lane, KEY_BITS, BLOCK)
                nb = k
                _set_counter(ctr_ptr, k, ATOMIC)
                key = order_key(tl.load(row_ptr + j, mask=m, other=0.0))
                keep = m & (key > t)
                cnt = tl.sum(keep.to(tl.int32), axis=0)
            nb = _append(nb, cnt, key, j, keep, buf_key, buf_idx, ctr_ptr, ATOMIC)
        attempt = tl.where(nb >= k, 2, attempt + 1)
        t = tl.full([], 0, tl.uint32)
    _select_buf(tl.full([], 0, tl.int32), k, nb, buf_key, buf_idx, row_ptr, lane, orow, out_idx_ptr, out_val_ptr,
                req, offset, page_ptr, page_stride, return_values, KEY_BITS, 0, BLOCK, TRANSFORM)


@triton.jit
def _add3(a0, a1, a2, b0, b1, b2):
    return a0 + b0, a1 + b1, a2 + b2


@triton.jit
def _pick_bin(hist, rem, NUM_BINS: tl.constexpr):
    """``select_bin`` in two block operations instead of five (one suffix scan, one
    three-way sum): the bin holding the ``rem``-th largest, the count above it, its count.
    Needs ``1 <= rem <= sum(hist)``."""
    bins = tl.arange(0, NUM_BINS)
    suffix = tl.cumsum(hist, axis=0, reverse=True)  # elements in this bin or above
    above = suffix - hist
    hit = (above < rem) & (suffix >= rem)
    return tl.reduce((tl.where(hit, bins, 0), tl.where(hit, above, 0), tl.where(hit, hist, 0)), 0, _add3)


@triton.jit
def _pick_two(hist, r_a, r_b, NUM_BINS: tl.constexpr):
    """``_pick_bin`` for two ranks with one suffix scan and one reduction: the bins holding the
    ``r_a``-th and ``r_b``-th largest and the counts above them (bin 0, count 0 for a rank
    outside ``[1, sum(hist)]``). Counts stay below 2**24."""
    bins = tl.arange(0, NUM_BINS).to(tl.int64)
    suffix = tl.cumsum(hist, axis=0, reverse=True)
    above = (suffix - hist).to(tl.int64)
    hit_a = (above < r_a) & (suffix >= r_a)
    hit_b = (above < r_b) & (suffix >= r_b)
    packed = tl.where(hit_a, bins | (above << 8), 0) + tl.where(hit_b, (bins | (above << 8)) << 32, 0)
    tot = tl.sum(packed, axis=0)
    return ((tot & 0xFF).to(tl.int32), ((tot >> 8) & 0xFFFFFF).to(tl.int32),
            ((tot >> 32) & 0xFF).to(tl.int32), (tot >> 40).to(tl.int32))


@triton.jit
def _bracket(row_ptr, L, k, KEY_BITS: tl.constexpr, SAMPLE: tl.constexpr):
    """Keys ``(lo, hi)`` from ``SAMPLE`` evenly spaced columns such that, with high probability,
    fewer than k keys of the row are ``> hi``, at least k are ``>= lo``, and few lie between.

    Ranks ``p S -+ (5 sigma + 2)`` of the sample (p = k / L), each to 16 bits: the top byte of
    both from one 256-bin histogram, then the second byte of both from one 512-bin histogram
    (``hi``'s top bin in the upper half, ``lo``'s in the lower unless it is the same bin).
    Only speed depends on it: ``_fast`` checks the counts.
    """
    SH0: tl.constexpr = KEY_BITS - 8
    SH1: tl.constexpr = KEY_BITS - 16
    i = tl.arange(0, SAMPLE)
    pos = ((i.to(tl.float32) + 0.5) * (L.to(tl.float32) / SAMPLE)).to(tl.int32)
    pos = tl.minimum(tl.maximum(pos, 0), L - 1)
    key = order_key(tl.load(row_ptr + pos))
    p = k.to(tl.float32) / L.to(tl.float32)
    mid = p * SAMPLE
    margin = 5.0 * tl.sqrt(tl.maximum(mid * (1.0 - p), 0.0)) + 2.0
    r_hi = (mid - margin).to(tl.int32)  # truncation: < 1 means no sure keys
    r_lo = (mid + margin).to(tl.int32) + 1
    top = (key >> SH0).to(tl.int32)
    second = ((key >> SH1) & 0xFF).to(tl.int32)
    b_lo, a_lo, b_hi, a_hi = _pick_two(tl.histogram(top, NUM_BINS), r_lo, r_hi, NUM_BINS)
    up = top == b_hi
    h2 = tl.histogram(second + tl.where(up, NUM_BINS, 0), 2 * NUM_BINS, mask=up | (top == b_lo))
    h2 = tl.reshape(h2, [2, NUM_BINS])
    suffix = tl.cumsum(h2, axis=1, reverse=True)  # within each half
    above = suffix - h2
    half = tl.arange(0, 2)[:, None]
    bins = tl.arange(0, NUM_BINS)[None, :]
    lo_half = (b_lo == b_hi).to(tl.int32)
    r2_lo = r_lo - a_lo
    r2_hi = r_hi - a_hi
    hit_lo = (half == lo_half) & (above < r2_lo) & (suffix >= r2_lo)
    hit_hi = (half == 1) & (above < r2_hi) & (suffix >= r2_hi)
    c = tl.sum(tl.reshape(tl.where(hit_lo, bins, 0) + tl.where(hit_hi, bins << 16, 0), [2 * NUM_BINS]), axis=0)
    c_lo = c & 0xFFFF
    c_hi = c >> 16
    lo = tl.full([], 0, tl.uint32)
    hi = tl.full([], (1 << KEY_BITS) - 1, tl.uint32)
    if r_lo <= SAMPLE:
        lo = ((b_lo << 8) | c_lo).to(tl.uint32) << SH1
    if r_hi >= 1:
        hi = ((((b_hi << 8) | c_hi) + 1).to(tl.uint32) << SH1) - 1  # wraps to the top key
    return lo, hi


@triton.jit
def _cand_chunk(off, lane, n_cand, buf_key, buf_idx, lo, row_ptr, RAW: tl.constexpr):
    """Candidates ``off ..`` of scratch, keys relative to ``lo`` (all candidates are ``>= lo``).
    RAW 1: scratch holds the values' bits (``split.py``), not their keys; RAW 2: one 64-bit word per candidate from
    ``buf_key`` on, the key in its high half and the column in its low half (``_packed_cand``)."""
    i = off + lane
    m = i < n_cand
    if RAW == 2:
        key, col = _packed_cand(buf_key, i, m)
        key -= lo
    else:
        key = _scratch_key(tl.load(buf_key + i, mask=m, other=0), row_ptr, RAW) - lo
        col = tl.load(buf_idx + i, mask=m, other=0)
    return key, col, m


@triton.jit
def _packed_cand(buf, i, m):
    """Candidate ``i``'s (order key, column) from packed scratch (RAW 2: ``key << 32 | column`` per 64-bit word)."""
    v = tl.load(buf.to(tl.pointer_type(tl.int64)) + i, mask=m, other=0)
    return (v >> 32).to(tl.int32).to(tl.uint32, bitcast=True), v.to(tl.int32)


@triton.jit
def _scratch_key(v, row_ptr, RAW: tl.constexpr):
    """A candidate's order key from its scratch word: the key itself, or (RAW 1, ``split.py``) the value's bits."""
    if RAW == 1:
        ety = row_ptr.dtype.element_ty
        if ety == tl.float32:
            key = order_key(v.to(tl.float32, bitcast=True))
        else:
            key = order_key(v.to(tl.int16).to(ety, bitcast=True))
    else:
        key = v.to(tl.uint32, bitcast=True)
    return key


@triton.jit
def _select_cands(n_out, rem, lo, hi, n_cand, k, buf_key, buf_idx, row_ptr, orow, out_idx_ptr, out_val_ptr,
                  req, offset, page_ptr, page_stride, return_values,
                  CBLOCK: tl.constexpr, TRANSFORM: tl.constexpr, RAW: tl.constexpr = False):
    """Emit the ``rem`` largest of the ``n_cand`` candidates in scratch (all in ``[lo, hi]``)
    to slots ``[n_out, k)``.

    8-bit digits of ``key - lo`` (at most ``hi - lo``: fewer digits than the key's own bytes
    when the bracket straddles a byte boundary); the first chunk stays in registers across
    digits. One packed block scan places the keys above the threshold (from ``n_out``) and the
    first ``rem`` ties (slots ``k - rem ..``).
    """
    lane = tl.arange(0, CBLOCK)
    key0, col0, m0 = _cand_chunk(0, lane, n_cand, buf_key, buf_idx, lo, row_ptr, RAW)
    diff = hi - lo
    n_lvl = (diff > 0).to(tl.int32) + (diff > 0xFF).to(tl.int32) + (diff > 0xFFFF).to(tl.int32) + \
        (diff > 0xFFFFFF).to(tl.int32)
    s = tl.maximum(8 * (n_lvl - 1), 0).to(tl.uint32)
    done = n_lvl == 0
    prefix = tl.full([], 0, tl.uint32)  # every relative key is below 2 ** (s + 8)
    s_fin = tl.full([], 0, tl.uint32)
    for _lvl in tl.static_range(4):
        if not done:
            mk = m0 & (((key0 >> s) >> 8) == prefix)
            hist = tl.histogram(((key0 >> s) & 0xFF).to(tl.int32), NUM_BINS, mask=mk)
            for off in range(CBLOCK, n_cand, CBLOCK):
                key, col, m = _cand_chunk(off, lane, n_cand, buf_key, buf_idx, lo, row_ptr, RAW)
                mk = m & (((key >> s) >> 8) == prefix)
                hist += tl.histogram(((key >> s) & 0xFF).to(tl.int32), NUM_BINS, mask=mk)
            b, gt, eq = _pick_bin(hist, rem, NUM_BINS)
            rem -= gt
            prefix = (prefix << 8) | b.to(tl.uint32)
            s_fin = s
            done = (eq == rem) | (s == 0)
            s = tl.maximum(s.to(tl.int32) - 8, 0).to(tl.uint32)
    n_tie = 0
    for off in range(0, n_cand, CBLOCK):
        if off == 0:
            key, col, m = key0, col0, m0
        else:
            key, col, m = _cand_chunk(off, lane, n_cand, buf_key, buf_idx, lo, row_ptr, RAW)
        n_out, n_tie = _emit_chunk(key >> s_fin, prefix, m, col, n_out, n_tie, k, rem, orow, out_idx_ptr,
                                   out_val_ptr, row_ptr, req, offset, page_ptr, page_stride, return_values, TRANSFORM)


@triton.jit
def _fast(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, buf_key, buf_idx, cap, slot_key, slot_col, n_slots,
          req, offset, page_ptr, page_stride, return_values,
          KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr, SAMPLE: tl.constexpr,
          CBLOCK: tl.constexpr, THREADS: tl.constexpr):
    """Rows with ``L > k`` in one read of the row, with no histogram of the row and nothing
    but register arithmetic and stores in its loop (no block scan, no reduction, no atomic:
    an atomic's round trip, or a scan's barriers, per chunk is what made the older paths slow).

    1. A sampled bracket ``[lo, hi]`` (``_bracket``).
    2. One pass over chunks of ``[BLOCK // THREADS, THREADS]`` columns (a column of the chunk
       per thread): each column of lanes keeps its own list of the keys ``>= lo`` it sees, in
       ``n_slots`` rows of slot scratch (row ``d`` holds every list's ``d``-th key), with two
       counts ("sure": above ``hi``; in the bracket) packed in one register.
    3. One packed block scan of the list counts places every key: the sure ones go straight
       to the output, the bracket's to a compact candidate list.
    4. An exact select of the ``k - sure`` largest candidates (``_select_cands``).
    5. The page-table transform and the values, if asked for, over the k written slots at once
       (the ragged offset is added in place).
    Returns False, having settled nothing, when the counts show that the bracket missed or a
    list overflowed; the caller then runs an exact path, which rewrites every slot.
    """
    R: tl.constexpr = BLOCK // THREADS
    LOCAL_T: tl.constexpr = (TRANSFORM // 2) * 2  # the ragged add in place; the page table at the end
    COPY_ROWS: tl.constexpr = 8
    t = tl.arange(0, THREADS)
    cell = tl.arange(0, R)[:, None] * THREADS + t[None, :]
    x_next = tl.load(row_ptr + cell, mask=cell < L, other=0.0)  # in flight while the bracket is found
    lo, hi = _bracket(row_ptr, L, k, KEY_BITS, SAMPLE)
    cnt = tl.zeros([THREADS], dtype=tl.int32)  # per list: sure + (in bracket << 16)
    for off in range(0, L, BLOCK):
        j = off + cell
        m = j < L
        x = x_next
        x_next = tl.load(row_ptr + j + BLOCK, mask=j + BLOCK < L, other=0.0)  # prefetch
        key = order_key(x)
        sure = m & (key > hi)
        cand = m & (key >= lo) & (key <= hi)
        sel = (sure | cand).to(tl.int32)
        slot = ((cnt & 0xFFFF) + (cnt >> 16))[None, :] + tl.cumsum(sel, axis=0) - sel  # within a thread
        wr = (sel != 0) & (slot < n_slots)
        # Stored as flat tensors: a 2-D store of these addresses would be re-laid out (shared
        # memory and barriers) by the compiler's coalescing, which cannot see that they are scattered.
        addr = tl.reshape(slot * THREADS + t[None, :], [BLOCK])
        wr = tl.reshape(wr, [BLOCK])
        tl.store(slot_key + addr, tl.reshape(key.to(tl.int32, bitcast=True), [BLOCK]), mask=wr)
        tl.store(slot_col + addr, tl.reshape(j, [BLOCK]), mask=wr)
        cnt += tl.sum(sure.to(tl.int32) + (cand.to(tl.int32) << 16), axis=0)
    n_sure = cnt & 0xFFFF
    n_in = n_sure + (cnt >> 16)
    packed = n_sure.to(tl.int64) | ((cnt >> 16).to(tl.int64) << 32)
    excl = tl.cumsum(packed, axis=0) - packed
    tot = tl.sum(packed, axis=0)
    n_s = (tot & 0xFFFFFFFF).to(tl.int32)
    n_c = (tot >> 32).to(tl.int32)
    most = tl.max(n_in, axis=0)
    ok = (n_s <= k) & (n_s + n_c >= k) & (n_c <= cap) & (most <= n_slots)
    if ok:
        tl.debug_barrier()  # slot scratch may be read by other threads than wrote it
        s_pos = (excl & 0xFFFFFFFF).to(tl.int32)
        c_pos = (excl >> 32).to(tl.int32)
        # COPY_ROWS list rows per step, loaded together: one memory round trip per step, not per row.
        u = tl.arange(0, COPY_ROWS)[:, None]
        for d in range(0, most, COPY_ROWS):
            has = (d + u) < n_in[None, :]
            addr = (d + u) * THREADS + t[None, :]
            key = tl.load(slot_key + addr, mask=has, other=0)
            col = tl.load(slot_col + addr, mask=has, other=0)
            sure = (has & (key.to(tl.uint32, bitcast=True) > hi)).to(tl.int32)
            cand = (has & (key.to(tl.uint32, bitcast=True) <= hi)).to(tl.int32)
            sp = s_pos[None, :] + tl.cumsum(sure, axis=0) - sure  # within a thread
            cp = c_pos[None, :] + tl.cumsum(cand, axis=0) - cand
            # Flat stores, as in the pass (a 2-D store would be re-laid out through shared memory).
            sure_f = tl.reshape(sure != 0, [COPY_ROWS * THREADS])
            cand_f = tl.reshape(cand != 0, [COPY_ROWS * THREADS])
            col_f = tl.reshape(col, [COPY_ROWS * THREADS])
            _emit(out_idx_ptr, out_val_ptr, orow, tl.reshape(sp, [COPY_ROWS * THREADS]), col_f, sure_f, row_ptr,
                  req, offset, page_ptr, page_stride, 0, LOCAL_T)
            cpf = tl.reshape(cp, [COPY_ROWS * THREADS])
            tl.store(buf_key + cpf, tl.reshape(key, [COPY_ROWS * THREADS]), mask=cand_f)
            tl.store(buf_idx + cpf, col_f, mask=cand_f)
            s_pos += tl.sum(sure, axis=0)
            c_pos += tl.sum(cand, axis=0)
        if n_s < k:
            tl.debug_barrier()  # the candidate list was written by other threads
            _select_cands(n_s, k - n_s, lo, hi, n_c, k, buf_key, buf_idx, row_ptr, orow, out_idx_ptr,
                          out_val_ptr, req, offset, page_ptr, page_stride, 0, CBLOCK, LOCAL_T)
        if (TRANSFORM == 1) | (return_values != 0):
            # Gathers (values, page table) over all k slots at the end: in the loops above each
            # one would hold its loop iteration for a memory round trip before the store.
            tl.debug_barrier()  # the slots were written by other threads
            if return_values:
                _gather_values(out_idx_ptr, out_val_ptr, orow, k, row_ptr, offset, BLOCK, TRANSFORM)
                if TRANSFORM == 1:
                    tl.debug_barrier()  # read before _late_page rewrites them
            if TRANSFORM == 1:
                _late_page(out_idx_ptr, orow, k, req, page_ptr, page_stride, BLOCK)
    tl.debug_barrier()
    return ok


@triton.jit
def _exact_row(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, buf_key, buf_idx, ctr_ptr, cap,
               req, offset, page_ptr, page_stride, return_values, lane,
               KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr, STREAM: tl.constexpr,
               ATOMIC: tl.constexpr):
    """The exact paths without a sampled guess (``FAST`` off, or its bracket missed)."""
    if STREAM:
        _stream(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, buf_key, buf_idx, ctr_ptr, cap,
                req, offset, page_ptr, page_stride, return_values, lane, KEY_BITS, BLOCK, TRANSFORM, ATOMIC)
    else:
        _two_pass(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, buf_key, buf_idx, ctr_ptr, cap,
                  req, offset, page_ptr, page_stride, return_values, lane, KEY_BITS, BLOCK, TRANSFORM, ATOMIC)


@triton.jit(do_not_specialize=["stride_row", "n", "rows", "next_n", "compress_ratio", "has_starts", "k",
                               "return_values", "page_stride", "has_cu", "num_req", "cap",
                               "n_slots"])
def sgl_topk_kernel(
    logits_ptr, stride_row, n, rows,
    seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, has_starts,
    k, out_idx_ptr, out_val_ptr, return_values,
    page_ptr, page_stride, cu_ptr, has_cu, num_req, offsets_ptr,
    cand_ptr, cap, n_slots,
    KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr, STREAM: tl.constexpr,
    ATOMIC: tl.constexpr, FAST: tl.constexpr = False, SAMPLE: tl.constexpr = 512, CBLOCK: tl.constexpr = 1024,
    THREADS: tl.constexpr = 128, FBLOCK: tl.constexpr = 4096,
):
    """Persistent programs over rows. TRANSFORM: 0 none, 1 page_table, 2 ragged.

    FAST: rows with ``L > k`` try ``_fast`` first (chunks of FBLOCK columns, THREADS = 32 x
    num_warps lists); the exact paths (chunks of BLOCK) run when its bracket misses.

    Runtime flags (``has_starts``, ``return_values``, ``has_cu``) are uniform branches, so
    one build serves them all; only dtype, BLOCK, TRANSFORM and STREAM change the code.
    """
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lane = tl.arange(0, BLOCK)
    # Per program: cap keys, cap columns, 32 counter words, then (fast path) n_slots x THREADS
    # slot keys and as many slot columns.
    buf_key = cand_ptr + pid.to(tl.int64) * (2 * cap + 32 + 2 * n_slots * THREADS)
    buf_idx = buf_key + cap
    ctr_ptr = buf_key + 2 * cap
    slot_key = ctr_ptr + 32
    slot_col = slot_key + n_slots * THREADS
    for b in range(pid, rows, nprog):
        length = row_valid_length(seq_lens_ptr, b, next_n, compress_ratio, n)
        s0 = 0
        if has_starts:
            s0 = tl.load(row_starts_ptr + b)
        L, start = window_length(length, s0, n)
        row_ptr = logits_ptr + tl.cast(b, tl.int64) * stride_row + start
        orow = tl.cast(b, tl.int64) * k
        req, offset = _row_transform(b, lane, cu_ptr, has_cu, num_req, offsets_ptr, BLOCK, TRANSFORM)
        if L <= k:
            _fill_short_row(L, k, orow, row_ptr, lane, req, offset, page_ptr, page_stride, out_idx_ptr, out_val_ptr,
                            return_values, BLOCK, TRANSFORM)
        else:
            ok = False
            if FAST:
                if L < 65536 * THREADS:  # a list's packed counts stay below 2**16
                    ok = _fast(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, buf_key, buf_idx, cap, slot_key,
                               slot_col, n_slots, req, offset, page_ptr, page_stride, return_values, KEY_BITS,
                               FBLOCK, TRANSFORM, SAMPLE, CBLOCK, THREADS)
            if not ok:
                _exact_row(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, buf_key, buf_idx, ctr_ptr, cap,
                           req, offset, page_ptr, page_stride, return_values, lane, KEY_BITS, BLOCK, TRANSFORM,
                           STREAM, ATOMIC)
        tl.debug_barrier()  # the next row reuses this program's scratch

