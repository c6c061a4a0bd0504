"""radix_filter: exact top-k of variable-length rows, one CTA per row, in CuTe DSL.

What it computes: for row ``r`` with ``L = valid_length(seq_lens[r // next_n], ...)``
it writes the indices (and raw-bit values) of the ``k`` largest order-preserving
keys of ``logits[r, :L]``; rows with ``L <= k`` get ``0..L-1`` then ``-1``/-inf.

How (one streaming pass, then a filtered one):
1. Pass 1 reads the row and builds a 4096-bin histogram of the top 12 key bits in
   shared memory. After the first ``max(4k, 16K)`` columns (and again at 4x that)
   a block scan finds the bin that already has ``k`` keys at or above it; later
   keys at or below that bin skip the atomic entirely (the bin search stays exact).
   Warps whose lanes all hit one bin (plateaus) add once instead of 32 times.
2. A block scan finds the bin holding the k-th key.
3. Pass 2 reads the row back to front (the tail of pass 1 is still in L2):
   keys above that bin go straight to the output, keys inside it go to a
   shared-memory candidate buffer while the next digit is histogrammed.
4. The remaining key bits are resolved on the candidates on chip. When a tie
   plateau overflows the buffer, the same steps stream the row instead, so the
   result never depends on the buffer size.
The last step writes every key above the threshold key, then fills the remaining
slots with keys equal to it (any of them: ties are interchangeable).

Limits: sm_80+ instructions only; any k >= 1; N < 2**31. Logits arrive as an
int32/int16 view, so values are copied back bit for bit.
Run: ``top_k_varlen(..., backend="radix_filter")``; bench: ``python bench_quick.py``.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Uint32

from topk_core.kernels.cute_common import (
    KEY_BITS,
    RAW_TYPE,
    RowTopK,
    alloc_row_buffers,
    find_bin,
    order_key,
    row_views,
    warp_append,
    write_short_row,
)

#: Digits (shift, width) of the key, most significant first; the first is 12 bits.
DIGITS = {32: ((20, 12), (10, 10), (0, 10)), 16: ((4, 12), (0, 4))}
BINS = 4096
#: This kernel's slots of the control block in shared memory (cute_common: BIN, KREM, WSUM).
OUT, TIE, CAND = 0, 1, 2
#: Columns pass 1 reads before it first prunes (the bound is max(4k, this)).
PRUNE_AFTER = 16384


class RadixFilter(RowTopK):
    """Compile-time specialisation only: dtype, values or not, block shape, variant."""

    def __init__(self, dtype: str, with_values: bool, threads: int = 512, cand: int = 4096,
                 unroll: int = 16, agg: str = "uniform", prune: bool = True, reverse: bool = True):
        assert threads % 32 == 0 and threads <= 1024 and BINS % threads == 0
        assert agg in ("none", "uniform", "match")
        self.dtype = dtype
        self.with_values = with_values
        self.threads = threads
        self.cand = cand
        self.unroll = unroll
        self.agg = agg
        self.prune = prune
        self.reverse = reverse
        self.bits = KEY_BITS[dtype]
        self.digits = DIGITS[self.bits]
        self.elem = RAW_TYPE[dtype]

    # ------------------------------------------------------------------ warp helpers
    @cute.jit
    def _lowest_lane(self, mask: Uint32) -> Int32:
        """Index of the lowest set bit of a non-zero mask."""
        low = mask & (Uint32(0) - mask)
        return Int32(cute.arch.popc(low - Uint32(1)))

    @cute.jit
    def _count(self, hist, d: Int32, take, lane: Int32):
        """``hist[d] += 1`` for every lane with ``take``. The whole warp must call it.

        Aggregated per warp so that a plateau (every lane in one bin) costs one atomic.
        Never name a variable ``pred`` in DSL code: the DSL names the condition of every
        dynamic ``if`` ``pred``, which shadows it inside the branch (see NOTES.md).
        """
        if cutlass.const_expr(self.agg == "none"):
            if take:
                cute.arch.atomic_add((hist.iterator + d).llvm_ptr, Int32(1))
        elif cutlass.const_expr(self.agg == "uniform"):
            ball = Uint32(cute.arch.vote_ballot_sync(take))
            if ball != Uint32(0):  # warp-uniform: pruned warps stop here
                first = self._lowest_lane(ball)
                d_first = cute.arch.shuffle_sync(d, first)
                diff = Uint32(cute.arch.vote_ballot_sync(take & (d != d_first)))
                lead = (diff == Uint32(0)) & (lane == first)
                solo = (diff != Uint32(0)) & take
                add = Int32(lead) * Int32(cute.arch.popc(ball)) + Int32(solo)
                if add != 0:
                    cute.arch.atomic_add((hist.iterator + d).llvm_ptr, add)
        else:
            ball = Uint32(cute.arch.vote_ballot_sync(take))
            peers = Uint32(cute.arch.match_sync(0xFFFFFFFF, Uint32(d))) & ball
            lead = take & (lane == self._lowest_lane(peers))
            add = Int32(lead) * Int32(cute.arch.popc(peers))
            if add != 0:
                cute.arch.atomic_add((hist.iterator + d).llvm_ptr, add)

    # ------------------------------------------------------------------ block helpers
    @cute.jit
    def _clear(self, hist, tid: Int32):
        for q in cutlass.range_constexpr(BINS // self.threads):
            hist[tid + q * self.threads] = Int32(0)

    @cute.jit
    def _load_keys(self, xr, base: Int32, length: Int32, tid: Int32):
        """Unrolled, coalesced loads of ``U`` columns per thread (clamped, so always in bounds)."""
        T, U = self.threads, self.unroll
        bits = [Int32(0)] * U
        keys = [Uint32(0)] * U
        last = length - 1
        for u in cutlass.range_constexpr(U):
            j = base + u * T + tid
            bits[u] = Int32(xr[cutlass.min(j, last)])
        for u in cutlass.range_constexpr(U):
            keys[u] = order_key(bits[u], self.dtype)
        return bits, keys

    # ------------------------------------------------------------------ passes
    @cute.jit
    def _histogram_pass(self, xr, hist, ctl, s0: Int32, s1: Int32, length: Int32, lo: Int32, tid: Int32):
        """Pass 1 over columns ``[s0, s1)`` (chunk-aligned): count first digits >= ``lo``."""
        T, U = self.threads, self.unroll
        sh0 = self.digits[0][0]
        lane = tid % 32
        for base in cutlass.range(s0, s1, T * U):
            bits, keys = self._load_keys(xr, base, length, tid)
            for u in cutlass.range_constexpr(U):
                j = base + u * T + tid
                d = Int32(keys[u] >> sh0)
                self._count(hist, d, (j < length) & (d >= lo), lane)

    @cute.jit
    def _filter_pass(self, xr, ir, vr, hist, ckey, cidx, ctl, length: Int32, b0: Int32, k: Int32, tid: Int32):
        """Pass 2: keys above bin ``b0`` to the output, keys in it to the candidates + next digit."""
        T, U, C = self.threads, self.unroll, self.cand
        sh0 = self.digits[0][0]
        sh1, w1 = self.digits[1]
        lane = tid % 32
        out_ptr = (ctl.iterator + OUT).llvm_ptr
        cand_ptr = (ctl.iterator + CAND).llvm_ptr
        chunks = (length + T * U - 1) // (T * U)
        for c in cutlass.range(chunks):
            base = c * (T * U)
            if cutlass.const_expr(self.reverse):
                base = (chunks - 1 - c) * (T * U)
            bits, keys = self._load_keys(xr, base, length, tid)
            for u in cutlass.range_constexpr(U):
                j = base + u * T + tid
                d0 = Int32(keys[u] >> sh0)
                hot = (j < length) & (d0 >= b0)
                if cute.arch.vote_any_sync(hot):
                    above = hot & (d0 > b0)
                    inside = hot & (d0 == b0)
                    pos = warp_append(above, out_ptr, lane)
                    if above & (pos < k):  # always true; the guard keeps a miscount in bounds
                        ir[pos] = j
                        if cutlass.const_expr(self.with_values):
                            vr[pos] = self.elem(bits[u])
                    slot = warp_append(inside, cand_ptr, lane)
                    if inside & (slot < C):
                        ckey[slot] = keys[u]
                        cidx[slot] = j
                    d1 = Int32((keys[u] >> sh1) & Uint32((1 << w1) - 1))
                    self._count(hist, d1, inside, lane)

    @cute.jit
    def _refine(self, from_cand: cutlass.Constexpr, xr, ir, vr, hist, ckey, cidx, ctl, count: Int32,
                b0: Int32, krem: Int32, k: Int32, tid: Int32):
        """Resolve the digits after the first on a source (candidates or the row), then gather."""
        T = self.threads
        lane = tid % 32
        sh0 = self.digits[0][0]
        pref = Uint32(b0) << sh0
        for p in cutlass.range_constexpr(1, len(self.digits)):
            sh, width = self.digits[p]
            b, krem = find_bin(hist, 1 << width, krem, ctl, tid, T, may_fall_short=True)
            pref = pref | (Uint32(b) << sh)
            if cutlass.const_expr(p + 1 < len(self.digits)):
                nsh, nwidth = self.digits[p + 1]
                self._clear(hist, tid)
                cute.arch.sync_threads()
                for start in cutlass.range(0, count, T):
                    j = start + tid
                    key = Uint32(0)
                    jc = cutlass.min(j, count - 1)
                    if cutlass.const_expr(from_cand):
                        key = ckey[jc]
                    else:
                        key = order_key(Int32(xr[jc]), self.dtype)
                    match = (j < count) & ((key >> sh) == (pref >> sh))
                    self._count(hist, Int32((key >> nsh) & Uint32((1 << nwidth) - 1)), match, lane)
                cute.arch.sync_threads()
        # Gather: keys above the threshold whose first digit is b0 (keys above b0 are already
        # written), then krem keys equal to it into the last krem slots.
        thr = pref
        out_ptr = (ctl.iterator + OUT).llvm_ptr
        tie_ptr = (ctl.iterator + TIE).llvm_ptr
        base_tie = k - krem
        for start in cutlass.range(0, count, T):
            j = start + tid
            jc = cutlass.min(j, count - 1)
            key = Uint32(0)
            col = jc
            if cutlass.const_expr(from_cand):
                key = ckey[jc]
                col = cidx[jc]
            else:
                key = order_key(Int32(xr[jc]), self.dtype)
            inside = (j < count) & ((key >> sh0) == Uint32(b0))
            above = inside & (key > thr)
            equal = inside & (key == thr)
            pos = warp_append(above, out_ptr, lane)
            if above & (pos < k):
                ir[pos] = col
                if cutlass.const_expr(self.with_values):
                    vr[pos] = self.elem(Int32(xr[col]))
            slot = warp_append(equal, tie_ptr, lane)
            if equal & (slot < krem):
                ir[base_tie + slot] = col
                if cutlass.const_expr(self.with_values):
                    vr[base_tie + slot] = self.elem(Int32(xr[col]))

    # ------------------------------------------------------------------ kernel
    @cute.kernel
    def kernel(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer,
               val_ptr: cute.Pointer, n: Int32, stride: Int32, k: Int32, next_n: Int32,
               compress_ratio: Int32):
        T, U, C = self.threads, self.unroll, self.cand
        tid, _, _ = cute.arch.thread_idx()
        row, _, _ = cute.arch.block_idx()
        hist, ckey, cidx, ctl = alloc_row_buffers(BINS, C)
        length, xr, ir, vr = row_views(x_ptr, seq_ptr, idx_ptr, val_ptr, row, n, stride, k, next_n, compress_ratio)
        if length <= k:
            write_short_row(xr, ir, vr, length, k, tid, T, self.with_values, self.dtype)
        else:
            self._clear(hist, tid)
            if tid < 8:
                ctl[tid] = Int32(0)
            cute.arch.sync_threads()
            # Pass 1, in up to three segments. After each, find the bin b that already has k
            # keys at or above it; the k-th key lies in b or above, and the search below walks
            # down from the top, so it only needs exact counts above b (bin b itself reaches k
            # in time anyway): keys at or below b stop being counted.
            chunk = T * U
            lo = Int32(0)
            if cutlass.const_expr(self.prune):
                first = cutlass.max(4 * k, PRUNE_AFTER)
                e1 = cutlass.min(length, (first + chunk - 1) // chunk * chunk)
                self._histogram_pass(xr, hist, ctl, 0, e1, length, lo, tid)
                e2 = e1
                if e1 < length:
                    cute.arch.sync_threads()
                    b, r = find_bin(hist, BINS, k, ctl, tid, T, may_fall_short=True)
                    lo = cutlass.max(b + 1, Int32(0))
                    e2 = cutlass.min(length, e1 * 4)
                    self._histogram_pass(xr, hist, ctl, e1, e2, length, lo, tid)
                if e2 < length:
                    cute.arch.sync_threads()
                    b, r = find_bin(hist, BINS, k, ctl, tid, T, may_fall_short=True)
                    lo = cutlass.max(b + 1, lo)
                    self._histogram_pass(xr, hist, ctl, e2, length, length, lo, tid)
            else:
                self._histogram_pass(xr, hist, ctl, 0, length, length, lo, tid)
            cute.arch.sync_threads()
            b0, krem = find_bin(hist, BINS, k, ctl, tid, T, may_fall_short=True)
            self._clear(hist, tid)
            cute.arch.sync_threads()
            self._filter_pass(xr, ir, vr, hist, ckey, cidx, ctl, length, b0, k, tid)
            cute.arch.sync_threads()
            ncand = ctl[CAND]
            if ncand <= C:
                self._refine(True, xr, ir, vr, hist, ckey, cidx, ctl, ncand, b0, krem, k, tid)
            else:
                self._refine(False, xr, ir, vr, hist, ckey, cidx, ctl, length, b0, krem, k, tid)
