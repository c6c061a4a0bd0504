"""Across packages: a strided 1-D index vector (``lens[::2]``: validation accepts any 1-D int32 view) gives every
usable backend the same selection as its contiguous copy. The kernels read these vectors from their base pointer,
so this fails unless topk-core hands them unit-stride copies. On a CPU machine only the reference backend runs."""

import pytest
import torch

import topk_core
from topk_core import sgl
from topk_core.testing import check_topk, make_logits, make_seq_lens

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def _strided(values: torch.Tensor) -> torch.Tensor:
    """``values`` as every second element of a buffer whose other elements are poison."""
    buf = torch.full((2 * len(values),), -7777, dtype=torch.int32, device=values.device)
    buf[::2] = values
    view = buf[::2]
    assert not view.is_contiguous()
    return view


@pytest.mark.parametrize("n", [3000, 40000])
def test_strided_seq_lens_every_backend(n):
    rows, k = 6, 256
    logits = make_logits("randn", rows, n, torch.float32, DEVICE, seed=n, k=k)
    lens = _strided(make_seq_lens(rows, n, seed=n, mode="mixed", device=DEVICE))
    ran = []
    for name in topk_core.available_backends():
        verdict = topk_core.auto.judge(name, topk_core.api.make_problem(logits, k))
        if not verdict.usable:
            continue
        idx, vals = topk_core.top_k_varlen(logits, lens, k, return_values=True, backend=name)
        check_topk(logits, lens.contiguous(), k, idx, vals)
        ran.append(name)
    assert "reference" in ran
    if DEVICE == "cuda":
        assert len(ran) > 1, ran


def _same_rows(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Equal as a set per row: the kernels' slot order is not fixed between calls."""
    return torch.equal(a.sort(dim=1).values, b.sort(dim=1).values)


@pytest.mark.parametrize("n", [3000, 40000])
def test_strided_sgl_vectors_every_backend(n):
    rows, k = 6, 256
    logits = make_logits("randn", rows, n, torch.float32, DEVICE, seed=n + 1, k=k)
    starts_c = torch.arange(rows, dtype=torch.int32, device=DEVICE) * 37 % 101
    lens_c = make_seq_lens(rows, n - 101, seed=n + 1, mode="mixed", device=DEVICE)
    offsets_c = torch.arange(rows, dtype=torch.int32, device=DEVICE) * 100000
    table = torch.randperm(2 * n, device=DEVICE).to(torch.int32)[:n].repeat(3, 1) + torch.arange(
        3, dtype=torch.int32, device=DEVICE)[:, None] * (2 * n)
    cu_c = torch.tensor([0, 2, 4, rows], dtype=torch.int32, device=DEVICE)
    lens, starts, offsets, cu = (_strided(t) for t in (lens_c, starts_c, offsets_c, cu_c))
    want = sgl.fast_topk_v2(logits, lens_c, k, starts_c, backend="reference")
    ran = []
    for name in ["reference", *[b for b in topk_core.available_backends() if b != "reference"]]:
        try:
            local = sgl.fast_topk_v2(logits, lens, k, starts, backend=name)
        except topk_core.errors.BackendNotSupportedError:
            continue
        # same selection as the contiguous call, up to ties: compare the selected scores row by row
        for b in range(rows):
            got_s = logits[b, (local[b][local[b] >= 0] + starts_c[b]).long()].sort().values
            want_s = logits[b, (want[b][want[b] >= 0] + starts_c[b]).long()].sort().values
            assert torch.equal(got_s, want_s), (name, b)
        ragged = sgl.fast_topk_transform_ragged_fused(logits, lens, offsets, k, starts, backend=name)
        assert _same_rows(ragged, torch.where(local >= 0, local + offsets_c[:, None], local)), name
        page = sgl.fast_topk_transform_fused(logits, lens, table, cu, k, starts, backend=name)
        req = torch.searchsorted(cu_c[1:], torch.arange(rows, device=DEVICE, dtype=torch.int32), right=True)
        mapped = table[req[:, None], local.clamp(min=0).long()]
        assert _same_rows(page, torch.where(local >= 0, mapped, local)), name
        ran.append(name)
    assert "reference" in ran
    if DEVICE == "cuda":
        assert "sgl_fused" in ran, ran
