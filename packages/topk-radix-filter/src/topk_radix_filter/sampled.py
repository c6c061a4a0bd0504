"""radix_filter's sampled one-read filter, one CTA per row, in CuTe DSL.

For a long row (``L >= 4 * sample``) the row is read from HBM once:
1. **Sample**: ``sample`` keys in blocks of 32 contiguous columns spread over the row.
   With ``mu = ceil(sample * k / L)`` (the expected count of sampled keys in the row's
   top-k), the threshold ``t`` is the two-digit prefix of the ``r``-th largest sampled
   key, ``r = mu + margin * sqrt(mu) + 2``: with margin 4 at least ``k`` of the row's
   keys are >= ``t`` except with a probability of about 1e-5 on well-mixed rows, and
   about ``k + margin * sqrt(k * L / sample)`` are.
2. **Filter**: one streaming pass appends every key >= ``t`` (and its column) to the
   shared-memory candidate buffer, counting all of them. Each thread marks its tile of
   elements in a bit mask (float32: ``not (x < f)`` against ``t``'s float, no order key;
   ``fcmp``), then one warp scan and one atomic per warp reserve the slots. The
   first tile is loaded together with the sample (``prefetch``).
3. **Refine on chip**: if ``k <= count <= cand``, the candidates hold the whole top-k
   (every key outside is below ``t``, which is at most the k-th key), so a radix select
   on them alone is exact: histogram the first digit, write the keys above its bin,
   resolve the rest with ``RadixTopK._refine``.
4. **Otherwise** (a sample that missed, a plateau wider than the buffer, k > cand), the
   row falls back to ``RadixTopK._select``, the two-read radix path of radix_cutlass.
   Exactness never depends on the sample or the buffer size.

Rows shorter than ``4 * sample`` take ``RadixTopK._select`` directly; there the second
read hits L2 (rows that fit on chip are read from HBM once either way). ``sampled=False``
builds that path alone (launch.SHORT: fewer registers, more CTAs per SM).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Int64, Uint32

from topk_core.kernels.cute_common import (
    F32_INF_KEY,
    f32_bit_if_not_below,
    f32_key_floor,
    warp_append,
    warp_reserve,
)
from topk_core.kernels.cute_radix import CAND, GT, RadixTopK


class SampledFilter(RadixTopK):
    """Compile-time specialisation: dtype, values, block shape, sample size, margin."""

    def __init__(self, dtype: str, with_values: bool, threads: int = 1024, cand: int = 8192,
                 sample: int = 4096, margin: int = 4, first_bits: int = 13, unroll: int = 4, vec: bool = True,
                 unroll1: int = 2, prefetch: bool = False, sampled: bool = True, fcmp: bool = True):
        assert sample % 32 == 0 and sample <= cand
        super().__init__(dtype, with_values, threads=threads, cand=cand, unroll=unroll, unroll1=unroll1,
                         vec=vec, first_bits=first_bits, fcmp=fcmp)
        self.sample = sample
        self.margin = margin
        # the filter marks a thread's tile in one 32-bit mask: 16-bit rows take 4 vectors at most
        self.unroll = min(self.unroll, 32 // self.vec)
        # prefetch: the filter's first tile is loaded with the sample (one DRAM latency less per row).
        self.prefetch = prefetch
        # sampled: False builds the two-read path alone (launches whose N is too short for the sample:
        # the sampled path's registers would cost occupancy there for nothing).
        self.sampled = sampled
        # fcmp (float32; set by RadixTopK): the filter also compares each element as a float against
        # the threshold's float (one unordered compare) instead of building its order key.

    @cute.jit
    def _isqrt_up(self, x: Int32) -> Int32:
        """An integer >= sqrt(x) (and < sqrt(x) + 2) for 0 <= x < 2**30, by Newton from above."""
        y = Int32(1) << ((Int32(32) - Int32(cute.arch.clz(x | Int32(1))) + Int32(1)) // Int32(2))
        for _ in cutlass.range_constexpr(5):
            y = (y + x // y + Int32(1)) // Int32(2)
        return y + Int32(1)

    @cute.jit
    def _threshold(self, xr, length: Int32, k: Int32, hist, ckey, ctl, tid: Int32):
        """(ok, t): the filter threshold from a sample; ok is False when the sample cannot place it."""
        T = self.threads
        lane = tid % 32
        warp = tid // 32
        blocks = self.sample // 32
        sh0 = self.digits[0][0]
        sh1, w1 = self.digits[1]
        step = (length - 32) // (blocks - 1)
        warps = T // 32
        per = (blocks + warps - 1) // warps
        bits = []
        for q in cutlass.range_constexpr(per):  # every load first: one DRAM latency, not `per`
            b = cutlass.min(warp + q * warps, blocks - 1)
            bits.append(Int32(xr[b * step + lane]))
        mu = Int32((Int64(self.sample) * Int64(k) + Int64(length) - Int64(1)) // Int64(length))
        r = mu + Int32(self.margin) * self._isqrt_up(mu) + Int32(2)
        self._reset(hist, ctl, tid)  # after the loads are issued: the clear hides behind their latency
        for q in cutlass.range_constexpr(per):
            b = warp + q * warps
            if b < blocks:
                key = self._key(bits[q])
                ckey[b * 32 + lane] = key
                cute.arch.atomic_add((hist.iterator + Int32(key >> sh0)).llvm_ptr, Int32(1))
        ok = r <= Int32(self.sample // 2)
        t = Uint32(0)
        cute.arch.sync_threads()
        if ok:
            b1, krem = self._find_bin(hist, self.bins, r, ctl, tid)
            self._clear(hist, tid, 1 << w1)
            cute.arch.sync_threads()
            for j in cutlass.range(tid, self.sample, T):
                key = ckey[j]
                if Int32(key >> sh0) == b1:
                    d = (key >> sh1) & Uint32((1 << w1) - 1)
                    cute.arch.atomic_add((hist.iterator + Int32(d)).llvm_ptr, Int32(1))
            cute.arch.sync_threads()
            b2, _ = self._find_bin(hist, 1 << w1, krem, ctl, tid)
            t = (Uint32(b1) << sh0) | (Uint32(b2) << sh1)
        return ok, t

    @cute.jit
    def _filter(self, xstart: cute.Pointer, xr, length: Int32, t: Uint32, ckey, cidx, ctl, tid: Int32,
                pre: list):
        """One streaming pass: every key >= t and its column to the candidates (counted past the buffer).

        ``pre``: the first tile's vectors, already loaded (``prefetch``), else unused.
        """
        T, U, C, V = self.threads, self.unroll, self.cand, self.vec
        lane = tid % 32
        cand_ptr = (ctl.iterator + CAND).llvm_ptr
        xv, nv, tail = self._vectors(xstart, length)
        first = Int32(0)
        if cutlass.const_expr(self.prefetch):
            self._filter_tile(pre, Int32(0), nv, t, ckey, cidx, cand_ptr, tid, lane)
            first = Int32(T * U)
        for start in cutlass.range(first, nv, T * U):
            vs = self._load_vectors(xv, start, nv, tid, U)
            self._filter_tile(vs, start, nv, t, ckey, cidx, cand_ptr, tid, lane)
        if cutlass.const_expr(V > 1):
            j = tail + tid
            key = Uint32(0)
            if j < length:
                key = self._key(Int32(xr[j]))
            take = j < length and key >= t
            slot = warp_append(take, cand_ptr, lane)
            if take and slot < C:
                ckey[slot] = key
                cidx[slot] = j

    @cute.jit
    def _filter_tile(self, vs: list, start: Int32, nv: Int32, t: Uint32, ckey, cidx, cand_ptr, tid: Int32,
                     lane: Int32):
        """One tile of the filter: mark the keys >= t in a bit mask, reserve their slots with one
        warp scan and one atomic per warp, then write only the marked keys. (Per key, a ballot,
        an atomic and a shuffle cost more: about 8% of a row's keys pass, so most warps append
        on most keys.)"""
        T, C, V = self.threads, self.cand, self.vec
        assert len(vs) * V <= 32, "one bit per key of the tile"
        mask = Uint32(0)
        if cutlass.const_expr(self.fcmp):
            floor = f32_key_floor(t)  # the caller keeps t <= F32_INF_KEY
            for u in cutlass.range_constexpr(len(vs)):
                part = Int32(0)
                for e in cutlass.range_constexpr(V):
                    part = part | f32_bit_if_not_below(Int32(vs[u][e]), floor, Int32(1 << (u * V + e)))
                # a vector past the row's end (clamped load) keeps none of its bits
                mask = mask | Uint32(cutlass.select_(start + u * T + tid < nv, Uint32(part), Uint32(0)))
        else:
            for u in cutlass.range_constexpr(len(vs)):
                ok = start + u * T + tid < nv
                for e in cutlass.range_constexpr(V):
                    take = ok & (self._key(Int32(vs[u][e])) >= t)
                    mask = mask | Uint32(cutlass.select_(take, Uint32(1 << (u * V + e)), Uint32(0)))
        pos = warp_reserve(Int32(cute.arch.popc(mask)), cand_ptr, lane)
        if mask != Uint32(0):
            for u in cutlass.range_constexpr(len(vs)):
                jv = start + u * T + tid
                if (mask & Uint32(((1 << V) - 1) << (u * V))) != Uint32(0):  # a vector with none kept: one test
                    for e in cutlass.range_constexpr(V):
                        if (mask & Uint32(1 << (u * V + e))) != Uint32(0):
                            if pos < C:
                                ckey[pos] = self._key(Int32(vs[u][e]))
                                cidx[pos] = jv * V + e
                            pos = pos + 1

    @cute.jit
    def _select_candidates(self, xr, count: Int32, k: Int32, out, hist, ckey, cidx, ctl, tid: Int32):
        """Exact top-k of ``count`` (>= k) candidates that hold the row's whole top-k."""
        T = self.threads
        lane = tid % 32
        sh0 = self.digits[0][0]
        sh1, w1 = self.digits[1]
        self._clear(hist, tid)
        cute.arch.sync_threads()
        for j in cutlass.range(tid, count, T):
            cute.arch.atomic_add((hist.iterator + Int32(ckey[j] >> sh0)).llvm_ptr, Int32(1))
        cute.arch.sync_threads()
        b0, krem = self._find_bin(hist, self.bins, k, ctl, tid)
        self._clear(hist, tid, 1 << w1)
        cute.arch.sync_threads()
        gt_ptr = (ctl.iterator + GT).llvm_ptr
        for start in cutlass.range(0, count, T):
            j = start + tid
            key = Uint32(0)
            col = Int32(-1)
            if j < count:
                key = ckey[j]
                col = cidx[j]
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
    def _select(self, xstart: cute.Pointer, length: Int32, k: Int32, out, hist, ckey, cidx, ctl, tid: Int32):
        done = Int32(0)
        if cutlass.const_expr(self.sampled):
            if length >= Int32(4 * self.sample):
                done = self._select_sampled(xstart, length, k, out, hist, ckey, cidx, ctl, tid)
        if done == Int32(0):
            cute.arch.sync_threads()  # every thread is past reading ctl and ckey before the fallback resets them
            RadixTopK._select(self, xstart, length, k, out, hist, ckey, cidx, ctl, tid)

    @cute.jit
    def _select_sampled(self, xstart: cute.Pointer, length: Int32, k: Int32, out, hist, ckey, cidx, ctl,
                        tid: Int32) -> Int32:
        """Steps 1-3 of the module docstring; 1 when the row is done, 0 when it needs the fallback."""
        done = Int32(0)
        xr = cute.make_tensor(xstart, cute.make_layout(length))
        pre = []
        if cutlass.const_expr(self.prefetch):  # in flight during the whole sample step
            xv, nv, _ = self._vectors(xstart, length)
            pre = self._load_vectors(xv, Int32(0), nv, tid, self.unroll)
        ok, t = self._threshold(xr, length, k, hist, ckey, ctl, tid)
        if cutlass.const_expr(self.fcmp):
            ok = ok & (t <= Uint32(F32_INF_KEY))  # a NaN-only threshold: the exact fallback takes the row
        if ok:
            self._filter(xstart, xr, length, t, ckey, cidx, ctl, tid, pre)
            cute.arch.sync_threads()
            count = ctl[CAND]
            if count >= k and count <= Int32(self.cand):
                self._select_candidates(xr, count, k, out, hist, ckey, cidx, ctl, tid)
                done = Int32(1)
        return done
