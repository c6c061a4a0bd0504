"""The sampled bracket of ``regs.py`` (compile-time ``sample`` > 0, clusters of 2+): pass 0 without a cluster pass.

Why: the register kernel's pass 0 is a cluster-wide histogram, one cluster barrier and a
find in two DSMEM hops, then a gather with a second cluster barrier; at C=16 those cost
~5000 cycles of a ~16000-cycle call (NOTES.md, session 5 clocks). Here every CTA reads
the same ``sample`` columns of the row (L2 serves all but the first) and derives the same
bracket ``[lo, hi]`` of first-digit bins from them on its own. Then:
  1. each CTA counts its keys above ``hi`` (sure) and inside the bracket (candidates), sends
     its candidates (key, column) to its region of rank 0's buffer and its two counts to
     every CTA, and ONE cluster barrier publishes them;
  2. every CTA sees the same counts, so the check is uniform: if ``A < k <= A + Cand``
     (``A``: sure keys of the cluster) and no region overflowed, every CTA writes its sure
     keys at the prefix of the lower ranks' counts and is done (no exit barrier: nobody
     touches remote shared memory after the barrier), while rank 0 finds the threshold among
     the candidates with CTA-local passes and writes the rest;
  3. otherwise (a sample that missed, a plateau) the caller runs the unsampled kernel.
Exactness never depends on the sample.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Float32, Int32, Int64, Uint32, const_expr

from topk_core.kernels.cute_common import order_key

#: ``s_scnt`` words: the bracket's bins, local counters (candidates, sure keys, and rank 0's
#: candidate emits above / tied), then two words (sure, candidates) per CTA of the cluster.
SB_HI, SB_LO, SB_CAND, SB_ABOVE, SB_CGT, SB_CEQ, SB_REMOTE = 0, 1, 2, 3, 4, 5, 8
#: Bracket half-width in sample ranks: MARGIN_SIGMAS * sqrt(expected rank) + MARGIN_PAD.
MARGIN_SIGMAS = 3.0
MARGIN_PAD = 2.0


def warp_incl_sum(x: Int32, lane: Int32) -> Int32:
    from .regs import warp_incl

    return warp_incl(x, lane)


class SampledBracket:
    """Mixin of ``ClusterRegTopK``: needs ``find``, ``count_key``, ``after_pass``, ``dsmem_store_u32``."""

    def scnt_words(self) -> int:
        return SB_REMOTE + 2 * self.cluster

    def region_pairs(self) -> int:
        """(key, column) pairs each CTA may send to rank 0's buffer."""
        return self.gather // (2 * self.cluster)

    @cute.jit
    def sample_loads(self, g_row: cute.Tensor, length: Int32, tid: Int32) -> list:
        """This thread's raw sampled elements: columns ``i * length / S`` for ``i = tid + j*T``
        (all < length, so every load is in bounds), issued before any is used."""
        raws = []
        log2s = self.sample.bit_length() - 1
        for j in cutlass.range_constexpr(self.sample // self.threads):
            i = tid + j * self.threads
            pos = Int32((Int64(i) * Int64(length)) >> log2s)
            raws.append(self.raw(g_row[pos]))
        return raws

    @cute.jit
    def clear_sampled(self, s_shist: cute.Tensor, s_scoarse: cute.Tensor, s_scnt: cute.Tensor, tid: Int32):
        w = self.digits[0][1]
        for i in cutlass.range(tid, 1 << w, self.threads):
            s_shist[i] = Int32(0)
        for i in cutlass.range(tid, max((1 << w) // 32, 1), self.threads):
            s_scoarse[i] = Int32(0)
        if tid == 0:
            for j in cutlass.range_constexpr(SB_CAND, SB_REMOTE):
                s_scnt[j] = Int32(0)

    @cute.jit
    def sampled_select(self, keys: list, cols: list, samp: list, length: Int32, k: Int32, g_row: cute.Tensor,
                       g_idx: cute.Tensor, g_val: cute.Tensor, s_shist: cute.Tensor, s_scoarse: cute.Tensor,
                       s_scnt: cute.Tensor, s_f: cute.Tensor, s_buf: cute.Tensor, s_hist: cute.Tensor,
                       s_coarse: cute.Tensor, s_sel: cute.Tensor, g_dbg: cute.Tensor, t0: Int64, tid: Int32,
                       warp: Int32, lane: Int32, rank: Int32) -> Int32:
        """The whole row through the bracket: 1 when every output slot is written, else 0 (the
        caller then runs the unsampled passes; nothing here changed what they read)."""
        C = self.cluster
        T = self.threads
        S = self.sample
        RC = self.region_pairs()
        sh0, w0 = self.digits[0]
        cute.arch.cluster_arrive_relaxed()  # every CTA exists before anyone writes to it (the wait below)
        # 1. The sample's first-digit histogram, its 32-bin group sums, and the bracket.
        for j in cutlass.range_constexpr(len(samp)):
            d = Int32(order_key(samp[j], self.dtype_name) >> sh0)
            cute.arch.atomic_add((s_shist.iterator + d).llvm_ptr, Int32(1))
        cute.arch.sync_threads()
        for g in cutlass.range(warp, max((1 << w0) // 32, 1), T // 32):
            s = cute.arch.warp_redux_sync(s_shist[g * 32 + lane], "add")
            if lane == 0:
                s_scoarse[g] = s
        mu = Float32(k) * Float32(S) / Float32(length)
        m = Float32(MARGIN_SIGMAS) * cute.math.sqrt(mu, fastmath=True) + Float32(MARGIN_PAD)
        r_hi = cutlass.max(Int32(mu - m), Int32(1))
        r_lo = cutlass.min(Int32(mu + m) + Int32(1), Int32(S))
        cute.arch.sync_threads()
        s_f2 = cute.make_tensor(s_f.iterator + 16, cute.make_layout(16))
        if warp == 0:
            self.find(s_shist, s_scoarse, s_f, 0, r_hi, lane, rank, True)
            self.find(s_shist, s_scoarse, s_f2, 0, r_lo, lane, rank, True)
        cute.arch.sync_threads()
        hi = s_f[0]
        lo = s_f[16]
        self.stamp(g_dbg, 14, t0, tid)  # dev clocks (stamps builds): the bracket known
        # 2. Sure keys and candidates of this CTA.
        packed = Int32(0)  # sure (low 16 bits), candidates (high 16)
        for i in cutlass.range_constexpr(self.slots):
            d = Int32(keys[i] >> sh0)
            live = keys[i] != Uint32(0)
            packed = packed + Int32(cutlass.select_(live & (d > hi), Int32(1),
                                                    cutlass.select_(live & (d >= lo), Int32(1 << 16), Int32(0))))
        incl = warp_incl_sum(packed, lane)
        abase = Int32(0)
        cbase = Int32(0)
        if lane == 31:
            abase = cute.arch.atomic_add((s_scnt.iterator + SB_ABOVE).llvm_ptr, incl & Int32(0xFFFF))
            cbase = cute.arch.atomic_add((s_scnt.iterator + SB_CAND).llvm_ptr, incl >> 16)
        abase = cute.arch.shuffle_sync(abase, 31)
        cbase = cute.arch.shuffle_sync(cbase, 31)
        ex = incl - packed
        apos = abase + (ex & Int32(0xFFFF))
        cpos = cbase + (ex >> 16)
        cute.arch.cluster_wait()
        for i in cutlass.range_constexpr(self.slots):
            d = Int32(keys[i] >> sh0)
            if (keys[i] != Uint32(0)) & (d >= lo) & (d <= hi):
                if cpos < RC:
                    at = 2 * (rank * RC + cpos)
                    self.dsmem_store_u32(Int32((s_buf.iterator + at).toint()), Int32(0), Int32(keys[i]))
                    self.dsmem_store_u32(Int32((s_buf.iterator + (at + 1)).toint()), Int32(0), cols[i])
                cpos = cpos + 1
        cute.arch.sync_threads()
        if tid < C:
            slot = SB_REMOTE + 2 * rank
            self.dsmem_store_u32(Int32((s_scnt.iterator + slot).toint()), tid, s_scnt[SB_ABOVE])
            self.dsmem_store_u32(Int32((s_scnt.iterator + (slot + 1)).toint()), tid, s_scnt[SB_CAND])
        cute.arch.cluster_arrive()
        cute.arch.cluster_wait()
        # 3. The same check in every CTA.
        total = Int32(0)
        below = Int32(0)
        cand = Int32(0)
        over = Int32(0)
        for c in cutlass.range_constexpr(C):
            a_c = s_scnt[SB_REMOTE + 2 * c]
            c_c = s_scnt[SB_REMOTE + 2 * c + 1]
            total = total + a_c
            below = below + Int32(cutlass.select_(rank > Int32(c), a_c, Int32(0)))
            cand = cand + c_c
            over = over | Int32(cutlass.select_(c_c > Int32(RC), Int32(1), Int32(0)))
        done = Int32(cutlass.select_((total < k) & (k <= total + cand) & (over == Int32(0)), Int32(1), Int32(0)))
        self.stamp(g_dbg, 13, t0, tid)  # ... the counts published
        if const_expr(self.stamps):
            if tid == 0:  # dev: what the check saw
                g_dbg[15] = (Int64(done) | (Int64(cand) << 1) | (Int64(total) << 24) | (Int64(hi) << 40) |
                             (Int64(lo) << 52))
        if done != Int32(0):
            slot = below + apos
            for i in cutlass.range_constexpr(self.slots):
                d = Int32(keys[i] >> sh0)
                if (keys[i] != Uint32(0)) & (d > hi):
                    if slot < total:
                        g_idx[slot] = cols[i]
                        if const_expr(self.return_values):
                            g_val[slot] = g_row[cols[i]]
                    slot = slot + 1
            if rank == Int32(0):
                self.finish_candidates(s_buf, s_scnt, total, k, g_row, g_idx, g_val, s_hist, s_coarse, s_sel,
                                       g_dbg, t0, tid, warp, lane)
            self.stamp(g_dbg, 5, t0, tid)
        return done

    @cute.jit
    def finish_candidates(self, s_buf: cute.Tensor, s_scnt: cute.Tensor, total: Int32, k: Int32,
                          g_row: cute.Tensor, g_idx: cute.Tensor, g_val: cute.Tensor, s_hist: cute.Tensor,
                          s_coarse: cute.Tensor, s_sel: cute.Tensor, g_dbg: cute.Tensor, t0: Int64, tid: Int32,
                          warp: Int32, lane: Int32):
        """Rank 0: the ``k - total`` largest candidates, by CTA-local digit passes over the
        regions, written to slots ``[total, k)`` (ties last, the first ones found win)."""
        C = self.cluster
        T = self.threads
        RC = self.region_pairs()
        prefix = Uint32(0)
        need = k - total
        tsh = Uint32(0)
        live = Int32(1)
        for p in cutlass.range_constexpr(len(self.digits)):
            if live != Int32(0):
                for c in cutlass.range_constexpr(C):
                    cnt = s_scnt[SB_REMOTE + 2 * c + 1]
                    for j in cutlass.range(tid, cnt, T):
                        key = Uint32(s_buf[2 * (c * RC + j)])
                        if const_expr(p == 0):
                            self.count_key(s_hist, s_coarse, key, p)
                        else:
                            sp = self.digits[p - 1][0]
                            if (key >> sp) == (prefix >> sp):
                                self.count_key(s_hist, s_coarse, key, p)
                cute.arch.sync_threads()
                if warp == 0:
                    self.find(s_hist, s_coarse, s_sel, p, need, lane, Int32(0), True)
                cute.arch.sync_threads()
                prefix, need, tsh, live = self.after_pass(s_sel, g_dbg, t0, prefix, live, p, tid)
        th = prefix >> tsh
        gtot = k - need
        for c in cutlass.range_constexpr(C):
            cnt = s_scnt[SB_REMOTE + 2 * c + 1]
            for it in cutlass.range(0, cnt, T):  # whole warps per step: the scan below needs them
                j = it + tid
                ok = j < cnt
                h = Uint32(0)
                col = Int32(0)
                if ok:
                    h = Uint32(s_buf[2 * (c * RC + j)]) >> tsh
                    col = s_buf[2 * (c * RC + j) + 1]
                gt = ok & (h > th)
                eq = ok & (h == th)
                packed = Int32(cutlass.select_(gt, Int32(1), cutlass.select_(eq, Int32(1 << 16), Int32(0))))
                incl = warp_incl_sum(packed, lane)
                gb = Int32(0)
                eb = Int32(0)
                if lane == 31:
                    gb = cute.arch.atomic_add((s_scnt.iterator + SB_CGT).llvm_ptr, incl & Int32(0xFFFF))
                    eb = cute.arch.atomic_add((s_scnt.iterator + SB_CEQ).llvm_ptr, incl >> 16)
                gb = cute.arch.shuffle_sync(gb, 31)
                eb = cute.arch.shuffle_sync(eb, 31)
                ex = incl - packed
                if gt:
                    slot = total + gb + (ex & Int32(0xFFFF))
                    if slot < gtot:
                        g_idx[slot] = col
                        if const_expr(self.return_values):
                            g_val[slot] = g_row[col]
                if eq:
                    e = eb + (ex >> 16)
                    if e < need:
                        g_idx[gtot + e] = col
                        if const_expr(self.return_values):
                            g_val[gtot + e] = g_row[col]
