"""Longest rows first (``Variant.longest_first``; prepared in session 42, shipped in session 45 on SHORT_MANY_LF,
LIGHT and MANY_ROWS_F32: float32 rows of several waves).

A launch of more CTAs than fit at once ends in a partial last wave: a CTA that starts late on a long row keeps the
GPU waiting for it while the SMs around it run out of rows. ``RowOrder`` (one CTA, launched just before the row
kernel) writes rows ``first .. rows-1`` into ``order[first:rows]`` by falling length, counted into ``BANDS`` bands of
``n`` (rows of one band in no set order: each takes its slot by a shared-memory atomic). The row kernel's
``kernel_ordered`` (``OrderedRows``) gives CTA ``p < first`` (the first wave) row ``p``, so it never waits for the
sort, and CTA ``p >= first`` row ``order[p]``. With ``order_pdl`` the row kernel is launched as the order kernel's
programmatic dependent, so the sort runs beside the first wave and only the later CTAs wait for it
(``griddepcontrol.wait``). The order only moves work between CTAs: every row is still selected exactly once, by
the same code.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Int64
from cutlass.cute.runtime import make_ptr
from cutlass.memory import SmemAllocator

from topk_core.kernels.cute_common import row_length
from topk_core.kernels.cute_radix import warp_incl_sum_up

#: The ordered entry's arguments after the plain entry's: the order (an int32 pointer) and the first ordered CTA.
ORDERED_ARGS = ("i32*", "i32")
#: Length bands of the order (band 0: the longest n / BANDS columns); one warp scans them.
BANDS = 32
#: The order kernel's threads, and rows per thread per step (their seq_lens loads issued together: a DRAM latency
#: per step, not per row).
ORDER_THREADS = 1024
ORDER_BATCH = 4


class RowOrder:
    """The one-CTA order kernel: ``order[first:rows]`` = rows ``first..rows-1`` by band of falling length (two
    passes over their seq_lens: count the bands, then place each row; the second pass reads from L2)."""

    threads = ORDER_THREADS

    def __init__(self, unitdiv: bool = True, pdl: bool = True):
        self.unitdiv = unitdiv
        self.pdl = pdl  # its dependent (the row kernel) may start once this kernel has begun

    def __repr__(self):
        return f"RowOrder(unitdiv={self.unitdiv}, pdl={self.pdl})"

    @cute.jit
    def __call__(self, seq_ptr: cute.Pointer, order_ptr: cute.Pointer, rows: Int32, first: Int32, n: Int32,
                 next_n: Int32, compress_ratio: Int32, stream):
        self.kernel(seq_ptr, order_ptr, rows, first, n, next_n, compress_ratio).launch(
            grid=[1, 1, 1], block=[self.threads, 1, 1], stream=stream)

    @cute.jit
    def _bands(self, seq_ptr: cute.Pointer, base: Int32, rows: Int32, n: Int32, next_n: Int32,
               compress_ratio: Int32) -> list:
        """The bands of rows ``base + j * threads``, j < ORDER_BATCH (0: the longest ``n / BANDS`` columns); rows
        past the last read the last row's entry, their band unused."""
        lengths = []
        for j in cutlass.range_constexpr(ORDER_BATCH):  # every load issued before any is used
            row = cutlass.min(base + j * self.threads, rows - 1)
            lengths.append(row_length(seq_ptr, row, n, next_n, compress_ratio, self.unitdiv))
        bands = []
        for j in cutlass.range_constexpr(ORDER_BATCH):
            bands.append(Int32((Int64(n - lengths[j]) * Int64(BANDS)) // (Int64(n) + Int64(1))))
        return bands

    @cute.kernel
    def kernel(self, seq_ptr: cute.Pointer, order_ptr: cute.Pointer, rows: Int32, first: Int32, n: Int32,
               next_n: Int32, compress_ratio: Int32):
        if cutlass.const_expr(self.pdl):
            cute.arch.griddepcontrol_launch_dependents()  # the row kernel's first wave needs nothing from here
        tid, _, _ = cute.arch.thread_idx()
        smem = SmemAllocator()
        count = smem.allocate_tensor(Int32, cute.make_layout(BANDS), byte_alignment=16)
        slot = smem.allocate_tensor(Int32, cute.make_layout(BANDS), byte_alignment=16)
        order = cute.make_tensor(order_ptr, cute.make_layout(rows))
        if tid < BANDS:
            count[tid] = Int32(0)
        cute.arch.sync_threads()
        step = self.threads * ORDER_BATCH
        for base in cutlass.range(first + tid, rows, step):
            bands = self._bands(seq_ptr, base, rows, n, next_n, compress_ratio)
            for j in cutlass.range_constexpr(ORDER_BATCH):
                if base + j * self.threads < rows:
                    cute.arch.atomic_add((count.iterator + bands[j]).llvm_ptr, Int32(1))
        cute.arch.sync_threads()
        if tid < BANDS:  # warp 0: each band's first slot
            c = count[tid]
            slot[tid] = first + warp_incl_sum_up(c) - c
        cute.arch.sync_threads()
        for base in cutlass.range(first + tid, rows, step):
            bands = self._bands(seq_ptr, base, rows, n, next_n, compress_ratio)
            for j in cutlass.range_constexpr(ORDER_BATCH):
                r = base + j * self.threads
                if r < rows:
                    order[cute.arch.atomic_add((slot.iterator + bands[j]).llvm_ptr, Int32(1))] = r


class OrderedRows:
    """The row kernel's ordered entry (a mixin of ``sampled.SampledFilter``, one CTA per row): ``call_ordered``
    launches ``kernel_ordered``, whose CTA ``p`` takes row ``p`` below ``first`` and ``order[p]`` from there
    (``order_pdl``: after ``griddepcontrol.wait``, the order kernel being this launch's programmatic primary)."""

    @cute.jit
    def call_ordered(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer, val_ptr: cute.Pointer,
                     rows: Int32, n: Int32, stride: Int32, k: Int32, next_n: Int32, compress_ratio: Int32,
                     order_ptr: cute.Pointer, first: Int32, stream):
        """The plain entry's arguments, then ``ORDERED_ARGS`` (``cute_launch.compile_row_topk``'s ``extra``)."""
        self._launch_rows(self.kernel_ordered(x_ptr, seq_ptr, idx_ptr, val_ptr, order_ptr, first, n, stride, k,
                                              next_n, compress_ratio), rows, stream, self.order_pdl)

    @cute.kernel
    def kernel_ordered(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer,
                       val_ptr: cute.Pointer, order_ptr: cute.Pointer, first: Int32, n: Int32, stride: Int32,
                       k: Int32, next_n: Int32, compress_ratio: Int32):
        tid, _, _ = cute.arch.thread_idx()
        p, _, _ = cute.arch.block_idx()
        row = Int32(p)
        if p >= first:
            if cutlass.const_expr(self.order_pdl):
                cute.arch.griddepcontrol_wait()
            row = cute.make_tensor(order_ptr + p, cute.make_layout(1))[0]
        self._row_at((x_ptr, stride), row, tid, x_ptr, seq_ptr, idx_ptr, val_ptr, n, stride, k, next_n,
                     compress_ratio)


def compile_order(unitdiv: bool = True, pdl: bool = True):
    """``cute.compile`` the order kernel from placeholders (works on CPU with CUTE_DSL_ARCH set)."""
    import cuda.bindings.driver as cuda

    def ptr():
        return make_ptr(cutlass.Int32, 16, cute.AddressSpace.gmem, assumed_align=4)

    one = Int32(1)
    return cute.compile(RowOrder(unitdiv, pdl), ptr(), ptr(), one, one, one, one, one, cuda.CUstream(0))
