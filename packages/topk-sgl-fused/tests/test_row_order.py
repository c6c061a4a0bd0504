"""``row_order.order_kernel`` (longest rows first, ``WarpConfig.longest_first``): each row past the first wave once,
by band of falling length.

Under TRITON_INTERPRET=1 on CPU, or compiled on a GPU. The warp path with the order is checked exact in
``test_warp.py::test_longest_first``.
"""

import pytest
import torch

from topk_core.keys import valid_lengths, window_lengths, window_starts
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device

pytestmark = TRITON_MARKS


def _check_order(order: torch.Tensor, lengths: torch.Tensor, first: int, n: int, bands: int) -> torch.Tensor:
    """Assert ``order[first:rows]`` holds every row past the first wave once, by band of falling length; returns the
    bands in that order."""
    rows = lengths.numel()
    taken = order[first:rows].cpu().long()
    assert torch.equal(taken.sort().values, torch.arange(first, rows)), "every row past the first wave once"
    band = (n - lengths.cpu()[taken].long()) * bands // (n + 1)
    assert (band[1:] >= band[:-1]).all(), ("longest first", band)
    return band


@pytest.mark.parametrize("rows, first, next_n, ratio, starts, chunk, bands", [
    (300, 0, 1, 1, False, 64, 8),  # several chunks, the last one partial
    (300, 37, 2, 1, False, 64, 16),  # a first wave in index order; speculative rows share a request's length
    (129, 5, 1, 4, True, 32, 8),  # compressed rows clamped to windows
    (40, 39, 1, 1, False, 64, 8),  # one row to order
    (17, 0, 1, 1, False, 64, 32),  # fewer rows than a chunk, more bands than rows
])
def test_order_kernel(rows, first, next_n, ratio, starts, chunk, bands):
    from topk_sgl_fused import row_order

    dev = triton_device()
    n = 5000
    g = torch.Generator().manual_seed(rows + first)
    # lengths across the whole range, empty and negative requests, past n, and runs of equal ones
    seq_lens = torch.randint(-50, ratio * n + 3000, (rows // next_n,), generator=g, dtype=torch.int32)
    seq_lens[::7] = seq_lens[0]
    row_starts = torch.randint(-10, n + 10, (rows,), generator=g, dtype=torch.int32)
    lengths = valid_lengths(seq_lens, rows, n, next_n, compress_ratio=ratio)
    if starts:
        lengths = window_lengths(lengths, window_starts(row_starts, rows, n, "cpu"), n)
    order = torch.full((rows + bands,), -7, dtype=torch.int32)
    seq_d, starts_d, order_d = seq_lens.to(dev), row_starts.to(dev), order.to(dev)
    row_order.order_kernel[(1,)](seq_d, next_n, ratio, starts_d, n, rows, first, order_d, HAS_STARTS=starts,
                                 CHUNK=chunk, BUCKETS=bands, PDL=False, num_warps=chunk // 32)
    order = order_d.cpu()
    assert (order[:first] == -7).all(), "the first wave's slots are the row kernel's own rows: never written"
    _check_order(order, lengths, first, n, bands)


@pytest.mark.parametrize("first_wave, balance, ordered", [
    (1, True, True),  # rows past the first wave: ordered
    (1, False, False),  # load_balance=False: every program takes its own row
    (3, True, False),  # no row past the first wave (3 rows per SM)
])
def test_launch_order(first_wave, balance, ordered):
    """``launch_order`` launches the order kernel only where it has rows to order and the call asks for balance."""
    from topk_core.testing import poisoned_call
    from topk_sgl_fused import launch, row_order
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    rows = 3 * launch.sm_count(torch.device(dev))
    x = torch.randn(rows, 300, device=dev)
    # Rising lengths across every row (the last past 300, clamped), so the rows past the first wave span several
    # bands at any SM count (a step of 20 put them all at 300 on a 132-SM GPU).
    seq = (torch.arange(rows, dtype=torch.int32, device=dev) * 320) // rows
    call = poisoned_call(x, seq, 8, load_balance=balance)
    config = WarpConfig(1, 1, 64, 64, 64, longest_first=True, first_wave=first_wave)
    order, first, code = row_order.launch_order(call, config, seq)
    if not ordered:
        assert (order, first, code) == (None, 1, 0)
        return
    assert code in (1, 2) and first == first_wave * launch.sm_count(torch.device(dev))
    band = _check_order(order, seq.clamp(max=300), first, 300, row_order.ORDER_BANDS)  # .cpu() waits for the kernel
    assert band[0] < band[-1], ("more than one band", band)
