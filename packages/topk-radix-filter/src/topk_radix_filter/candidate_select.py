"""radix_filter's select over the candidate buffer (step 3 of sampled.py's docstring), as a mixin of
``sampled.SampledFilter`` (split out of sampled.py for size; ``self`` is that filter, whose flags ``relsel``,
``rel16``, ``compact``, ``wrank``, ``pstore`` and ``RadixTopK`` helpers these use).

Every candidate is at or above the threshold ``t`` and the buffer holds the row's whole top-k, so the k-th key is
found on the candidates alone: on two digits of ``key - t`` (``relsel``, float32), on one clamped digit of it
(``rel16``), or on the key's own digits (``_select_candidates``, also where the k-th key lies in the clamped bin).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Uint32

from topk_core.kernels.cute_common import warp_append
from topk_core.kernels.cute_radix import EQ, GT

#: relsel: level-one bins (the top one clamps) and the bits below them (level two)
REL_BINS = 2048
REL_SHIFT = 11
#: compact: the control-block word counting the listed keys of the k-th key's bin
LIST = 5
#: wrank: the most listed keys of the k-th key's bin that one warp ranks (a key a lane)
WRANK_MAX = 32


class CandidateSelect:
    """The candidate selects of ``SampledFilter``."""

    @cute.jit
    def _select_candidates(self, xr, count: Int32, k: Int32, out, hist, ckey, cidx, ctl, tid: Int32,
                           keyed: cutlass.Constexpr = False):
        """Exact top-k of ``count`` (>= k) candidates that hold the row's whole top-k.

        ``keyed``: the buffer holds order keys already (pstore's raw bits were turned into keys)."""
        T = self.threads
        lane = tid % 32
        sh0 = self.digits[0][0]
        sh1, w1 = self.digits[1]
        self._clear(hist, tid)
        cute.arch.sync_threads()
        for j in cutlass.range(tid, count, T):
            key = ckey[j]
            if cutlass.const_expr(self.pstore and not keyed):  # the filter stored raw bits: keys from here on
                key = self._key(Int32(key))
                ckey[j] = key
            cute.arch.atomic_add((hist.iterator + Int32(key >> sh0)).llvm_ptr, Int32(1))
        cute.arch.sync_threads()
        b0, krem = self._find_bin(hist, self.bins, k, ctl, tid)
        self._clear(hist, tid, 1 << w1)
        cute.arch.sync_threads()
        gt_ptr = (ctl.iterator + GT).llvm_ptr
        for start in cutlass.range(0, count, T):
            j = start + tid
            key, col, _ = self._candidate_rel(j, count, ckey, cidx, Uint32(0))
            d0 = Int32(key >> sh0)
            above = j < count and d0 > b0
            pos = warp_append(above, gt_ptr, lane)
            if above:
                self._emit(out, pos, col, Int32(0), key, False)
            if j < count and d0 == b0:
                d1 = (key >> sh1) & Uint32((1 << w1) - 1)
                cute.arch.atomic_add((hist.iterator + Int32(d1)).llvm_ptr, Int32(1))
        cute.arch.sync_threads()
        self._refine(True, xr, out, hist, ckey, cidx, ctl, count, b0, krem, k, tid)

    @cute.jit
    def _candidate_rel(self, j: Int32, count: Int32, ckey, cidx, t: Uint32):
        """Candidate ``j``'s key, column and ``key - t`` (0, -1, 0 past ``count``)."""
        rel = Uint32(0)
        col = Int32(-1)
        key = Uint32(0)
        if j < count:
            key = ckey[j]
            col = cidx[j]
            rel = key - t
        return key, col, rel

    @cute.jit
    def _rel_histogram(self, count: Int32, k: Int32, t: Uint32, shift: cutlass.Constexpr, hist, ckey, ctl, tid: Int32):
        """The relative selects' first step: ``min((key - t) >> shift, REL_BINS - 1)`` of every candidate
        histogrammed (raw bits stored by the filter become keys here), and the bin of the k-th key."""
        B = REL_BINS
        self._clear(hist, tid, B)
        cute.arch.sync_threads()
        for j in cutlass.range(tid, count, self.threads):
            key = ckey[j]
            if cutlass.const_expr(self.pstore):  # the filter stored raw bits: keys from here on
                key = self._key(Int32(key))
                ckey[j] = key
            d = key - t
            if cutlass.const_expr(shift > 0):
                d = d >> Uint32(shift)
            d = cutlass.min(d, Uint32(B - 1))
            cute.arch.atomic_add((hist.iterator + Int32(d)).llvm_ptr, Int32(1))
        cute.arch.sync_threads()
        return self._find_bin(hist, B, k, ctl, tid)

    @cute.jit
    def _select_rel(self, count: Int32, k: Int32, t: Uint32, out, hist, ckey, cidx, ctl, tid: Int32) -> Int32:
        """``_select_candidates`` on two digits of ``key - t`` (every candidate is >= t, and the k-th
        key is rarely far above it): one bin search and one candidate pass fewer. Returns 0, having
        written nothing, when the k-th key lies in the clamped top bin (the caller then runs
        ``_select_candidates(keyed=True)``)."""
        T = self.threads
        lane = tid % 32
        B, S = REL_BINS, REL_SHIFT
        b1, krem = self._rel_histogram(count, k, t, S, hist, ckey, ctl, tid)
        done = Int32(0)
        cap = (self.bins - B) // 2  # compact: (key, column) pairs above the level-two bins
        lkey, lcol, list_ptr = None, None, None
        if cutlass.const_expr(self.compact):
            lkey = cute.make_tensor(hist.iterator + B, cute.make_layout(cap))
            lcol = cute.make_tensor(hist.iterator + B + cap, cute.make_layout(cap))
            list_ptr = (ctl.iterator + LIST).llvm_ptr
        if b1 < Int32(B - 1):
            done = Int32(1)
            self._clear(hist, tid, 1 << S)
            if cutlass.const_expr(self.compact):
                if tid == 0:
                    ctl[LIST] = Int32(0)
            cute.arch.sync_threads()
            gt_ptr = (ctl.iterator + GT).llvm_ptr
            for start in cutlass.range(0, count, T):
                j = start + tid
                key, col, rel = self._candidate_rel(j, count, ckey, cidx, t)
                d1 = Int32(rel >> Uint32(S))
                above = j < count and d1 > b1
                pos = warp_append(above, gt_ptr, lane)
                if above:
                    self._emit(out, pos, col, Int32(0), key, False)
                if cutlass.const_expr(not self.compact):
                    if j < count and d1 == b1:
                        cute.arch.atomic_add((hist.iterator + Int32(rel & Uint32((1 << S) - 1))).llvm_ptr, Int32(1))
                else:
                    inside = j < count and d1 == b1
                    if inside:
                        cute.arch.atomic_add((hist.iterator + Int32(rel & Uint32((1 << S) - 1))).llvm_ptr, Int32(1))
                    slot = warp_append(inside, list_ptr, lane)
                    if inside and slot < Int32(cap):
                        lkey[slot] = Int32(key)
                        lcol[slot] = col
            cute.arch.sync_threads()
            if cutlass.const_expr(self.wrank):
                if ctl[LIST] <= Int32(WRANK_MAX):  # uniform: every thread read the same count after the barrier
                    if tid < Int32(32):
                        self._rank_listed(ctl[LIST], k, krem, lkey, lcol, out, lane)
                else:
                    self._select_rel_last(count, k, t, b1, krem, out, hist, ckey, cidx, ctl, tid, cap, lkey, lcol)
            else:
                self._select_rel_last(count, k, t, b1, krem, out, hist, ckey, cidx, ctl, tid, cap, lkey, lcol)
        return done

    @cute.jit
    def _select_rel_last(self, count: Int32, k: Int32, t: Uint32, b1: Int32, krem: Int32, out, hist, ckey, cidx, ctl,
                         tid: Int32, cap: cutlass.Constexpr, lkey, lcol):
        """``_select_rel``'s level two: the bin search on the low digit of the k-th key's bin ``b1``, then its keys
        above that and ``krem2`` of those equal to it, from compact's list when it holds the whole bin."""
        T = self.threads
        lane = tid % 32
        S = REL_SHIFT
        gt_ptr = (ctl.iterator + GT).llvm_ptr
        b2, krem2 = self._find_bin(hist, 1 << S, krem, ctl, tid)
        thr = (Uint32(b1) << Uint32(S)) | Uint32(b2)
        eq_ptr = (ctl.iterator + EQ).llvm_ptr
        base_eq = k - krem2
        full = count  # the candidates the last pass walks: all, or none when the list holds bin b1
        if cutlass.const_expr(self.compact):
            listed = ctl[LIST]
            full = Int32(cutlass.select_(listed > Int32(cap), count, Int32(0)))
            if listed <= Int32(cap):  # the keys of bin b1 alone, listed by the pass above
                for start in cutlass.range(0, listed, T):
                    j = start + tid
                    key = Uint32(0)
                    col = Int32(-1)
                    if j < listed:
                        key = Uint32(lkey[j])
                        col = lcol[j]
                    rel = key - t
                    above = j < listed and rel > thr
                    equal = j < listed and rel == thr
                    self._emit_ranked(above, equal, col, Int32(0), key, out, gt_ptr, eq_ptr, base_eq, krem2, lane,
                                      False)
        for start in cutlass.range(0, full, T):
            j = start + tid
            key, col, rel = self._candidate_rel(j, count, ckey, cidx, t)
            inside = j < count and Int32(rel >> Uint32(S)) == b1
            above = inside and rel > thr
            equal = inside and rel == thr
            self._emit_ranked(above, equal, col, Int32(0), key, out, gt_ptr, eq_ptr, base_eq, krem2, lane, False)

    @cute.jit
    def _rank_listed(self, listed: Int32, k: Int32, krem: Int32, lkey, lcol, out, lane: Int32):
        """``wrank``, warp 0 alone: the ``listed`` (<= 32) keys of the k-th key's bin, a key a lane, each ranked by
        the keys above it plus the equal ones on lower lanes; those ranked below ``krem`` go to slots ``k - krem +
        rank`` (the pass above wrote the bin's ``k - krem`` keys above it to slots ``[0, k - krem)``)."""
        mine = lane < listed
        key = Uint32(0)
        col = Int32(-1)
        if mine:
            key = Uint32(lkey[lane])
            col = lcol[lane]
        rank = Int32(0)
        for j in cutlass.range(0, listed, 1):
            other = Uint32(cute.arch.shuffle_sync(Int32(key), j))
            before = (other > key) | ((other == key) & (j < lane))
            rank = rank + Int32(cutlass.select_(before, Int32(1), Int32(0)))
        if mine and rank < krem:
            self._emit(out, k - krem + rank, col, Int32(0), key, False)

    @cute.jit
    def _select_rel16(self, count: Int32, k: Int32, t: Uint32, out, hist, ckey, cidx, ctl, tid: Int32) -> Int32:
        """The candidates' top k for 16-bit keys, ranked on ``min(key - t, REL_BINS - 1)``: the k-th key
        is ``t + b`` exactly when its bin ``b`` is not the clamped top one. Returns 0, having written
        nothing, otherwise (the caller then runs ``_select_candidates``)."""
        T = self.threads
        lane = tid % 32
        B = REL_BINS
        b1, krem = self._rel_histogram(count, k, t, 0, hist, ckey, ctl, tid)
        done = Int32(0)
        if b1 < Int32(B - 1):
            done = Int32(1)
            thr = t + Uint32(b1)
            gt_ptr = (ctl.iterator + GT).llvm_ptr
            eq_ptr = (ctl.iterator + EQ).llvm_ptr
            for start in cutlass.range(0, count, T):
                j = start + tid
                key, col, _ = self._candidate_rel(j, count, ckey, cidx, t)
                above = j < count and key > thr
                equal = j < count and key == thr
                self._emit_ranked(above, equal, col, Int32(0), key, out, gt_ptr, eq_ptr, k - krem, krem, lane, False)
        return done
