"""Longest rows first (``WarpConfig.longest_first``): which row each program of a many-wave launch takes.

A launch of more programs than fit at once ends in a partial last wave, and a program that starts late on a long row
keeps the GPU waiting for it. ``order_kernel`` (one program, launched just before the row kernel) writes the rows
from ``first`` on in order of falling length, counted into ``BUCKETS`` bands of ``n``; program ``p >= first``
of the row kernel takes row ``order[p]`` (``ordered_row``), the first wave (``p < first``) takes row ``p`` and never
waits for the sort. With ``PDL`` the row kernel is launched as the order kernel's programmatic dependent, so the sort
runs beside the first wave; only the programs that read ``order`` wait for it (``griddepcontrol.wait``).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait

from topk_core import workspace as ws
from topk_core.kernels.triton_common import valid_length, window_length
from topk_core.protocol import Call

#: The order kernel's rows per step (a row per thread) and length bands.
ORDER_CHUNK = 512
ORDER_BANDS = 32


@triton.jit
def _bands(seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, n, rows, b, HAS_STARTS: tl.constexpr,
           BUCKETS: tl.constexpr):
    """Band of rows ``b`` by length (0: the longest ``n / BUCKETS``; ``BUCKETS``: past the last row)."""
    inside = b < rows
    seq_len = tl.load(seq_lens_ptr + b // next_n, mask=inside, other=0)
    length = valid_length(seq_len, b % next_n, next_n, compress_ratio, n)
    if HAS_STARTS:
        length, _ = window_length(length, tl.load(row_starts_ptr + b, mask=inside, other=0), n)
    band = ((n - length).to(tl.int64) * BUCKETS // (n + 1)).to(tl.int32)
    return tl.where(inside, band, BUCKETS)


@triton.jit(do_not_specialize=["next_n", "compress_ratio", "n", "rows", "first"])
def order_kernel(seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, n, rows, first, order_ptr,
                 HAS_STARTS: tl.constexpr, CHUNK: tl.constexpr, BUCKETS: tl.constexpr, PDL: tl.constexpr):
    """``order[first:rows]``: rows ``first..rows-1`` by falling length, by band (``_bands``); the rows of one band in
    no set order (each takes its position by an atomic on the band's counter, ``order[rows + band]``)."""
    if PDL:
        gdc_launch_dependents()  # the row kernel's first wave needs nothing from here
    count = tl.zeros([BUCKETS], tl.int32)
    for c in range(first, rows, CHUNK):
        b = c + tl.arange(0, CHUNK)
        band = _bands(seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, n, rows, b, HAS_STARTS, BUCKETS)
        count += tl.histogram(band, BUCKETS, mask=b < rows)
    counter = order_ptr + rows
    tl.store(counter + tl.arange(0, BUCKETS), tl.cumsum(count, axis=0) - count + first)  # each band's first position
    tl.debug_barrier()
    for c in range(first, rows, CHUNK):
        b = c + tl.arange(0, CHUNK)
        band = _bands(seq_lens_ptr, next_n, compress_ratio, row_starts_ptr, n, rows, b, HAS_STARTS, BUCKETS)
        pos = tl.atomic_add(counter + band, 1, mask=b < rows, sem="relaxed")
        tl.store(order_ptr + pos, b, mask=b < rows)


@triton.jit
def ordered_row(order_ptr, first, ORDER: tl.constexpr):
    """The row of this program: its own index, or with ``ORDER`` (1: the order is written, 2: it is being written
    by the programmatic primary) ``order[p]`` for programs ``p >= first``."""
    p = tl.program_id(0)
    if ORDER != 0:
        if p >= first:
            if ORDER == 2:
                gdc_wait()
            p = tl.load(order_ptr + p)
    return p


def launch_order(call: Call, config, starts) -> tuple:
    """``(order, first, ORDER)`` for ``warp_kernel`` (``config``: its ``WarpConfig``; ``starts``: the row_starts
    operand): with ``longest_first``, the call's ``load_balance`` and more rows than the first wave, the order kernel
    launched (its output in scratch) and ORDER 1 (2 with ``order_pdl``: the row kernel is then launched as its
    programmatic dependent); else ``(None, 1, 0)``, which leaves both out of the kernel's runtime arguments."""
    from . import launch

    logits = call.logits
    rows, n = logits.shape
    first = min(rows, config.first_wave * launch.sm_count(logits.device))
    if not (config.longest_first and call.load_balance) or first >= rows:
        return None, 1, 0
    pdl = config.order_pdl and not launch.interpreting()
    nbytes = 4 * (rows + ORDER_BANDS)  # the order, then the bands' counters
    order = ws.scratch(launch.OWNER + ".order", logits.device, nbytes, call.workspace)[:nbytes].view(torch.int32)
    const = dict(HAS_STARTS=call.row_starts is not None, CHUNK=ORDER_CHUNK, BUCKETS=ORDER_BANDS, PDL=pdl)
    opts = launch._options(ORDER_CHUNK // 32, None)
    args = (call.seq_lens, call.next_n, call.compress_ratio, starts, n, rows, first, order)
    launch._run_cached(launch._cache_key(("order",), logits.dtype, const, opts, logits.device), order_kernel[(1,)],
                       args, {**const, **opts})
    return order, first, 2 if pdl else 1
