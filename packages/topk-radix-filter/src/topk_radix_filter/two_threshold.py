"""radix_filter's sampled filter with two thresholds (``twot``, session 20; float32, one CTA per row): a mixin of
``sampled.SampledFilter`` (``self`` is that filter), split out of sampled.py for size.

The sample gives a low threshold ``t`` (at or below its ``r``-th largest key, as without ``twot``) and a high one
``t_hi`` (at or above its ``r_hi = 2 mu - r``-th largest key, the same margin on the other side). The filter writes
keys at or above ``t_hi`` ("sure") straight to the output row through warp-aggregated slots, and keeps only the keys
in ``[t, t_hi)`` as candidates, so the select after the filter ranks a few hundred keys, not all ~``k + margin``
kept ones. Exactness does not depend on either threshold: when more than ``k`` keys are sure, or sure and candidates
together are fewer than ``k``, the caller's exact fallback rewrites every slot (sure writes never pass slot k - 1).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Float32, Int32, Uint32

from topk_core.kernels.cute_common import (
    BIN,
    F32_INF_KEY,
    KREM,
    WSUM,
    _bin_sum,
    f32_bit_if_not_below,
    f32_key_floor,
    warp_append,
    warp_inclusive_sum,
)
from topk_core.kernels.cute_radix import CAND, GT, warp_incl_sum_up

#: ctl words of the second bin search's answer (after sampled.LIST)
BIN_HI, KREM_HI = 6, 7


class TwoThreshold:
    """The ``twot`` methods of ``SampledFilter``."""

    @cute.jit
    def _find_bin2(self, hist, nbins: cutlass.Constexpr, krem: Int32, krem_hi: Int32, ctl, tid: Int32):
        """``cute_common.find_bin`` for two ranks over one histogram (one scan, two straddle checks):
        ``(b, krem', b_hi, krem_hi')``. The caller guarantees at least ``krem >= krem_hi >= 1`` keys."""
        threads = self.threads
        per = max(1, nbins // threads)
        hi = nbins - tid * per
        s = Int32(0)
        if cutlass.const_expr(nbins >= threads):
            s = _bin_sum(hist, nbins, per, hi)
        else:
            if hi > 0:
                s = hist[hi - 1]
        lane = tid % 32
        warp = tid // 32
        incl = warp_inclusive_sum(s, lane)
        if lane == 31:
            ctl[WSUM + warp] = incl
        cute.arch.sync_threads()
        part = Int32(cutlass.select_(lane < Int32(threads // 32), ctl[WSUM + lane], Int32(0)))
        wincl = warp_inclusive_sum(part, lane)
        excl = cute.arch.shuffle_sync(wincl - part, warp) + incl - s
        self._straddle(hist, per, hi, excl, s, krem, ctl, BIN, KREM)
        self._straddle(hist, per, hi, excl, s, krem_hi, ctl, BIN_HI, KREM_HI)
        cute.arch.sync_threads()
        return ctl[BIN], ctl[KREM], ctl[BIN_HI], ctl[KREM_HI]

    @cute.jit
    def _straddle(self, hist, per: cutlass.Constexpr, hi: Int32, excl: Int32, s: Int32, want: Int32, ctl,
                  bin_word: cutlass.Constexpr, krem_word: cutlass.Constexpr):
        """The thread whose bins ``[hi - per, hi)`` hold the ``want``-th key writes its bin and rank there."""
        if (excl < want) & (want <= excl + s):
            acc = excl
            done = Int32(0)
            for q in cutlass.range_constexpr(per):
                h = hist[hi - 1 - q]
                if (done == 0) & (acc + h >= want):
                    ctl[bin_word] = hi - 1 - q
                    ctl[krem_word] = want - acc
                    done = Int32(1)
                acc += h

    @cute.jit
    def _interpolate_up(self, hist, b: Int32, krem: Int32) -> Uint32:
        """A key in bin ``b`` at or above the bin's ``krem``-th largest sampled key (``_interpolate``'s mirror: the
        bin's keys assumed evenly spread, pushed up by ``j / 4 + 2`` ranks; the bin's top key at most)."""
        sh0 = self.bits - self.sample_bits
        h = hist[b]
        j = h - krem  # the bin's sampled keys below the rank's
        pos = j + j // Int32(4) + Int32(2)
        frac = Float32(pos) * cute.arch.rcp_approx(Float32(h))
        off = cutlass.min(Int32(frac * Float32(1 << sh0)), Int32((1 << sh0) - 1))
        return (Uint32(b) << sh0) | Uint32(off)

    @cute.jit
    def _thresholds(self, ok, r: Int32, length: Int32, k: Int32, hist, ctl, tid: Int32):
        """``(t, t_hi, use_hi)`` from the sample's histogram (``_threshold``'s ``t``); ``use_hi`` is 0 when no key
        can be sure (``t_hi`` past +inf's key: no float compare exists there)."""
        t = Uint32(0)
        t_hi = Uint32(0xFFFFFFFF)
        mu = (Int32(self.sample) * k - Int32(1)) // length + Int32(1)
        r_hi = cutlass.max(Int32(2) * mu - r, Int32(1))
        if ok:
            b1, krem, b_hi, krem_hi = self._find_bin2(hist, 1 << self.sample_bits, r, r_hi, ctl, tid)
            t = self._interpolate(hist, b1, krem)
            t_hi = self._interpolate_up(hist, b_hi, krem_hi)
        use_hi = Int32(cutlass.select_(t_hi <= Uint32(F32_INF_KEY), Int32(1), Int32(0)))
        return t, t_hi, use_hi

    @cute.jit
    def _filter_tile_twot(self, raws: list, start: Int32, nv: Int32, t: Uint32, t_hi: Uint32, use_hi: Int32,
                          ckey, cidx, ctl, tid: Int32, xr, out, k: Int32):
        """``_filter_tile`` (float32 compares, ``sparse``) with two masks: keys at or above ``t_hi`` to the output
        from slot ``ctl[GT]`` on, keys in ``[t, t_hi)`` to the candidates; one packed warp scan, two atomics."""
        T, V = self.threads, self.vec
        nvec = len(raws) // V
        assert len(raws) <= 32, "one bit per key of the tile"
        floor = f32_key_floor(t)
        floor_hi = f32_key_floor(cutlass.min(t_hi, Uint32(F32_INF_KEY)))
        mask = Uint32(0)
        amask = Uint32(0)
        for u in cutlass.range_constexpr(nvec):
            part = Int32(0)
            parta = Int32(0)
            for e in cutlass.range_constexpr(V):
                bit = Int32(1 << (u * V + e))
                part = part | f32_bit_if_not_below(raws[u * V + e], floor, bit)
                parta = parta | f32_bit_if_not_below(raws[u * V + e], floor_hi, bit)
            inside = start + u * T + tid < nv
            mask = mask | Uint32(cutlass.select_(inside, Uint32(part), Uint32(0)))
            amask = amask | Uint32(cutlass.select_(inside, Uint32(parta), Uint32(0)))
        amask = amask & Uint32(cutlass.select_(use_hi != Int32(0), Uint32(0xFFFFFFFF), Uint32(0)))
        imask = mask & (amask ^ Uint32(0xFFFFFFFF))
        packed = Int32(cute.arch.popc(amask)) | (Int32(cute.arch.popc(imask)) << 16)
        incl = warp_incl_sum_up(packed)
        sbase = Int32(0)
        cbase = Int32(0)
        if (tid % 32 == 31) & (incl != 0):
            sbase = cute.arch.atomic_add((ctl.iterator + GT).llvm_ptr, incl & Int32(0xFFFF))
            cbase = cute.arch.atomic_add((ctl.iterator + CAND).llvm_ptr, incl >> 16)
        ex = incl - packed
        spos = cute.arch.shuffle_sync(sbase, 31) + (ex & Int32(0xFFFF))
        cpos = cute.arch.shuffle_sync(cbase, 31) + (ex >> 16)
        self._write_kept(imask, start, cpos, xr, ckey, cidx, tid, V)
        self._write_sure(amask, start, spos, xr, out, k, tid, V)

    @cute.jit
    def _write_sure(self, mask: Uint32, start: Int32, pos: Int32, xr, out, k: Int32, tid: Int32,
                    per: cutlass.Constexpr):
        """The tile's sure keys (``_write_kept``'s bit layout) to output slots from ``pos`` on, below ``k`` only."""
        sh = per.bit_length() - 1
        base = (start + tid) * per
        m = mask
        p = pos
        while m != Uint32(0):
            b = Int32(cute.arch.bfind(m))
            m = m ^ (Uint32(1) << Uint32(b))
            col = base + (b >> sh) * (self.threads * per) + (b & (per - 1))
            if p < k:
                self._emit(out, p, col, Int32(0), Uint32(0), False)
            p = p + 1

    @cute.jit
    def _tail_twot(self, j: Int32, length: Int32, t: Uint32, t_hi: Uint32, use_hi: Int32, ckey, cidx, ctl,
                   lane: Int32, xr, out, k: Int32):
        """The filter's scalar tail element ``j`` (``j < length`` or none): sure to the output, else a candidate."""
        key = Uint32(0)
        raw = Int32(0)
        if j < length:
            raw = Int32(xr[j])
            key = self._key(raw)
        sure = j < length and use_hi != Int32(0) and key >= t_hi
        cand = j < length and key >= t and not sure
        spos = warp_append(sure, (ctl.iterator + GT).llvm_ptr, lane)
        cpos = warp_append(cand, (ctl.iterator + CAND).llvm_ptr, lane)
        if sure and spos < k:
            self._emit(out, spos, j, raw, key, True)
        if cand and cpos < Int32(self.cand):
            ckey[cpos] = Uint32(raw)
            cidx[cpos] = j
