"""The Triton transform pass that ``topk_core.sgl`` composes after a plain selection: the same slots as the
reference's torch transform (under TRITON_INTERPRET=1 on CPU, compiled on a GPU)."""

from __future__ import annotations

import pytest
import torch

from topk_core.kernels.transform_pass import BLOCK, REQ_BLOCK, apply_transform_pass
from topk_core.protocol import Call
from topk_core.reference import apply_transform
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device

pytestmark = TRITON_MARKS


def _local(rows, k, width, gen, device):
    """Columns in [0, width) with -1 padding at random slots and on whole rows."""
    local = torch.randint(0, width, (rows, k), generator=gen, dtype=torch.int32)
    local[torch.rand((rows, k), generator=gen) < 0.2] = -1
    if rows > 2:
        local[1] = -1
    return local.to(device)


def _expected(local, transform, **tensors):
    call = Call(logits=None, seq_lens=None, top_k=local.shape[1], indices=None, transform=transform, **tensors)
    return apply_transform(call, local.to(torch.int64)).to(torch.int32)


@pytest.mark.parametrize("rows,k", [(1, 1), (3, 7), (5, BLOCK), (4, BLOCK + 37), (2, 2 * BLOCK + 1)])
@pytest.mark.parametrize("requests", ["per_row", "cu", "cu_many"])
def test_page_table(rows, k, requests):
    device = triton_device()
    gen = torch.Generator().manual_seed(rows * 1000 + k)
    width = 3 * k + 5
    local = _local(rows, k, width, gen, device)
    cu = None
    num_req = rows
    if requests == "cu":  # an empty request, rows past the last request, and one before the first
        cu = torch.tensor([1, 1, 2] + [rows - 1] * (rows > 2), dtype=torch.int32)
        num_req = cu.numel() - 1
    elif requests == "cu_many":  # more requests than one lookup step counts: rows fall in late ones
        num_req = REQ_BLOCK + 40
        cu = torch.cat([torch.zeros(REQ_BLOCK + 1 - rows, dtype=torch.int32),
                        torch.arange(rows, dtype=torch.int32), torch.full((40,), rows, dtype=torch.int32)])
        cu = cu[:num_req + 1]
    # a table wider than the row, with a padded row stride, entries that tell row and column apart
    full = torch.randint(0, 1 << 30, (num_req, width + 9), generator=gen, dtype=torch.int32)
    table = full[:, :width + 3].to(device)
    cu = None if cu is None else cu.to(device)
    out = torch.full_like(local, -7)
    apply_transform_pass(local, out, "page_table", page_table=table, cu_seqlens_q=cu)
    want = _expected(local, "page_table", page_table=table, cu_seqlens_q=cu)
    assert torch.equal(out.cpu(), want.cpu())


@pytest.mark.parametrize("rows,k", [(1, 3), (6, BLOCK + 1)])
def test_ragged(rows, k):
    device = triton_device()
    gen = torch.Generator().manual_seed(k)
    local = _local(rows, k, 1 << 20, gen, device)
    offsets = torch.randint(-(1 << 20), 1 << 20, (rows,), generator=gen, dtype=torch.int32)
    offsets[0] = (1 << 31) - 5  # wraps in int32, as the reference's copy into int32 does
    offsets = offsets.to(device)
    out = torch.full_like(local, -7)
    apply_transform_pass(local, out, "ragged", index_offsets=offsets)
    want = _expected(local, "ragged", index_offsets=offsets)
    assert torch.equal(out.cpu(), want.cpu())


def test_empty_shapes_launch_nothing():
    device = triton_device()
    for rows, k in [(0, 4), (3, 0)]:
        local = torch.empty((rows, k), dtype=torch.int32, device=device)
        apply_transform_pass(local, local.clone(), "ragged", index_offsets=torch.zeros(rows, dtype=torch.int32))
