"""The split path of radix_cutlass: few long rows, each spread over ``S`` CTAs (no clusters).

One CTA per row leaves most SMs idle when rows are few (8 rows of 128K use 8 of 132
SMs). Here each row's ``[0, S*W)`` columns are cut into ``S`` chunks of ``W``:

1. ``ChunkTopK`` (grid ``S x rows``): the CTA of chunk ``c`` of row ``r`` selects the
   top-``k`` of ``logits[r, c*W : min((c+1)*W, L_r)]`` with the row kernel's
   ``_select`` and writes their order keys and columns to slots ``[c*k, (c+1)*k)`` of
   the row's candidate row in scratch. A chunk holding ``<= k`` valid columns copies
   them all and fills its remaining slots with key 0 (below every real key: the
   lowest real key is -inf's) and column -1.
2. ``MergeTopK`` (grid ``rows``): selects the top-``k`` of the row's ``S*k`` candidate
   keys and writes their columns (and the logits there, as values). Key-0 fillers are
   never picked: a row with ``L_r > k`` has at least ``k`` real candidates.

The row's top-k lies within the union of its chunks' top-k, so the result is exact
(ties included: a tie group cut at one chunk's k-th key leaves that chunk with k keys
no smaller than the group). Rows with ``L_r <= k`` skip step 1; step 2 writes them
directly. Every slot step 2 reads was written by step 1 of the same launch, so the
scratch needs no zeroing and holds no state between launches.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Int64, Uint32

from topk_core.kernels.cute_common import KEY_BITS, alloc_row_buffers, row_length

from .kernel import RadixTopK


class ChunkTopK(RadixTopK):
    """Step 1: the top-``k`` order keys and columns of one chunk of a row."""

    @cute.jit
    def _emit(self, out, pos: Int32, col: Int32, bits: Int32, key: Uint32, have_bits: cutlass.Constexpr):
        cols, keys, col0 = out  # candidate columns, candidate keys, the chunk's first column
        cols[pos] = col + col0
        keys[pos] = Int32(key)

    @cute.kernel
    def kernel(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, ckey_ptr: cute.Pointer,
               ccol_ptr: cute.Pointer, n: Int32, stride: Int32, k: Int32, next_n: Int32,
               compress_ratio: Int32, width: Int32, cstride: Int32):
        tid, _, _ = cute.arch.thread_idx()
        chunk, row, _ = cute.arch.block_idx()
        hist, ckey, cidx, ctl = alloc_row_buffers(self.bins, self.cand)
        length = row_length(seq_ptr, row, n, next_n, compress_ratio)
        if length > k:  # else the merge step writes the row from the logits
            col0 = chunk * width
            part = length - col0
            if part > width:
                part = width
            slot0 = Int64(row) * Int64(cstride) + Int64(chunk) * Int64(k)
            keys = cute.make_tensor(ckey_ptr + slot0, cute.make_layout(k))
            cols = cute.make_tensor(ccol_ptr + slot0, cute.make_layout(k))
            xstart = x_ptr + (Int64(row) * Int64(stride) + Int64(col0))
            if part <= k:  # keep every valid column (part may be <= 0), fill the rest
                xr = cute.make_tensor(xstart, cute.make_layout(k))
                for j in cutlass.range(tid, k, self.threads):
                    key = Uint32(0)
                    col = Int32(-1)
                    if j < part:
                        key = self._key(Int32(xr[j]))
                        col = col0 + j
                    keys[j] = Int32(key)
                    cols[j] = col
            else:
                self._select(xstart, part, k, (cols, keys, col0), hist, ckey, cidx, ctl, tid)


class MergeTopK(RadixTopK):
    """Step 2: the top-``k`` of a row's candidate keys, written as the row's result."""

    reads_logits = False  # candidate keys, not floats: no float compares

    def __init__(self, dtype: str, with_values: bool, **kw):
        super().__init__(dtype, with_values, **kw)
        self.raw = Int32  # reads the candidate keys
        self.vec = 4 if kw.get("vec", True) else 1
        self.key_mask = (1 << KEY_BITS[dtype]) - 1

    @cute.jit
    def _key(self, bits: Int32) -> Uint32:
        return Uint32(bits) & Uint32(self.key_mask)

    @cute.jit
    def _emit(self, out, pos: Int32, col: Int32, bits: Int32, key: Uint32, have_bits: cutlass.Constexpr):
        ir, vr, cols, xr = out  # result row, value row, candidate columns, logits row
        c = cols[col]
        ir[pos] = c
        if cutlass.const_expr(self.with_values):
            vr[pos] = self.elem(Int32(xr[c]))

    @cute.kernel
    def kernel(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, ckey_ptr: cute.Pointer,
               ccol_ptr: cute.Pointer, idx_ptr: cute.Pointer, val_ptr: cute.Pointer, n: Int32, stride: Int32,
               k: Int32, next_n: Int32, compress_ratio: Int32, ncand: Int32, cstride: Int32):
        self._row((ckey_ptr, ccol_ptr, ncand, cstride), x_ptr, seq_ptr, idx_ptr, val_ptr, n, stride, k, next_n,
                  compress_ratio)

    @cute.jit
    def _select_row(self, src, row: Int32, length: Int32, k: Int32, ir, vr, xr, hist, ckey, cidx, ctl, tid: Int32):
        """A row with ``L > k``: the top-k of its ``ncand`` candidate keys, ``src = (keys, cols, ncand, cstride)``."""
        ckey_ptr, ccol_ptr, ncand, cstride = src
        slot0 = Int64(row) * Int64(cstride)
        cols = cute.make_tensor(ccol_ptr + slot0, cute.make_layout(ncand))
        self._select(ckey_ptr + slot0, ncand, k, (ir, vr, cols, xr), hist, ckey, cidx, ctl, tid)


class SplitRadixTopK:
    """Both steps in one host function (two launches on one stream)."""

    def __init__(self, chunk: ChunkTopK, merge: MergeTopK):
        self.chunk = chunk
        self.merge = merge

    @cute.jit
    def __call__(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, ckey_ptr: cute.Pointer,
                 ccol_ptr: cute.Pointer, idx_ptr: cute.Pointer, val_ptr: cute.Pointer, rows: Int32,
                 n: Int32, stride: Int32, k: Int32, next_n: Int32, compress_ratio: Int32, width: Int32,
                 chunks: Int32, cstride: Int32, stream):
        self.chunk.kernel(x_ptr, seq_ptr, ckey_ptr, ccol_ptr, n, stride, k, next_n, compress_ratio, width,
                          cstride).launch(grid=[chunks, rows, 1], block=[self.chunk.threads, 1, 1], stream=stream)
        self.merge.kernel(x_ptr, seq_ptr, ckey_ptr, ccol_ptr, idx_ptr, val_ptr, n, stride, k, next_n,
                          compress_ratio, chunks * k, cstride).launch(
            grid=[rows, 1, 1], block=[self.merge.threads, 1, 1], stream=stream)


__all__ = ["ChunkTopK", "MergeTopK", "SplitRadixTopK"]
