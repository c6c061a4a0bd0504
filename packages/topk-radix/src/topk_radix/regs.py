"""Cluster radix top-k with each CTA's slice in registers (CuTe DSL, Hopper clusters).

What it computes: the same as ``kernel.py`` (top ``k`` order keys of ``[0, L_r)``
per row, ``L_r`` from ``seq_lens``/``next_n``/``compress_ratio``; NaN above +inf,
-0 == +0; rows with ``L <= k`` get ``0..L-1`` then ``-1``/-inf).

Why another kernel: ``kernel.py`` spends most of a decode call on fixed costs:
four 8-bit passes, each with a cluster barrier, 256 threads reading C remote
bins, three CTA barriers and C warp reductions per warp. Here:
  1. CTA ``rank`` owns columns ``[rank*cap, (rank+1)*cap)`` of N (``cap = T*E``),
     so its ``E`` elements per thread (16-byte loads, all issued before the first
     use) are in flight before ``seq_lens`` arrives. They stay in registers as keys
     (0 marks a column outside ``[0, L)``: no real key is 0, the lowest is -inf's).
  2. Digits of 11/11/10 bits (fp32) or 11/5 (16-bit): three or two passes. Each pass
     builds a local histogram (its own buffer, so no pass waits for readers of the
     last) and its 32-bin group sums (summed after pass 0, counted by atomics in the
     later passes, where few keys match), and has ONE cluster barrier. Then warp 0 of
     every CTA finds the digit redundantly in two hops of DSMEM reads: the C group
     sums (a lane holds <= 2 groups), then the 32 bins of the chosen group. No
     broadcast, no second barrier.
  3. Emit: each CTA counts its keys above / equal to the threshold, scans them, and
     takes its output offsets with ONE 64-bit DSMEM atomic on rank 0's counter
     (above in the low word, ties in the high word; the first ``need`` ties win).
  A last cluster barrier (arrive after the atomic, wait at exit) keeps every CTA's
  shared memory alive while others may still read it.

Compile-time variants (``checks.reg_variant`` picks them per launch; NOTES.md, session 4):
  * ``early``: after each pass but the last, if the chosen bin holds exactly the keys still
    needed, stop: emit compares keys on their bits above that digit (every key of the bin
    is in). Uniform across the cluster (every CTA sees the same bin total).
  * ``gather`` (B keys, C > 1): after pass 0 every CTA appends its keys of the chosen bin
    to its own region of ``s_buf`` (regions ordered by rank: pass 0's find also gives the
    bin's count in lower ranks), copies them word by word into every other CTA's
    ``s_buf``, and one cluster barrier publishes them; the later passes then run on the
    buffer with CTA barriers only. If the cluster's bin total exceeds B (ties, plateaus),
    the register passes run as before: exactness never depends on B.
  * ``warp_emit``: each warp takes its output offsets with one atomic (local at C=1, on
    rank 0's counter otherwise): no CTA scan and no CTA barrier in the emit.
  * ``fkey``: one bound compare per slot (not two tests); float32 order keys from a float add
    (``lean.f32_key_fadd``), 5 instructions not 8.
  * ``emit1``: the emit compares keys with the threshold bin's edges (no shift per key) and
    branches once per key, not twice: ties get a loop of their own that few threads enter (``lean.py``).
  * ``nozero``: pass 0 counts every slot, key 0 (no column) too, without a branch; the
    gather does not test for key 0 either (``lean.py`` says why that is exact).
  * ``preclear``: the histograms are zeroed while the loads and ``seq_lens`` are in flight (before
    the row-length test, not after it), one 16-byte store per thread and step, unrolled.
  * ``upscan``: warp scans in five ``shfl.up`` steps whose lane predicate guards the add
    (``cute_radix.warp_incl_sum_up``): two instructions a step, not four (find, emit, gather);
    the find's chosen group and the keys above it come from one warp sum, not two.
  * ``emitb`` (with ``emit1``, E <= 16): a warp writes its keys above the bin slot by slot, each slot's
    lanes to consecutive outputs (ballot + popc), so one store covers ~one 128-byte line instead
    of ~4 (each lane's run of outputs interleaved with its neighbours'). Output order is unspecified.
  * ``spare`` (C > 1): a CTA whose slice starts at or past the row's end exits before pass 0; the live
    ones read rank ``lc - 1``'s words in its place (``cluster_sum``) and copy candidates to live CTAs only.
  * ``push0`` (C > 1): pass 0's group sums are stored into every CTA before pass 0's cluster barrier (one
    more cluster barrier first: no CTA is written to before it runs), so the find's first hop is local.

Limits: ``C * T * E >= N`` (the host picks them), ``T * (E + 1) < 32768`` (packed
16-bit counts). Runtime arguments are as in ``kernel.py``: one build per geometry
serves every row count, N up to ``C*T*E``, k, next_n and compress_ratio.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.memory
from cutlass import Int32, Int64, Uint16, Uint32, const_expr
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T as mlir_t

from topk_core.kernels.cute_common import order_key
from topk_core.kernels.cute_radix import digits, st_shared_zero4, warp_incl_sum_up

from .kernel import NEG_INF_BITS, RowCommon
from .lean import f32_key_fadd
from .regs_emit import (  # noqa: F401  (STAMPS and the ST_* slots are read by the dev scripts as regs.*)
    SEL_BELOW,
    SEL_EQ,
    SEL_GCNT,
    SEL_GT,
    SEL_TOTAL,
    ST_EMIT_OFFS,
    ST_G_LOCAL,
    ST_G_REMOTE,
    ST_P0_BAR,
    ST_P0_COUNT,
    ST_P0_FIND,
    ST_P1_COUNT,
    STAMPS,
    RegEmit,
)

FIRST_BITS = 11


@cute.jit
def warp_incl(x: Int32, lane: Int32) -> Int32:
    """Inclusive warp prefix sum, branch-free (selects instead of per-step divergent ifs)."""
    incl = x
    for sh in cutlass.range_constexpr(5):
        y = cute.arch.shuffle_sync_up(incl, 1 << sh)
        incl = incl + Int32(cutlass.select_(lane >= (1 << sh), y, Int32(0)))
    return incl


class ClusterRegTopK(RegEmit, RowCommon):
    """Compile-time specialisation only (dtype, C, T, E, vector width, values, stamps)."""

    def __init__(self, dtype: str, cluster: int, threads: int, elems: int, vec: int, return_values: bool,
                 stamps: bool = False, gather: int = 0, warp_emit: bool = False, early: bool = False,
                 fkey: bool = False, emit1: bool = False, nozero: bool = False, preclear: bool = False,
                 upscan: bool = False, emitb: bool = False, spare: bool = False, push0: bool = False,
                 relaxed_exit: bool = False):
        assert dtype in NEG_INF_BITS and cluster in (1, 2, 4, 8, 16)
        assert threads % 128 == 0 and elems % max(vec, 1) == 0
        self.dtype_name = dtype
        self.bits = 32 if dtype == "float32" else 16
        self.raw = Uint32 if self.bits == 32 else Uint16
        self.digits = digits(self.bits, FIRST_BITS)
        self.cluster = cluster
        self.threads = threads
        self.elems = elems
        self.vec = vec
        self.cap = threads * elems
        self.slots = elems + (1 if vec > 1 else 0)  # the extra one: a column of the row's scalar tail
        assert threads * self.slots < 32768, "per-CTA counts are packed in 16 bits"
        self.return_values = return_values
        self.stamps = stamps
        self.neg_inf = NEG_INF_BITS[dtype]
        # gather: candidate buffer (keys) for the passes after pass 0; 0 = off, and no use at C=1.
        self.gather = gather if cluster > 1 else 0
        # warp_emit: each warp takes its output offsets with its own atomic (no CTA scan, no barrier).
        self.warp_emit = warp_emit
        # early: stop the passes once the threshold bin holds exactly the keys still needed.
        self.early = early
        # fkey: one bound per slot; float32 keys via a float add (lean.py).
        self.fkey = fkey
        # emit1: edge compares, one branch per key, ties in a loop of their own (lean.py).
        self.emit1 = emit1
        # nozero: pass 0 counts key 0 (no column) in bin 0 instead of branching around it (lean.py).
        self.nozero = nozero
        # preclear: zero the histograms before the row-length test (in the loads' shadow), 16 bytes a store.
        self.preclear = preclear
        # upscan: predicated shfl.up warp scans (two instructions a step); one warp sum in the find.
        self.upscan = upscan
        # emitb: the emit's above-bin stores coalesced per warp and slot (ballot + popc); needs emit1.
        # Not at E = 32: (8, 512, 32) took 127 registers with it (64 without), i.e. two waves at 32x128K.
        self.emitb = emitb and emit1 and elems <= 16
        # spare: CTAs whose slice starts past the row's end exit at once (no column of theirs is real).
        self.spare = spare and cluster > 1
        self.hist_off = []
        self.coarse_off = []
        h = c = 0
        for _, w in self.digits:
            self.hist_off.append(h)
            self.coarse_off.append(c)
            h += 1 << w
            c += max((1 << w) // 32, 1)
        self.hist_words = h
        self.coarse_words = c
        # push0 (C > 1): pass 0's group sums are pushed to every CTA (st.shared::cluster into row ``rank`` of
        # a [C][G0] block after ``s_coarse``'s words) before pass 0's cluster barrier, so the find's first hop
        # reads them locally instead of C remote words per group. An extra cluster barrier (arrive at the
        # row's start, wait before the pushes) makes sure every CTA is running before it is written to.
        self.push0 = push0 and cluster > 1
        self.relaxed_exit = relaxed_exit and cluster > 1
        self.groups0 = max((1 << self.digits[0][1]) // 32, 1)
        self.push_words = cluster * self.groups0 if self.push0 else 0

    def __repr__(self) -> str:  # stable across processes: part of the DSL's cache key
        return (f"ClusterRegTopK_{self.dtype_name}_c{self.cluster}_t{self.threads}_e{self.elems}"
                f"_v{self.vec}_rv{int(self.return_values)}_st{int(self.stamps)}_g{self.gather}_w{int(self.warp_emit)}"
                f"_x{int(self.early)}" + (f"_f{int(self.fkey)}_o{int(self.emit1)}_z{int(self.nozero)}"
                                          if self.fkey or self.emit1 or self.nozero else "")
                + ("_p1" if self.preclear else "") + ("_u1" if self.upscan else "") + ("_b1" if self.emitb else "")
                + ("_s1" if self.spare else "") + ("_q1" if self.push0 else "")
                + ("_r1" if self.relaxed_exit else ""))

    # ------------------------------------------------------------------ host
    @cute.jit
    def __call__(self, logits: cute.Pointer, ld: Int64, n: Int32, seq_lens: cute.Pointer,
                 next_n: Int32, compress_ratio: Int32, k: Int32, rows: Int32,
                 out_idx: cute.Pointer, out_val: cute.Pointer, dbg: cute.Pointer, stream):
        kern = self.kernel(logits, ld, n, seq_lens, next_n, compress_ratio, k, out_idx, out_val, dbg)
        if const_expr(self.cluster > 1):
            kern.launch(grid=[self.cluster, rows, 1], block=[self.threads, 1, 1],
                        cluster=[self.cluster, 1, 1], stream=stream)
        else:
            kern.launch(grid=[1, rows, 1], block=[self.threads, 1, 1], stream=stream)

    # ------------------------------------------------------------------ kernel
    @cute.kernel
    def kernel(self, logits: cute.Pointer, ld: Int64, n: Int32, seq_lens: cute.Pointer,
               next_n: Int32, compress_ratio: Int32, k: Int32,
               out_idx: cute.Pointer, out_val: cute.Pointer, dbg: cute.Pointer):
        C = self.cluster
        T = self.threads
        tid, _, _ = cute.arch.thread_idx()
        rank, row, _ = cute.arch.block_idx()
        lane = cute.arch.lane_idx()
        warp = cute.arch.warp_idx()
        t0 = Int64(0)
        g0 = Int64(0)
        if const_expr(self.stamps):
            t0 = cute.arch.clock64()
            g0 = cute.arch.globaltimer()
        g_dbg = cute.make_tensor(dbg + Int64((row * C + rank) * STAMPS), cute.make_layout(STAMPS))

        smem = cutlass.memory.SmemAllocator()
        s_hist = smem.allocate_tensor(Int32, cute.make_layout(self.hist_words), byte_alignment=16)
        s_coarse = smem.allocate_tensor(Int32, cute.make_layout(self.coarse_words + self.push_words), byte_alignment=16)
        s_sel = smem.allocate_tensor(Int32, cute.make_layout(16), byte_alignment=16)
        s_wsum = smem.allocate_tensor(Int32, cute.make_layout(64), byte_alignment=16)
        s_ctr = smem.allocate_tensor(Int64, cute.make_layout(2), byte_alignment=16)
        s_buf = smem.allocate_tensor(Int32, cute.make_layout(max(self.gather, 4)), byte_alignment=16)

        spec, seq_len, logits, row_base, g_row, g_idx, g_val = self.row_view(
            row, next_n, seq_lens, logits, ld, n, out_idx, out_val, k)

        raws, cols, oks = self.load_slice(logits, row_base, n, g_row, rank, tid)

        if const_expr(self.preclear):  # short rows never read them: zero before seq_lens arrives
            self.clear(s_hist, s_coarse, s_sel, s_ctr, tid)

        length = self.valid_length(seq_len, next_n, spec, compress_ratio, n)

        if length <= k:
            self.fill_short_row(g_idx, g_val, g_row, length, k, rank * T + tid, C * T)
        else:
            if const_expr(self.spare):
                # A CTA whose slice starts at or past the row's end holds no column: it exits now (the
                # cluster barriers wait for non-exited threads only) and no live CTA addresses it.
                if rank * self.cap < length:
                    self.select_row(raws, cols, oks, length, n, k, s_hist, s_coarse, s_sel, s_wsum, s_ctr, s_buf,
                                    g_row, g_idx, g_val, g_dbg, t0, tid, warp, lane, rank)
            else:
                self.select_row(raws, cols, oks, length, n, k, s_hist, s_coarse, s_sel, s_wsum, s_ctr, s_buf,
                                g_row, g_idx, g_val, g_dbg, t0, tid, warp, lane, rank)
        if const_expr(self.stamps):
            self.stamp(g_dbg, 6, t0, tid)
            if tid == 0:
                g_dbg[0] = g0
                g_dbg[7] = cute.arch.globaltimer()

    @cute.jit
    def select_row(self, raws: list, cols: list, oks: list, length: Int32, n: Int32, k: Int32,
                   s_hist: cute.Tensor, s_coarse: cute.Tensor, s_sel: cute.Tensor, s_wsum: cute.Tensor,
                   s_ctr: cute.Tensor, s_buf: cute.Tensor, g_row: cute.Tensor, g_idx: cute.Tensor,
                   g_val: cute.Tensor, g_dbg: cute.Tensor, t0: Int64, tid: Int32, warp: Int32, lane: Int32,
                   rank: Int32):
        """A row longer than k: keys, the passes, the emit (every live CTA of the cluster)."""
        C = self.cluster
        # CTAs holding a column of the row (ranks [0, lc)); with ``spare`` the others have exited.
        lc = Int32(C)
        if const_expr(self.spare):
            lc = cutlass.min((length + Int32(self.cap - 1)) // Int32(self.cap), Int32(C))
        if const_expr(self.push0):  # its wait comes before pass 0's pushes (coarsen)
            cute.arch.cluster_arrive_relaxed()
        if const_expr(not self.preclear):
            self.clear(s_hist, s_coarse, s_sel, s_ctr, tid)
        keys = []
        # fkey: one bound per slot. A vector slot is real iff v < n // V, i.e. its column is below
        # (n // V) * V; a scalar one iff its column is below n >= length (lean.py).
        vlim = length
        if const_expr(self.fkey and self.vec > 1):
            vlim = cutlass.min(length, (n // self.vec) * self.vec)
        for i in cutlass.range_constexpr(self.slots):
            keep = oks[i] & (cols[i] < length)
            if const_expr(self.fkey and (self.vec == 1 or i + 1 < self.slots)):  # not the tail slot
                keep = cols[i] < vlim
            # select_ returns an untyped i32: without Uint32() shifts and compares turn signed.
            if const_expr(self.fkey and self.bits == 32):
                key = f32_key_fadd(raws[i])
            else:
                key = order_key(raws[i], self.dtype_name)
            keys.append(Uint32(cutlass.select_(keep, key, Uint32(0))))
        cute.arch.sync_threads()
        self.stamp(g_dbg, 1, t0, tid)

        prefix = Uint32(0)
        need = k
        tsh = Uint32(0)  # shift of the last digit found: emit compares keys >> tsh
        live = Int32(1)  # 0 once a pass's bin holds exactly the keys still needed (early)
        npass = len(self.digits)
        prefix, need, tsh, live = self.reg_pass(keys, s_hist, s_coarse, s_sel, g_dbg, t0, prefix, need, tsh, live,
                                                0, tid, warp, lane, rank, lc)
        regs_rest = Int32(1)
        if const_expr(self.gather > 0):
            total = s_sel[SEL_TOTAL]
            if (live != Int32(0)) & (total <= Int32(self.gather)):
                regs_rest = Int32(0)
                self.gather_candidates(keys, prefix, s_buf, s_sel, rank, tid, lane, g_dbg, t0, lc)
                for p in cutlass.range_constexpr(1, npass):
                    if const_expr(self.early):
                        if live != Int32(0):
                            prefix, need, tsh, live = self.buf_pass(
                                s_buf, total, s_hist, s_coarse, s_sel, g_dbg, t0, prefix, need, tsh, live, p,
                                tid, warp, lane)
                    else:
                        prefix, need, tsh, live = self.buf_pass(
                            s_buf, total, s_hist, s_coarse, s_sel, g_dbg, t0, prefix, need, tsh, live, p,
                            tid, warp, lane)
        if regs_rest != Int32(0):  # no gather, or too many candidates (ties, plateaus)
            for p in cutlass.range_constexpr(1, npass):
                if const_expr(self.early):
                    if live != Int32(0):
                        prefix, need, tsh, live = self.reg_pass(
                            keys, s_hist, s_coarse, s_sel, g_dbg, t0, prefix, need, tsh, live, p,
                            tid, warp, lane, rank, lc)
                else:
                    prefix, need, tsh, live = self.reg_pass(
                        keys, s_hist, s_coarse, s_sel, g_dbg, t0, prefix, need, tsh, live, p,
                        tid, warp, lane, rank, lc)

        if const_expr(self.emit1):
            self.emit_edges(keys, cols, prefix, tsh, need, k, g_row, g_idx, g_val, s_wsum, s_ctr, s_sel, tid,
                            warp, lane, g_dbg, t0)
        else:
            self.emit(keys, cols, prefix, tsh, need, k, g_row, g_idx, g_val, s_wsum, s_ctr, s_sel, tid, warp,
                      lane, g_dbg, t0)
        self.stamp(g_dbg, 5, t0, tid)
        if const_expr(C > 1):
            cute.arch.cluster_wait()

    # ------------------------------------------------------------------ pieces
    @cute.jit
    def clear(self, s_hist: cute.Tensor, s_coarse: cute.Tensor, s_sel: cute.Tensor, s_ctr: cute.Tensor,
              tid: Int32):
        """Zero the histograms, group sums, counters and ``s_sel``'s counts (before pass 0's barrier)."""
        T = self.threads
        if const_expr(self.preclear):
            quads = self.hist_words // 4  # a multiple of 4 words (2^11 + 2^11 + 2^10, or 2^11 + 2^5)
            for q in cutlass.range_constexpr((quads + T - 1) // T):
                if const_expr((q + 1) * T <= quads):
                    st_shared_zero4(s_hist.iterator + (q * T + tid) * 4)
                else:
                    if q * T + tid < quads:
                        st_shared_zero4(s_hist.iterator + (q * T + tid) * 4)
            for q in cutlass.range_constexpr((self.coarse_words + T - 1) // T):
                if q * T + tid < self.coarse_words:
                    s_coarse[q * T + tid] = Int32(0)
        else:
            for i in cutlass.range(tid, self.hist_words, T):
                s_hist[i] = Int32(0)
            for i in cutlass.range(tid, self.coarse_words, T):
                s_coarse[i] = Int32(0)
        if tid == 0:
            s_ctr[0] = Int64(0)
            for j in cutlass.range_constexpr(SEL_GCNT, 16):
                s_sel[j] = Int32(0)

    @cute.jit
    def scan(self, x: Int32, lane: Int32) -> Int32:
        """Inclusive warp prefix sum (the whole warp calls it)."""
        incl = x
        if const_expr(self.upscan):
            incl = warp_incl_sum_up(x)
        else:
            incl = warp_incl(x, lane)
        return incl

    @cute.jit
    def stamp(self, g_dbg: cute.Tensor, slot: cutlass.Constexpr, t0: Int64, tid: Int32):
        if const_expr(self.stamps):
            if tid == 0:
                g_dbg[slot] = cute.arch.clock64() - t0

    @cute.jit
    def reg_pass(self, keys: list, s_hist: cute.Tensor, s_coarse: cute.Tensor, s_sel: cute.Tensor,
                 g_dbg: cute.Tensor, t0: Int64, prefix: Uint32, need: Int32, tsh: Uint32, live: Int32,
                 p: cutlass.Constexpr, tid: Int32, warp: Int32, lane: Int32, rank: Int32, lc: Int32):
        """Pass ``p`` over the keys in registers, with one cluster barrier (``lc``: live CTAs)."""
        C = self.cluster
        for i in cutlass.range_constexpr(self.slots):
            key = keys[i]
            if const_expr(p == 0 and self.nozero):
                self.count_key(s_hist, s_coarse, key, p, False)  # key 0 into bin 0: see nozero
            else:
                take = key != Uint32(0)
                if const_expr(p > 0):
                    sp = self.digits[p - 1][0]
                    take = (key >> sp) == (prefix >> sp)
                if take:  # few keys match after pass 0: count their groups directly
                    self.count_key(s_hist, s_coarse, key, p, p > 0)
        if const_expr(p == 0):  # most keys count: sum the groups after the fact
            cute.arch.sync_threads()
            self.coarsen(s_hist, s_coarse, p, warp, lane, rank, lc)
        if const_expr(p < 2):
            self.stamp(g_dbg, ST_P0_COUNT if p == 0 else ST_P1_COUNT, t0, tid)
        if const_expr(C > 1):
            cute.arch.cluster_arrive()
            cute.arch.cluster_wait()
        else:
            cute.arch.sync_threads()
        if const_expr(p == 0):
            self.stamp(g_dbg, ST_P0_BAR, t0, tid)
        if warp == 0:
            self.find(s_hist, s_coarse, s_sel, p, need, lane, rank, False, lc)
        if const_expr(p == 0):
            self.stamp(g_dbg, ST_P0_FIND, t0, tid)
        cute.arch.sync_threads()
        return self.after_pass(s_sel, g_dbg, t0, prefix, live, p, tid)

    @cute.jit
    def after_pass(self, s_sel: cute.Tensor, g_dbg: cute.Tensor, t0: Int64, prefix: Uint32, live: Int32,
                   p: cutlass.Constexpr, tid: Int32):
        """Read pass ``p``'s digit and remaining need (after the barrier that follows ``find``)."""
        sh = self.digits[p][0]
        prefix = prefix | (Uint32(s_sel[2 * p]) << sh)
        need = s_sel[2 * p + 1]
        if const_expr(self.early and p + 1 < len(self.digits)):
            # The bin holds exactly the keys still needed: all of them are in, no more passes.
            live = Int32(cutlass.select_(need == s_sel[SEL_TOTAL], Int32(0), live))
        self.stamp(g_dbg, 2 + p, t0, tid)
        return prefix, need, Uint32(sh), live

    @cute.jit
    def count_key(self, s_hist: cute.Tensor, s_coarse: cute.Tensor, key: Uint32, p: cutlass.Constexpr,
                  coarse: cutlass.Constexpr = True):
        """Add ``key``'s pass-``p`` digit to the histogram (and its group of 32, with ``coarse``)."""
        sh, w = self.digits[p]
        d = Int32((key >> sh) & Uint32((1 << w) - 1))
        cute.arch.atomic_add((s_hist.iterator + (self.hist_off[p] + d)).llvm_ptr, Int32(1))
        if const_expr(coarse):
            cute.arch.atomic_add((s_coarse.iterator + (self.coarse_off[p] + (d >> 5))).llvm_ptr, Int32(1))

    @cute.jit
    def gather_candidates(self, keys: list, prefix: Uint32, s_buf: cute.Tensor, s_sel: cute.Tensor, rank: Int32,
                          tid: Int32, lane: Int32, g_dbg: cute.Tensor, t0: Int64, lc: Int32):
        """Copy the cluster's pass-0 candidates (keys in the chosen bin) into every CTA's ``s_buf``.

        This CTA's candidates go to ``[below, below + mine)`` (``below``: the bin's count in
        lower-ranked CTAs, from pass 0's find): first locally (one atomic per warp), then
        word by word to the other CTAs. One cluster barrier publishes them. The caller
        checked that the cluster's total fits the buffer; the bounds below only keep a
        broken invariant from writing outside it.
        """
        C = self.cluster
        B = self.gather
        sh0 = self.digits[0][0]
        ms = []
        cnt = Int32(0)
        for i in cutlass.range_constexpr(self.slots):
            m = (keys[i] >> sh0) == (prefix >> sh0)
            if const_expr(not self.nozero):
                m = m & (keys[i] != Uint32(0))
            ms.append(m)
            cnt = cnt + Int32(cutlass.select_(m, Int32(1), Int32(0)))
        incl = self.scan(cnt, lane)
        wbase = Int32(0)
        if lane == 31:
            wbase = cute.arch.atomic_add((s_sel.iterator + SEL_GCNT).llvm_ptr, incl)
        wbase = cute.arch.shuffle_sync(wbase, 31)
        pos = s_sel[SEL_BELOW] + wbase + incl - cnt
        for i in cutlass.range_constexpr(self.slots):
            if ms[i]:
                if pos < Int32(B):
                    s_buf[pos] = Int32(keys[i])
                pos = pos + 1
        cute.arch.sync_threads()
        self.stamp(g_dbg, ST_G_LOCAL, t0, tid)
        below = s_sel[SEL_BELOW]
        mine = cutlass.min(s_sel[SEL_GCNT], Int32(B) - below)
        for j in cutlass.range(tid, mine, self.threads):
            at = below + j
            key = s_buf[at]
            addr = Int32((s_buf.iterator + at).toint())
            for c in cutlass.range_constexpr(C):
                if const_expr(self.spare):
                    if (rank != c) & (Int32(c) < lc):  # exited CTAs (spare) take no copy
                        self.dsmem_store_u32(addr, Int32(c), key)
                else:
                    if rank != c:
                        self.dsmem_store_u32(addr, Int32(c), key)
        self.stamp(g_dbg, ST_G_REMOTE, t0, tid)
        cute.arch.cluster_arrive()
        cute.arch.cluster_wait()

    @cute.jit
    def buf_pass(self, s_buf: cute.Tensor, total: Int32, s_hist: cute.Tensor, s_coarse: cute.Tensor,
                 s_sel: cute.Tensor, g_dbg: cute.Tensor, t0: Int64, prefix: Uint32, need: Int32, tsh: Uint32,
                 live: Int32, p: cutlass.Constexpr, tid: Int32, warp: Int32, lane: Int32):
        """Pass ``p`` (> 0) over the gathered candidates: CTA barriers only, no DSMEM."""
        sp = self.digits[p - 1][0]
        for i in cutlass.range(tid, total, self.threads):
            key = Uint32(s_buf[i])
            if const_expr(p == 1):  # every buffered key matches pass 0's digit
                self.count_key(s_hist, s_coarse, key, p)
            else:
                if (key >> sp) == (prefix >> sp):
                    self.count_key(s_hist, s_coarse, key, p)
        if const_expr(p == 1):
            self.stamp(g_dbg, ST_P1_COUNT, t0, tid)
        cute.arch.sync_threads()
        if warp == 0:
            self.find(s_hist, s_coarse, s_sel, p, need, lane, Int32(0), True, Int32(self.cluster))
        cute.arch.sync_threads()
        return self.after_pass(s_sel, g_dbg, t0, prefix, live, p, tid)

    @cute.jit
    def load_slice(self, logits: cute.Pointer, row_base: Int64, n: Int32, g_row: cute.Tensor, rank: Int32,
                   tid: Int32):
        """This thread's raw elements, their columns and whether each is a real column of the slice.

        Vector ``v = rank*T*U + u*T + tid`` (``U = E/V``) of the row: coalesced, and all
        ``U`` loads are issued before any is used. Indices past the last whole vector are
        clamped (and marked not ok); the row's ``< V`` tail columns are one extra slot.
        """
        T = self.threads
        V = self.vec
        raws = []
        cols = []
        oks = []
        if const_expr(V > 1):
            U = self.elems // V
            nvr = n // V
            xbase = cute.make_ptr(self.raw, (logits + row_base).toint(), cute.AddressSpace.gmem, assumed_align=16)
            xv = cute.make_tensor(xbase, cute.make_layout((V, nvr), stride=(1, V)))
            v0 = rank * (T * U) + tid
            vecs = []
            for u in cutlass.range_constexpr(U):
                vecs.append(xv[None, cutlass.min(v0 + u * T, nvr - 1)].load())
            for u in cutlass.range_constexpr(U):
                v = v0 + u * T
                for e in cutlass.range_constexpr(V):
                    raws.append(self.raw(vecs[u][e]))
                    cols.append(v * V + e)
                    oks.append(v < nvr)
            tcol = nvr * V + tid
            mine = (tid < V) & (tcol < n) & (rank == tcol // self.cap)
            traw = self.raw(0)
            if mine:
                traw = self.raw(g_row[tcol])
            raws.append(traw)
            cols.append(tcol)
            oks.append(mine)
        else:
            c0 = rank * self.cap + tid
            for u in cutlass.range_constexpr(self.elems):
                col = c0 + u * T
                raws.append(self.raw(g_row[cutlass.min(col, n - 1)]))
                cols.append(col)
                oks.append(col < n)
        return raws, cols, oks

    @cute.jit
    def coarsen(self, s_hist: cute.Tensor, s_coarse: cute.Tensor, p: cutlass.Constexpr, warp: Int32,
                lane: Int32, rank: Int32, lc: Int32):
        """Sum pass ``p``'s histogram per group of 32 bins (one warp reduction per group); ``push0``:
        lane ``c`` stores the sum into CTA ``c``'s push block (row ``rank``)."""
        w = self.digits[p][1]
        groups = max((1 << w) // 32, 1)
        hoff = self.hist_off[p]
        coff = self.coarse_off[p]
        if const_expr(self.push0 and p == 0):
            cute.arch.cluster_wait()  # every CTA of the cluster is running: its shared memory may be written
        for g in cutlass.range(warp, groups, self.threads // 32):
            s = cute.arch.warp_redux_sync(s_hist[hoff + g * 32 + lane], "add")
            if const_expr(self.push0 and p == 0):
                if lane < lc:
                    addr = Int32((s_coarse.iterator + (self.coarse_words + rank * self.groups0 + g)).toint())
                    self.dsmem_store_u32(addr, lane, s)
            else:
                if lane == 0:
                    s_coarse[coff + g] = s

    @cute.jit
    def cluster_sum(self, buf: cute.Tensor, idx: Int32, local: cutlass.Constexpr, rank: Int32, lc: Int32):
        """``buf[idx]`` summed over the cluster's CTAs (all C loads issued at once), and the
        part of the sum from CTAs ranked below ``rank``. ``local``: this CTA's copy only.
        ``spare``: CTAs ranked ``lc`` and up have exited, so their loads go to rank ``lc - 1``."""
        total = Int32(0)
        below = Int32(0)
        if const_expr(self.cluster == 1 or local):
            total = buf[idx]
        else:
            vals = []
            last = lc - Int32(1)
            for c in cutlass.range_constexpr(self.cluster):
                src = c
                if const_expr(self.spare and c > 0):
                    src = cutlass.min(Int32(c), last)  # one instruction a rank, no select of the value
                remote = cute.arch.map_dsmem_ptr(buf.iterator + idx, src)
                vals.append(Int32(llvm.load(mlir_t.i32(), remote.llvm_ptr)))
            for c in cutlass.range_constexpr(self.cluster):
                total = total + vals[c]
                below = below + Int32(cutlass.select_(rank > Int32(c), vals[c], Int32(0)))
            if const_expr(self.spare):
                # Ranks lc..C-1 read rank lc-1's word (vals[C-1]) again: take those copies out. ``below``
                # has none (rank < lc).
                total = total - (Int32(self.cluster) - lc) * vals[self.cluster - 1]
        return total, below

    @cute.jit
    def find(self, s_hist: cute.Tensor, s_coarse: cute.Tensor, s_sel: cute.Tensor, p: cutlass.Constexpr,
             need: Int32, lane: Int32, rank: Int32, local: cutlass.Constexpr, lc: Int32):
        """Warp 0: the digit of pass ``p`` holding the ``need``-th largest matching key.

        Hop 1: lane ``l`` sums groups ``G-1-l*per .. `` (top down) over the cluster; a
        warp scan finds the group. Hop 2: lane ``l`` sums bin ``31-l`` of that group.
        Exactly one lane's range straddles ``need`` (the keys counted are >= ``need``).
        """
        w = self.digits[p][1]
        G = max((1 << w) // 32, 1)
        per = max(G // 32, 1)
        hoff = self.hist_off[p]
        coff = self.coarse_off[p]
        coarse = cute.make_tensor(s_coarse.iterator + coff, cute.make_layout(G))
        hist = cute.make_tensor(s_hist.iterator + hoff, cute.make_layout(1 << w))
        tots = []
        own = Int32(0)
        for j in cutlass.range_constexpr(per):
            g = Int32(G - 1) - (lane * per + j)
            t = Int32(0)
            if const_expr(self.push0 and p == 0 and not local):  # pushed here: C local words
                for c in cutlass.range_constexpr(self.cluster):
                    v = s_coarse[self.coarse_words + c * G + cutlass.max(g, Int32(0))]
                    if const_expr(self.spare and c > 0):
                        v = Int32(cutlass.select_(Int32(c) < lc, v, Int32(0)))  # an exited CTA's row is unset
                    t = t + v
            else:
                t, _ = self.cluster_sum(coarse, cutlass.max(g, Int32(0)), local, rank, lc)
            t = Int32(cutlass.select_(g >= Int32(0), t, Int32(0)))
            tots.append(t)
            own = own + t
        incl = self.scan(own, lane)
        acc = incl - own
        hit = (acc < need) & (need <= incl)
        gsel = Int32(0)
        above = Int32(0)
        for j in cutlass.range_constexpr(per):
            t = tots[j]
            if hit & (acc < need) & (need <= acc + t):
                gsel = Int32(G - 1) - (lane * per + j)
                above = acc
            acc = acc + t
        if const_expr(self.upscan):
            # One lane hits: one sum carries both. above <= the cluster's keys < 16 * 32768 = 2^19.
            both = cute.arch.warp_redux_sync(Int32(cutlass.select_(hit, (gsel << 20) | above, Int32(0))), "add")
            gsel = both >> 20
            above = both & Int32(0xFFFFF)
        else:
            gsel = cute.arch.warp_redux_sync(Int32(cutlass.select_(hit, gsel, Int32(0))), "add")
            above = cute.arch.warp_redux_sync(Int32(cutlass.select_(hit, above, Int32(0))), "add")
        b = gsel * 32 + 31 - lane
        v = Int32(0)
        vb = Int32(0)
        if const_expr((1 << w) >= 32):
            v, vb = self.cluster_sum(hist, b, local, rank, lc)
        incl = self.scan(v, lane)
        ex = above + incl - v
        if (ex < need) & (need <= above + incl):
            s_sel[2 * p] = b
            s_sel[2 * p + 1] = need - ex
            s_sel[SEL_TOTAL] = v  # the cluster's keys in the chosen bin
            if const_expr(p == 0 and self.gather > 0):
                s_sel[SEL_BELOW] = vb  # ... in CTAs ranked below this one
