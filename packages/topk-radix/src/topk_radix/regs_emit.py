"""The register kernel's output side (``regs.py``): the emit (offsets from rank 0's counters, above-bin keys,
then the ties) and the DSMEM helpers. A mixin of ``regs.ClusterRegTopK``: ``self`` is that kernel, whose
flags (``emit1``, ``emitb``, ``warp_emit``, ``relaxed_exit`` ...) and ``scan``/``stamp`` these use."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Int64, Uint32, const_expr
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T as mlir_t

#: Words of ``s_sel`` past the per-pass (digit, need) pairs.
SEL_TOTAL, SEL_BELOW, SEL_GCNT, SEL_GT, SEL_EQ = 6, 7, 8, 9, 10
STAMPS = 16  # dev timestamps per CTA: globaltimer at start, clock64 deltas, globaltimer at end (slot 7)
#: Dev sub-phase stamp slots (clock64 deltas, thread 0): pass 0 counted / its cluster barrier passed /
#: its digit found; gather appended / copied out; emit offsets known; pass 1 counted.
ST_P0_COUNT, ST_P0_BAR, ST_P0_FIND, ST_G_LOCAL, ST_G_REMOTE, ST_EMIT_OFFS, ST_P1_COUNT = 8, 9, 10, 11, 12, 13, 14


class RegEmit:
    """Output methods of ``ClusterRegTopK`` (split out for size only)."""

    @cute.jit
    def emit(self, keys: list, cols: list, thr: Uint32, tsh: Uint32, need: Int32, k: Int32, g_row: cute.Tensor,
             g_idx: cute.Tensor, g_val: cute.Tensor, s_wsum: cute.Tensor, s_ctr: cute.Tensor, s_sel: cute.Tensor,
             tid: Int32, warp: Int32, lane: Int32, g_dbg: cute.Tensor, t0: Int64):
        """Write the keys above ``thr`` to slots ``[0, k-need)`` and the first ``need`` ties after them.

        Keys compare on their bits above ``tsh`` (the last digit found): below it, an early
        stop (``early``) left every key of the threshold bin in, as ties.
        """
        th = thr >> tsh
        hs = []
        packed = Int32(0)  # keys above the threshold (low 16 bits) and equal to it (high 16)
        for i in cutlass.range_constexpr(self.slots):
            h = keys[i] >> tsh
            hs.append(h)
            packed = packed + Int32(cutlass.select_(h > th, Int32(1),
                                                    cutlass.select_(h == th, Int32(1 << 16), Int32(0))))
        incl = self.scan(packed, lane)
        gslot, eslot = self.atomic_offsets(packed, incl, s_wsum, s_ctr, s_sel, warp, lane)
        self.stamp(g_dbg, ST_EMIT_OFFS, t0, tid)
        gtot = k - need
        for i in cutlass.range_constexpr(self.slots):
            key = hs[i]
            # The bounds hold when the counts are right; they keep a broken invariant
            # from ever writing outside the row's k slots. Branches, not predicated stores:
            # a warp skips a key whose lanes are all out (measured faster, NOTES.md session 5).
            if key > th:
                if gslot < gtot:
                    g_idx[gslot] = cols[i]
                    if const_expr(self.return_values):
                        g_val[gslot] = g_row[cols[i]]
                gslot = gslot + 1
            if key == th:
                if eslot < need:
                    g_idx[gtot + eslot] = cols[i]
                    if const_expr(self.return_values):
                        g_val[gtot + eslot] = g_row[cols[i]]
                eslot = eslot + 1

    @cute.jit
    def emit_edges(self, keys: list, cols: list, thr: Uint32, tsh: Uint32, need: Int32, k: Int32,
                   g_row: cute.Tensor, g_idx: cute.Tensor, g_val: cute.Tensor, s_wsum: cute.Tensor,
                   s_ctr: cute.Tensor, s_sel: cute.Tensor, tid: Int32, warp: Int32, lane: Int32,
                   g_dbg: cute.Tensor, t0: Int64):
        """``emit`` (``emit1``): ``key >> tsh`` against ``thr >> tsh`` as ``key`` against the bin's
        edges ``[lo, hi]`` (no shift per key); one branch per key for the keys above the bin, and
        the ties (few: one bin) in a second loop that only threads holding one enter."""
        lo = (thr >> tsh) << tsh
        hi = lo | ((Uint32(1) << tsh) - Uint32(1))
        packed = Int32(0)  # keys above the bin (low 16 bits) and in it (high 16)
        for i in cutlass.range_constexpr(self.slots):
            packed = packed + Int32(cutlass.select_(keys[i] > hi, Int32(1),
                                                    cutlass.select_(keys[i] >= lo, Int32(1 << 16), Int32(0))))
        incl = self.scan(packed, lane)
        gslot, eslot = self.atomic_offsets(packed, incl, s_wsum, s_ctr, s_sel, warp, lane)
        self.stamp(g_dbg, ST_EMIT_OFFS, t0, tid)
        gtot = k - need
        # The bounds hold when the counts are right; they keep a broken invariant from ever
        # writing outside the row's k slots.
        if const_expr(self.emitb):
            # The warp's above-bin outputs start at lane 0's slot; slot i's keys follow slot i-1's.
            ltm = Uint32(cute.arch.lanemask_lt())
            run = gslot - ((incl - packed) & Int32(0xFFFF))
            for i in cutlass.range_constexpr(self.slots):
                up = keys[i] > hi
                ball = Uint32(cute.arch.vote_ballot_sync(up))
                pos = run + Int32(cute.arch.popc(ball & ltm))
                if up:
                    if pos < gtot:
                        g_idx[pos] = cols[i]
                        if const_expr(self.return_values):
                            g_val[pos] = g_row[cols[i]]
                run = run + Int32(cute.arch.popc(ball))
        else:
            for i in cutlass.range_constexpr(self.slots):
                if keys[i] > hi:
                    if gslot < gtot:
                        g_idx[gslot] = cols[i]
                        if const_expr(self.return_values):
                            g_val[gslot] = g_row[cols[i]]
                    gslot = gslot + 1
        if (packed >> 16) != Int32(0):
            span = hi - lo
            for i in cutlass.range_constexpr(self.slots):
                # In the bin: key - lo <= hi - lo, a compare the count loop did not make, so the
                # compiler need not keep its predicates in registers. Key 0 (no column) is never
                # in: no real key shares the bin's digits with it.
                if keys[i] - lo <= span:
                    if eslot < need:
                        g_idx[gtot + eslot] = cols[i]
                        if const_expr(self.return_values):
                            g_val[gtot + eslot] = g_row[cols[i]]
                    eslot = eslot + 1

    @cute.jit
    def atomic_offsets(self, packed: Int32, incl: Int32, s_wsum: cute.Tensor, s_ctr: cute.Tensor,
                       s_sel: cute.Tensor, warp: Int32, lane: Int32):
        """This thread's first (above, tie) output slots, from atomics on rank 0's counters."""
        C = self.cluster
        NW = self.threads // 32
        gslot = Int32(0)
        eslot = Int32(0)
        if const_expr(self.warp_emit):
            # One atomic per warp on the (above, tie) counters: no CTA scan, no CTA barrier.
            lo = Int32(0)
            hi = Int32(0)
            if lane == 31:
                if const_expr(C == 1):
                    lo = cute.arch.atomic_add((s_sel.iterator + SEL_GT).llvm_ptr, incl & Int32(0xFFFF))
                    hi = cute.arch.atomic_add((s_sel.iterator + SEL_EQ).llvm_ptr, incl >> 16)
                else:
                    add = Int64(incl & Int32(0xFFFF)) | (Int64(incl >> 16) << 32)
                    old = self.dsmem_add_u64(s_ctr.iterator, add)
                    lo = Int32(old & Int64(0xFFFFFFFF))
                    hi = Int32(old >> 32)
            lo = cute.arch.shuffle_sync(lo, 31)
            hi = cute.arch.shuffle_sync(hi, 31)
            if const_expr(C > 1):
                self.exit_arrive()  # this warp's last DSMEM access is done
            ex = incl - packed
            gslot = lo + (ex & Int32(0xFFFF))
            eslot = hi + (ex >> 16)
        else:
            if lane == 31:
                s_wsum[warp] = incl
            cute.arch.sync_threads()
            if warp == 0:
                own = Int32(0)
                if lane < NW:
                    own = s_wsum[lane]
                winc = self.scan(own, lane)
                s_wsum[32 + lane] = winc - own
                if lane == NW - 1:
                    add = Int64(winc & Int32(0xFFFF)) | (Int64(winc >> 16) << 32)
                    old = Int64(0)
                    if const_expr(C == 1):
                        old = s_ctr[0]
                    else:
                        old = self.dsmem_add_u64(s_ctr.iterator, add)
                    s_ctr[1] = old
            cute.arch.sync_threads()
            if const_expr(C > 1):
                self.exit_arrive()  # our last DSMEM access is done
            base = s_ctr[1]
            ex = s_wsum[32 + warp] + incl - packed
            gslot = Int32(base & Int64(0xFFFFFFFF)) + (ex & Int32(0xFFFF))
            eslot = Int32(base >> 32) + (ex >> 16)
        return gslot, eslot

    @cute.jit
    def exit_arrive(self):
        """The exit barrier's arrive. ``relaxed_exit``: no release fence (ncu of 1x128K: membar stalls 1.57 per
        issued instruction); every DSMEM access before it has returned its value or was published by an earlier
        release barrier, and the barrier only keeps shared memory alive, orders no data."""
        if const_expr(self.relaxed_exit):
            cute.arch.cluster_arrive_relaxed()
        else:
            cute.arch.cluster_arrive()

    @cute.jit
    def dsmem_store_u32(self, addr: Int32, cta: Int32, val: Int32):
        """``st.shared::cluster`` of ``val`` to CTA ``cta``'s copy of the shared word at ``addr``."""
        llvm.inline_asm(
            None, [addr.ir_value(), cta.ir_value(), val.ir_value()],
            "{\n\t.reg .u32 ra;\n\tmapa.shared::cluster.u32 ra, $0, $1;\n\t"
            "st.shared::cluster.u32 [ra], $2;\n\t}",
            "r,r,r", has_side_effects=True, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT)

    @cute.jit
    def dsmem_add_u64(self, local: cute.Pointer, val: Int64) -> Int64:
        """``atomicAdd`` on rank 0's copy of the shared word at ``local``; returns the old value."""
        addr = local.toint()
        return Int64(llvm.inline_asm(
            mlir_t.i64(), [Int32(addr).ir_value(), Int64(val).ir_value()],
            "{\n\t.reg .u32 ra;\n\tmapa.shared::cluster.u32 ra, $1, 0;\n\t"
            "atom.shared::cluster.add.u64 $0, [ra], $2;\n\t}",
            "=l,r,l", has_side_effects=True, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT))
