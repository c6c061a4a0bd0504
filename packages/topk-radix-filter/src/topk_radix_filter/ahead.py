"""Rows ahead into L2 (``Variant.ahead``; session 53, an experiment): CTA ``p`` of a one-CTA-per-row launch of more
CTAs than fit at once prefetches row ``p + ahead`` into L2 (``prefetch.global.L2``, one 128-byte line a thread and
step) before it starts its own row. With ``ahead`` about a wave of CTAs, that row's CTA starts about one row's
residency later and finds the row in L2: its first read waits on L2 latency, not DRAM's. ``ahead_len``: only the
row's valid columns (its seq_lens entry read first), else all ``n``. A hint: no result depends on it, and every
address lies inside row ``p + ahead``.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Int64
from cutlass._mlir.dialects import llvm

from topk_core.kernels.cute_common import row_length

#: Bytes a prefetch brings in (an L2 line).
LINE = 128


@cute.jit
def prefetch_l2(addr: Int64):
    """``prefetch.global.L2`` of the line holding global address ``addr``."""
    llvm.inline_asm(None, [Int64(addr).ir_value()], "prefetch.global.L2 [$0];", "l,~{memory}",
                    has_side_effects=True, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT)


class RowsAhead:
    """``ahead``'s method of ``sampled.SampledFilter``."""

    @cute.jit
    def _prefetch_ahead(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, n: Int32, stride: Int32, next_n: Int32,
                        compress_ratio: Int32):
        tid, _, _ = cute.arch.thread_idx()
        p, _, _ = cute.arch.block_idx()
        rows, _, _ = cute.arch.grid_dim()
        row = Int32(p) + Int32(self.ahead)
        if row < Int32(rows):
            length = n
            if cutlass.const_expr(self.ahead_len):
                length = row_length(seq_ptr, row, n, next_n, compress_ratio, self.unitdiv)
            lines = Int32((Int64(length) * Int64(self.elem.width // 8) + Int64(LINE - 1)) // Int64(LINE))
            base = Int64((x_ptr + Int64(row) * Int64(stride)).toint())
            for line in cutlass.range(tid, lines, self.threads):
                prefetch_l2(base + Int64(line) * Int64(LINE))
