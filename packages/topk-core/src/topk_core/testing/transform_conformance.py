"""Conformance for the SGLang functions: row_starts windows and fused transforms.

Transforms are checked by inverting them: the page table maps ``j`` to
``j + 100000 * req`` and offsets are random, so each output maps back to a local
index that ``check_topk`` then verifies; -1 padding must stay -1.
"""

from __future__ import annotations

import pytest
import torch

from .. import sgl
from ..reference import request_of_row
from .check import check_topk
from .inputs import make_logits

STRIDE = 100000


class TransformConformance:
    backend: str
    device: str = "cpu"
    transform_shapes = ((5, 300, 16), (4, 2000, 256))

    def _dev(self):
        if self.device == "cuda" and not torch.cuda.is_available():
            pytest.skip("needs a CUDA GPU")
        return torch.device(self.device)

    def _lengths(self, rows, n, seed, dev):
        g = torch.Generator().manual_seed(seed)
        lens = torch.randint(-3, n + 50, (rows,), generator=g)
        lens[0] = 0
        lens[-1] = n + 7
        starts = torch.randint(0, n // 2, (rows,), generator=g)
        return lens.to(torch.int32).to(dev), starts.to(torch.int32).to(dev)

    @pytest.mark.parametrize("with_starts", [False, True])
    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    def test_fast_topk_v2(self, with_starts, dtype):
        dev = self._dev()
        for rows, n, k in self.transform_shapes:
            score = make_logits("int_ties", rows, n, dtype, dev, seed=rows, k=k)
            lens, starts = self._lengths(rows, n, rows, dev)
            starts = starts if with_starts else None
            out = sgl.fast_topk_v2(score, lens, k, row_starts=starts, backend=self.backend)
            check_topk(score, lens, k, out, row_starts=starts)

    @pytest.mark.parametrize("with_starts", [False, True])
    def test_ragged_transform(self, with_starts):
        dev = self._dev()
        for rows, n, k in self.transform_shapes:
            score = make_logits("randn", rows, n, torch.float32, dev, seed=rows + 1, k=k)
            lens, starts = self._lengths(rows, n, rows + 1, dev)
            starts = starts if with_starts else None
            offsets = torch.randint(0, 10**6, (rows,), dtype=torch.int32).to(dev)
            out = sgl.fast_topk_transform_ragged_fused(score, lens, offsets, k, row_starts=starts,
                                                       backend=self.backend)
            local = torch.where(out >= 0, out - offsets[:, None], out)
            assert bool(((out == -1) | (out >= offsets[:, None])).all()), "padding was translated"
            check_topk(score, lens, k, local.to(torch.int32), row_starts=starts)

    @pytest.mark.parametrize("mode", ["per_row", "cu_seqlens", "cu_seqlens_with_starts"])
    def test_page_table_transform(self, mode):
        dev = self._dev()
        for rows, n, k in self.transform_shapes:
            score = make_logits("nan", rows, n, torch.float32, dev, seed=rows + 2, k=k)
            lens, starts = self._lengths(rows, n, rows + 2, dev)
            starts = starts if mode == "cu_seqlens_with_starts" else None
            if mode == "per_row":
                requests, cu = rows, None
            else:
                requests = 2
                cu = torch.tensor([0, rows // 2, rows], dtype=torch.int32, device=dev)
            table = (torch.arange(n + 3)[None, :] + STRIDE * torch.arange(requests)[:, None]).to(torch.int32).to(dev)
            out = sgl.fast_topk_transform_fused(score, lens, table, cu, k, row_starts=starts, backend=self.backend)
            req = request_of_row(cu, rows, dev)
            local = torch.where(out >= 0, out - STRIDE * req[:, None], out)
            check_topk(score, lens, k, local.to(torch.int32), row_starts=starts)

    def test_k_above_window(self):
        dev = self._dev()
        rows, n, k = 4, 256, 300
        score = make_logits("randn", rows, n, torch.float32, dev, seed=9)
        lens, starts = self._lengths(rows, n, 9, dev)
        out = sgl.fast_topk_v2(score, lens, k, row_starts=starts, backend=self.backend)
        check_topk(score, lens, k, out, row_starts=starts)
