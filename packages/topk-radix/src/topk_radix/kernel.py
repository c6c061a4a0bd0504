"""Cluster radix top-k (CuTe DSL, Hopper thread-block clusters).

What it computes: for each row ``r`` of ``logits`` (raw bits, fp32 or 16-bit),
the ``k`` columns of ``[0, L_r)`` with the largest order keys (``topk_core.keys``:
NaN above +inf, -0 == +0), ``L_r`` from ``seq_lens``/``next_n``/``compress_ratio``.

How: one cluster of ``C`` CTAs per row (grid ``(C, rows)``, cluster ``(C, 1)``).
  1. Each CTA copies its slice ``[rank*chunk, rank*chunk + cnt)`` of the row into
     shared memory once (16-byte ``cp.async``), ``chunk = ceil(L/C)`` rounded to
     the vector width. CTAs whose slice is empty skip the work but still arrive
     at every cluster barrier.
  2. ``bits/8`` radix passes of 8 bits on the resident slice. Each CTA builds a
     256-bin histogram of the keys that match the prefix so far, one cluster
     barrier publishes it, and the first 256 threads of every CTA sum bin ``b``
     over the cluster through DSMEM loads. Every CTA then finds the same digit
     redundantly, so no broadcast (and no second barrier) is needed. The same
     remote values give every CTA's count above the chosen digit, so after the
     last pass each CTA knows its output offsets without another barrier.
  3. Each CTA writes its keys above the threshold at ``gt_offset + local`` and
     its threshold ties at ``k - needed + eq_offset + local`` (first ``needed``
     ties of the cluster win), with warp-aggregated shared atomics.
  A final cluster barrier (arrive after the last remote read, wait at exit)
  keeps every CTA's shared memory alive while others may still read it.

Rows with ``L <= k`` skip all of this (uniformly across the cluster): slots
``0..L-1`` get ``0..L-1`` and the rest ``-1`` (values ``-inf``).

Limits: ``ceil(N/C)`` rounded to the vector width must fit ``capacity``; the
host (``launch.py``) picks ``C`` and ``capacity``. Runtime arguments are rows,
N, the row stride, next_n, compress_ratio and k: one build serves them all.
Compile on CPU with ``CUTE_DSL_ARCH=sm_90a`` (see tests/test_compile.py).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.memory
from cuda.bindings import driver as cuda
from cutlass import Boolean, Int32, Int64, Uint16, Uint32, const_expr
from cutlass._mlir.dialects import llvm, nvvm
from cutlass.cute.nvgpu import cpasync
from cutlass.cutlass_dsl import T as mlir_t

from topk_core.kernels.cute_common import order_key, warp_inclusive_sum

RADIX = 256
#: Raw bits of -inf per key width (fp32, bf16, fp16).
NEG_INF_BITS = {"float32": 0xFF800000, "bfloat16": 0xFF80, "float16": 0xFC00}


class RowCommon:
    """Per-row steps both cluster kernels share (``self.raw``, ``self.neg_inf`` and
    ``self.return_values`` come from the kernel class)."""

    @cute.jit
    def row_view(self, row: Int32, next_n: Int32, seq_lens: cute.Pointer, logits: cute.Pointer, ld: Int64, n: Int32,
                 out_idx: cute.Pointer, out_val: cute.Pointer, k: Int32):
        """Row ``row``'s offset within its request (``spec``), its request's seq_len (loaded
        first: used only after the row's loads are in flight), the raw-typed logits pointer,
        the row's base offset, and views of its logits, output indices and output values."""
        req = row
        spec = Int32(0)
        if next_n != Int32(1):  # the division costs ~35 issue slots per warp before any load
            req = row // next_n
            spec = row - req * next_n
        g_lens = cute.make_tensor(seq_lens, cute.make_layout(req + 1))
        seq_len = g_lens[req]
        logits = cute.recast_ptr(logits, dtype=self.raw)
        out_val = cute.recast_ptr(out_val, dtype=self.raw)
        row_base = Int64(row) * ld
        g_row = cute.make_tensor(logits + row_base, cute.make_layout(n))
        out_base = Int64(row) * Int64(k)
        g_idx = cute.make_tensor(out_idx + out_base, cute.make_layout(k))
        g_val = cute.make_tensor(out_val + out_base, cute.make_layout(k))
        return spec, seq_len, logits, row_base, g_row, g_idx, g_val

    @cute.jit
    def valid_length(self, seq_len: Int32, next_n: Int32, spec: Int32, compress_ratio: Int32, n: Int32) -> Int32:
        """The spec's ``L_r``: ``clamp((seq_len - next_n + spec + 1) // compress_ratio, 0, n)``."""
        numer = cutlass.max(Int64(seq_len) - Int64(next_n) + Int64(spec) + Int64(1), Int64(0))
        length = Int32(cutlass.min(numer, Int64(n)))
        if compress_ratio != Int32(1):  # skip the 64-bit division on the usual path (it waits on seq_len)
            length = Int32(cutlass.min(numer // Int64(compress_ratio), Int64(n)))
        return length

    @cute.jit
    def fill_short_row(self, g_idx: cute.Tensor, g_val: cute.Tensor, g_row: cute.Tensor, length: Int32, k: Int32,
                       first: Int32, step: cutlass.Constexpr):
        """A row with ``length <= k``: identity indices then -1 padding; no barrier, no DSMEM."""
        for j in cutlass.range(first, k, step):
            inside = j < length
            g_idx[j] = cutlass.select_(inside, j, Int32(-1))
            if const_expr(self.return_values):
                v = self.raw(self.neg_inf)
                if inside:
                    v = self.raw(g_row[j])
                g_val[j] = v


class ClusterRadixTopK(RowCommon):
    """Compile-time specialisation only; everything else is a runtime argument."""

    def __init__(self, dtype: str, cluster: int, capacity: int, threads: int, vec: int,
                 return_values: bool, static_slices: bool = True, aggregate: bool = True,
                 prefix_offsets: bool = False):
        assert dtype in NEG_INF_BITS and cluster in (1, 2, 4, 8, 16)
        assert threads % 256 == 0 and capacity % max(vec, 1) == 0
        self.dtype_name = dtype
        self.bits = 32 if dtype == "float32" else 16
        self.raw = Uint32 if self.bits == 32 else Uint16
        self.passes = self.bits // 8
        self.cluster = cluster
        self.capacity = capacity
        self.threads = threads
        self.vec = vec  # elements per 16-byte copy, or 1 for the unaligned path
        self.return_values = return_values
        self.neg_inf = NEG_INF_BITS[dtype]
        # static_slices: slices cut from N (not L), so the copies start before seq_lens arrives.
        self.static_slices = static_slices
        # aggregate: one shared atomic per distinct digit per warp (match.any), not per lane.
        self.aggregate = aggregate
        # prefix_offsets: sum the counts of lower-ranked CTAs while merging, so one warp
        # reduction per pass gives this CTA's output offset (instead of one per CTA).
        self.prefix_offsets = prefix_offsets

    def __repr__(self) -> str:  # stable across processes: part of the DSL's cache key
        return (f"ClusterRadixTopK_{self.dtype_name}_c{self.cluster}_e{self.capacity}_t{self.threads}"
                f"_v{self.vec}_rv{int(self.return_values)}_s{int(self.static_slices)}_a{int(self.aggregate)}"
                f"_p{int(self.prefix_offsets)}")

    # ------------------------------------------------------------------ host
    @cute.jit
    def __call__(self, logits: cute.Pointer, ld: Int64, n: Int32, seq_lens: cute.Pointer,
                 next_n: Int32, compress_ratio: Int32, k: Int32, rows: Int32,
                 out_idx: cute.Pointer, out_val: cute.Pointer, stream: cuda.CUstream):
        self.kernel(logits, ld, n, seq_lens, next_n, compress_ratio, k, out_idx, out_val).launch(
            grid=[self.cluster, rows, 1], block=[self.threads, 1, 1],
            cluster=[self.cluster, 1, 1], stream=stream)

    # ------------------------------------------------------------------ kernel
    @cute.kernel
    def kernel(self, logits: cute.Pointer, ld: Int64, n: Int32, seq_lens: cute.Pointer,
               next_n: Int32, compress_ratio: Int32, k: Int32,
               out_idx: cute.Pointer, out_val: cute.Pointer):
        C = self.cluster
        T = self.threads
        P = self.passes
        VEC = self.vec
        tid, _, _ = cute.arch.thread_idx()
        rank, row, _ = cute.arch.block_idx()
        lane = cute.arch.lane_idx()
        warp = cute.arch.warp_idx()

        smem = cutlass.memory.SmemAllocator()
        s_data = smem.allocate_tensor(self.raw, cute.make_layout(self.capacity), byte_alignment=128)
        s_hist = smem.allocate_tensor(Int32, cute.make_layout(P * RADIX), byte_alignment=16)
        s_tot = smem.allocate_tensor(Int32, cute.make_layout(RADIX), byte_alignment=16)
        s_sel = smem.allocate_tensor(Int32, cute.make_layout(2 * P), byte_alignment=16)
        s_gt = smem.allocate_tensor(Int32, cute.make_layout(C), byte_alignment=16)
        s_eq = smem.allocate_tensor(Int32, cute.make_layout(C), byte_alignment=16)
        s_cnt = smem.allocate_tensor(Int32, cute.make_layout(2), byte_alignment=16)

        spec, seq_len, logits, row_base, g_row, g_idx, g_val = self.row_view(
            row, next_n, seq_lens, logits, ld, n, out_idx, out_val, k)

        nvec = Int32(0)
        chunk = Int32(0)
        start = Int32(0)
        avail = Int32(0)
        if const_expr(self.static_slices):
            # Slices of N: issue the 16-byte copies now, before seq_lens arrives.
            chunk = ((n + (C - 1)) // C + (VEC - 1)) // VEC * VEC
            start = rank * chunk
            avail = cutlass.max(cutlass.min(chunk, n - start), Int32(0))
            if const_expr(VEC > 1):
                nvec = avail // VEC
                self.copy_vectors(logits, row_base, start, nvec, s_data, tid)

        length = self.valid_length(seq_len, next_n, spec, compress_ratio, n)

        if length <= k:
            self.fill_short_row(g_idx, g_val, g_row, length, k, rank * T + tid, C * T)
            if const_expr(self.static_slices and VEC > 1):
                cute.arch.cp_async_wait_group(0)  # never exit with copies in flight
        else:
            # ---------------------------------------------------------- load slice
            for i in cutlass.range(tid, P * RADIX, T):
                s_hist[i] = Int32(0)
            if tid < C:
                s_gt[tid] = Int32(0)
            if tid < 2:
                s_cnt[tid] = Int32(0)
            cnt = Int32(0)
            if const_expr(self.static_slices):
                cnt = cutlass.max(cutlass.min(chunk, length - start), Int32(0))
            else:
                # Slices of L: balanced for short rows, but the copies wait for seq_lens.
                chunk = ((length + (C - 1)) // C + (VEC - 1)) // VEC * VEC
                start = rank * chunk
                cnt = cutlass.max(cutlass.min(chunk, length - start), Int32(0))
                avail = cnt
                if const_expr(VEC > 1):
                    nvec = cnt // VEC
                    self.copy_vectors(logits, row_base, start, nvec, s_data, tid)
            for i in cutlass.range(nvec * VEC + tid, avail, T):
                s_data[i] = self.raw(g_row[start + i])
            if const_expr(VEC > 1):
                cute.arch.cp_async_wait_group(0)
            cute.arch.sync_threads()

            # ---------------------------------------------------------- radix passes
            prefix = Uint32(0)
            mask = Uint32(0)
            need = k
            for p in cutlass.range_constexpr(P):
                shift = self.bits - 8 * (p + 1)
                hist_p = s_hist.iterator + p * RADIX
                if const_expr(self.aggregate):
                    self.histogram_warp(s_data, hist_p, cnt, prefix, mask, shift, warp, lane)
                else:
                    for i in cutlass.range(tid, cnt, T):
                        key = order_key(s_data[i], self.dtype_name)
                        if (key & mask) == prefix:
                            digit = Int32((key >> shift) & Uint32(RADIX - 1))
                            cute.arch.atomic_add(hist_p + digit, Int32(1))
                cute.arch.cluster_arrive()
                cute.arch.cluster_wait()
                if tid < RADIX:
                    counts = []
                    total = Int32(0)
                    low = Int32(0)  # counts of the CTAs ranked below this one
                    for c in cutlass.range_constexpr(C):
                        remote = cute.arch.map_dsmem_ptr(hist_p + tid, c)
                        v = Int32(llvm.load(mlir_t.i32(), remote.llvm_ptr))
                        total = total + v
                        if const_expr(self.prefix_offsets):
                            low = low + cutlass.select_(Int32(c) < rank, v, Int32(0))
                        else:
                            counts.append(v)
                    s_tot[tid] = total
                    cute.arch.barrier(barrier_id=1, number_of_threads=RADIX)
                    if warp == 0:
                        self.find_digit(s_tot, s_sel, p, need, lane)
                    cute.arch.barrier(barrier_id=1, number_of_threads=RADIX)
                    chosen = s_sel[2 * p]
                    above = tid > chosen
                    if const_expr(self.prefix_offsets):
                        part = cute.arch.warp_redux_sync(cutlass.select_(above, low, Int32(0)), "add")
                        if lane == 0:
                            if part > 0:
                                cute.arch.atomic_add(s_gt.iterator, part)
                        if const_expr(p == P - 1):
                            if tid == chosen:
                                s_eq[0] = low
                    else:
                        for c in cutlass.range_constexpr(C):
                            part = cute.arch.warp_redux_sync(cutlass.select_(above, counts[c], Int32(0)), "add")
                            if lane == 0:
                                if part > 0:
                                    cute.arch.atomic_add(s_gt.iterator + c, part)
                        if const_expr(p == P - 1):
                            if tid == chosen:
                                for c in cutlass.range_constexpr(C):
                                    s_eq[c] = counts[c]
                cute.arch.sync_threads()
                chosen_all = s_sel[2 * p]
                need = s_sel[2 * p + 1]
                prefix = prefix | (Uint32(chosen_all) << shift)
                mask = mask | (Uint32(RADIX - 1) << shift)
            # Our last remote read is done: let the others exit once they are done too.
            cute.arch.cluster_arrive()

            # ---------------------------------------------------------- write
            gt_off = Int32(0)
            eq_off = Int32(0)
            if const_expr(self.prefix_offsets):
                gt_off = s_gt[0]
                eq_off = s_eq[0]
            else:
                for c in cutlass.range_constexpr(C):
                    if c < rank:
                        gt_off = gt_off + s_gt[c]
                        eq_off = eq_off + s_eq[c]
            gt_total = k - need
            lane_lt = (Uint32(1) << Uint32(lane)) - Uint32(1)
            for base in cutlass.range(warp * 32, cnt, T):
                i = base + lane
                raw = self.raw(0)
                if i < cnt:
                    raw = s_data[i]
                key = order_key(raw, self.dtype_name)
                is_gt = Boolean(i < cnt) & (key > prefix)
                is_eq = Boolean(i < cnt) & (key == prefix)
                bal_gt = Uint32(cute.arch.vote_ballot_sync(is_gt))
                bal_eq = Uint32(cute.arch.vote_ballot_sync(is_eq))
                base_gt = Int32(0)
                base_eq = Int32(0)
                if lane == 0:
                    if bal_gt != Uint32(0):
                        base_gt = cute.arch.atomic_add(s_cnt.iterator, Int32(cute.arch.popc(bal_gt)))
                    if bal_eq != Uint32(0):
                        base_eq = cute.arch.atomic_add(s_cnt.iterator + 1, Int32(cute.arch.popc(bal_eq)))
                base_gt = cute.arch.shuffle_sync(base_gt, 0)
                base_eq = cute.arch.shuffle_sync(base_eq, 0)
                # The bounds below always hold when the counts are right; they keep a
                # broken invariant from ever writing outside the row's k slots.
                if is_gt:
                    slot = gt_off + base_gt + Int32(cute.arch.popc(bal_gt & lane_lt))
                    if slot < gt_total:
                        g_idx[slot] = start + i
                        if const_expr(self.return_values):
                            g_val[slot] = raw
                if is_eq:
                    q = eq_off + base_eq + Int32(cute.arch.popc(bal_eq & lane_lt))
                    if q < need:
                        if gt_total + q < k:
                            g_idx[gt_total + q] = start + i
                            if const_expr(self.return_values):
                                g_val[gt_total + q] = raw
            cute.arch.cluster_wait()

    @cute.jit
    def copy_vectors(self, logits: cute.Pointer, row_base: Int64, start: Int32, nvec: Int32,
                     s_data: cute.Tensor, tid: Int32):
        """Issue ``nvec`` 16-byte ``cp.async`` copies of the slice into shared memory."""
        VEC = self.vec
        atom = cute.make_copy_atom(cpasync.CopyG2SOp(), self.raw, num_bits_per_copy=128)
        s_vec = cute.make_tensor(s_data.iterator, cute.make_layout((VEC, self.capacity // VEC)))
        g_addr = (logits + (row_base + Int64(start))).toint()
        for j in cutlass.range(tid, nvec, self.threads):
            src = cute.make_ptr(self.raw, g_addr + Int64(j) * Int64(16),
                                cute.AddressSpace.gmem, assumed_align=16)
            g_v = cute.make_tensor(src, cute.make_layout(VEC))
            cute.copy(atom, g_v, s_vec[None, j])
        cute.arch.cp_async_commit_group()

    @cute.jit
    def histogram_warp(self, s_data: cute.Tensor, hist_p: cute.Pointer, cnt: Int32, prefix: Uint32,
                       mask: Uint32, shift: cutlass.Constexpr, warp: Int32, lane: Int32):
        """Histogram of the matching keys; lanes with the same digit share one atomic.

        Skewed first digits (the exponent byte of randn) would otherwise serialise up
        to 32 lanes on one shared-memory word.
        """
        lane_lt = (Uint32(1) << Uint32(lane)) - Uint32(1)
        for base in cutlass.range(warp * 32, cnt, self.threads):
            i = base + lane
            raw = self.raw(0)
            if i < cnt:
                raw = s_data[i]
            key = order_key(raw, self.dtype_name)
            hit = Boolean(i < cnt) & ((key & mask) == prefix)
            if cute.arch.vote_any_sync(hit):
                digit = cutlass.select_(hit, Int32((key >> shift) & Uint32(RADIX - 1)), Int32(-1))
                peers = Uint32(Int32(nvvm.match_sync(Int32(-1).ir_value(), digit.ir_value(),
                                                     nvvm.MatchSyncKind.any)))
                if hit:
                    if (peers & lane_lt) == Uint32(0):
                        cute.arch.atomic_add(hist_p + digit, Int32(cute.arch.popc(peers)))

    @cute.jit
    def find_digit(self, s_tot: cute.Tensor, s_sel: cute.Tensor, p: cutlass.Constexpr, need: Int32,
                   lane: Int32):
        """Warp 0: the digit holding the ``need``-th largest key, and what is left to take.

        Lane ``l`` owns bins ``255-8l .. 248-8l`` (top down); a warp scan of the lane
        sums finds the lane whose range straddles ``need``.
        """
        own = Int32(0)
        for j in cutlass.range_constexpr(8):
            own = own + s_tot[RADIX - 1 - lane * 8 - j]
        incl = warp_inclusive_sum(own, lane)
        acc = incl - own
        if acc < need:
            if need <= incl:
                for j in cutlass.range_constexpr(8):
                    b = RADIX - 1 - lane * 8 - j
                    c = s_tot[b]
                    if acc < need:
                        if need <= acc + c:
                            s_sel[2 * p] = b
                            s_sel[2 * p + 1] = need - acc
                    acc = acc + c
