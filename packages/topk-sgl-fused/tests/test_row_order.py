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


def _bands(lengths: torch.Tensor, n: int, bands: int) -> torch.Tensor:
    return (n - lengths.long()) * bands // (n + 1)


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
    taken = order[first:rows].long()
    assert torch.equal(taken.sort().values, torch.arange(first, rows)), "every row past the first wave once"
    band = _bands(lengths[taken], n, bands)
    assert (band[1:] >= band[:-1]).all(), ("longest first", band)
