"""Triton kernel: exact per-row top-k by radix select, with the SGLang index transform fused in.

What it computes, for each row ``b`` (a persistent program walks rows ``pid, pid + P, ...``):

- the valid length ``L`` (``topk_core`` formula with next_n / compress_ratio), clamped to
  the window ``[row_starts[b], N)``;
- ``L <= k``: slots ``0..L-1`` get ``0..L-1`` (transformed), the rest ``-1`` / ``-inf``;
- ``L > k``: the ``k`` largest by ``order_key`` (NaN on top, -0 == +0), in 8-bit radix digits:
  1. a 256-bin histogram of the top digit over the row picks the threshold digit ``d0``;
  2. a second pass writes every column above ``d0`` straight to the output and copies
     the ``d0`` candidates (key, column) to per-program scratch (capacity ``cap``);
  3. further digits are resolved over the candidates (or over the row again when they
     overflowed ``cap``, e.g. wide plateaus), stopping early once a whole bin is taken;
  4. a last pass over the candidates writes those above the threshold, then the first
     ``rem`` ties in column order.
- every selected local index ``j`` is written through the transform: ``j`` (none),
  ``page_table[req(b), j]`` (req from ``cu_seqlens_q`` by counting), or ``j + offsets[b]``.

Limits: ``N < 2**31``; outputs contiguous ``[rows, k]``. Interpreter (TRITON_INTERPRET=1)
exact; compiled for sm_90 in CI. Benchmark with ``bench_quick.py`` beside the package.
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
          TRANSFORM: tl.constexpr, RETURN_VALUES: tl.constexpr):
    """Write the selected lanes at output slots ``pos`` of the row (values gathered from the row)."""
    dst = _transform(local, sel, req, offset, page_ptr, page_stride, TRANSFORM)
    tl.store(out_idx_ptr + orow + pos, dst, mask=sel)
    if RETURN_VALUES:
        tl.store(out_val_ptr + orow + pos, tl.load(row_ptr + local, mask=sel), mask=sel)


@triton.jit
def _source(off, lane, from_buf, n_src, cand_key_ptr, cand_idx_ptr, row_ptr, top_bin,
            SH0: tl.constexpr):
    """A chunk of the candidates: from scratch, or re-derived from the row (top digit == top_bin)."""
    i = off + lane
    m = i < n_src
    if from_buf:
        key = tl.load(cand_key_ptr + i, mask=m, other=0).to(tl.uint32, bitcast=True)
        col = tl.load(cand_idx_ptr + i, mask=m, other=0)
    else:
        x = tl.load(row_ptr + i, mask=m, other=0.0)
        key = order_key(x)
        col = i
        m = m & ((key >> SH0) == top_bin)
    return key, col, m


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
def _select_long(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, cand_key_ptr, cand_idx_ptr, cap,
                 req, offset, page_ptr, page_stride, lane,
                 KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, TRANSFORM: tl.constexpr,
                 RETURN_VALUES: tl.constexpr):
    """Rows with ``L > k``: radix select, writing exactly ``k`` slots."""
    SH0: tl.constexpr = KEY_BITS - 8
    # Pass 1: histogram of the top digit.
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
    # Pass 2: write everything above the threshold digit; keep the threshold digit's columns.
    n_out = 0
    n_cand = 0
    for off in range(0, L, BLOCK):
        j = off + lane
        m = j < L
        key = order_key(tl.load(row_ptr + j, mask=m, other=0.0))
        d = key >> SH0
        sel = m & ((d > top_bin) | ((d == top_bin) & take_all))
        s = sel.to(tl.int32)
        _emit(out_idx_ptr, out_val_ptr, orow, n_out + tl.cumsum(s, axis=0) - s, j, sel, row_ptr, req, offset,
              page_ptr, page_stride, TRANSFORM, RETURN_VALUES)
        n_out += tl.sum(s, axis=0)
        c = m & (d == top_bin) & to_buf
        ci = c.to(tl.int32)
        cpos = n_cand + tl.cumsum(ci, axis=0) - ci
        tl.store(cand_key_ptr + cpos, key.to(tl.int32, bitcast=True), mask=c)
        tl.store(cand_idx_ptr + cpos, j, mask=c)
        n_cand += tl.sum(ci, axis=0)
    if not take_all:
        n_src = tl.where(to_buf, eq0, L)
        prefix = top_bin
        fshift = tl.full([], SH0, tl.uint32)
        done = False
        # Deeper digits over the candidates, until the tie class is a whole bin or the key is exact.
        for lvl in tl.static_range(1, KEY_BITS // 8):
            sh = KEY_BITS - 8 * (lvl + 1)  # constexpr: lvl is static
            if not done:
                hist = tl.zeros([NUM_BINS], dtype=tl.int32)
                for off in range(0, n_src, BLOCK):
                    key, col, m = _source(off, lane, to_buf, n_src, cand_key_ptr, cand_idx_ptr, row_ptr,
                                          top_bin, SH0)
                    m = m & ((key >> (sh + 8)) == prefix)
                    hist += tl.histogram(((key >> sh) & 0xFF).to(tl.int32), NUM_BINS, mask=m)
                bl, gtl, eql = select_bin(hist, rem, NUM_BINS)
                rem -= gtl
                prefix = (prefix << 8) | bl.to(tl.uint32)
                fshift = tl.full([], sh, tl.uint32)
                done = eql == rem
        # Last pass: above the threshold prefix, then the first `rem` ties in order.
        n_tie = 0
        for off in range(0, n_src, BLOCK):
            key, col, m = _source(off, lane, to_buf, n_src, cand_key_ptr, cand_idx_ptr, row_ptr, top_bin, SH0)
            hi = key >> fshift
            tie = m & (hi == prefix)
            ti = tie.to(tl.int32)
            sel = (m & (hi > prefix)) | (tie & (n_tie + tl.cumsum(ti, axis=0) - ti < rem))
            s = sel.to(tl.int32)
            _emit(out_idx_ptr, out_val_ptr, orow, n_out + tl.cumsum(s, axis=0) - s, col, sel, row_ptr, req,
                  offset, page_ptr, page_stride, TRANSFORM, RETURN_VALUES)
            n_out += tl.sum(s, axis=0)
            n_tie += tl.sum(ti, axis=0)


@triton.jit(do_not_specialize=["stride_row", "n", "rows", "next_n", "compress_ratio", "k", "page_stride",
                               "num_req", "cap"])
def sgl_topk_kernel(
    logits_ptr, stride_row, n, rows,
    seq_lens_ptr, next_n, compress_ratio, row_starts_ptr,
    k, out_idx_ptr, out_val_ptr,
    page_ptr, page_stride, cu_ptr, num_req, offsets_ptr,
    cand_ptr, cap,
    KEY_BITS: tl.constexpr, BLOCK: tl.constexpr, HAS_STARTS: tl.constexpr, TRANSFORM: tl.constexpr,
    HAS_CU: tl.constexpr, RETURN_VALUES: tl.constexpr,
):
    """One persistent program per grid slot; rows ``pid, pid + P, ...``. TRANSFORM: 0 none, 1 page, 2 ragged."""
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lane = tl.arange(0, BLOCK)
    cand_key_ptr = cand_ptr + pid.to(tl.int64) * 2 * cap
    cand_idx_ptr = cand_key_ptr + cap
    for b in range(pid, rows, nprog):
        length = row_valid_length(seq_lens_ptr, b, next_n, compress_ratio, n)
        if HAS_STARTS:
            s0 = tl.load(row_starts_ptr + b)
        else:
            s0 = 0
        L, start = window_length(length, s0, n)
        row_ptr = logits_ptr + tl.cast(b, tl.int64) * stride_row + start
        orow = tl.cast(b, tl.int64) * k
        req = tl.cast(b, tl.int64)
        offset = 0
        if TRANSFORM == 1:
            if HAS_CU:
                req = _request_of_row(b, cu_ptr, num_req, lane, BLOCK).to(tl.int64)
        if TRANSFORM == 2:
            offset = tl.load(offsets_ptr + b)
        if L <= k:
            for off in range(0, k, BLOCK):
                j = off + lane
                sel = j < L
                dst = _transform(j, sel, req, offset, page_ptr, page_stride, TRANSFORM)
                tl.store(out_idx_ptr + orow + j, dst, mask=j < k)
                if RETURN_VALUES:
                    x = tl.load(row_ptr + j, mask=sel, other=float("-inf"))
                    tl.store(out_val_ptr + orow + j, x, mask=j < k)
        else:
            _select_long(row_ptr, L, k, orow, out_idx_ptr, out_val_ptr, cand_key_ptr, cand_idx_ptr, cap,
                         req, offset, page_ptr, page_stride, lane,
                         KEY_BITS, BLOCK, TRANSFORM, RETURN_VALUES)
