"""radix_cutlass passes the whole conformance kit on the GPU, for every dtype and option.

Test matrix (from the kit): dtypes fp32/bf16/fp16 x kinds (randn, ties, plateaus, +-inf,
NaN, ...), k in {1, 7, 300}, next_n 1..4 x compress_ratio {1, 4}, k = N/2, N, 1.5N,
out buffers (2-D/1-D, with and without values), 1M-column rows, CUDA-graph replay with
lengths 0/negative/>N, two streams at once.
"""

import pytest

from topk_core.testing import BackendConformance, Claims, GpuConformance

pytestmark = [pytest.mark.gpu]


class TestRadixCutlass(BackendConformance, GpuConformance):
    backend = "radix_cutlass"
    device = "cuda"
    claims = Claims()  # every dtype, every k, next_n, compress_ratio, return_values

    def test_every_block_plan(self):
        """Each (threads, first-digit) plan the launcher picks, on mixed lengths and ties."""
        for rows, n, k in ((3, 3000, 64), (3, 40000, 2048), (300, 3000, 64), (300, 40000, 512), (1, 200000, 2048),
                           (5, 65536, 1000), (2, 1 << 20, 7)):
            self.run_case(rows, n, k, kind="int_ties", seed=rows + n, lens_mode="mixed")
            self.run_case(rows, n, k, dtype="bfloat16", kind="randn", seed=rows + n + 1, lens_mode="uniform")


class TestRadixCutlassSplitOnSmallRows(TestRadixCutlass):
    """The same suite with chunks down to 64 columns, so that most cases take the split path."""

    @pytest.fixture(autouse=True)
    def _narrow_chunks(self, monkeypatch):
        from topk_radix_cutlass import launch

        monkeypatch.setattr(launch, "SPLIT_MIN_WIDTH", 64)
        monkeypatch.setattr(launch, "SPLIT_MIN_N", 256)


class TestRadixCutlassOneCtaPerRow(TestRadixCutlass):
    """The same suite with load_balance=False: never the split path, always one CTA per row."""

    load_balance = False


def test_split_path_chunks_tie_plateaus_across_chunk_borders():
    """A 0.0 plateau straddling the k-th value, spread over every chunk, through the split path."""
    import torch

    from topk_core import top_k_varlen
    from topk_core.testing import check_topk
    from topk_radix_cutlass.launch import split_plan

    rows, n, k = 2, 131072, 2048
    assert split_plan(rows, n, k)[0] > 1
    g = torch.Generator().manual_seed(5)
    logits = torch.relu(torch.randn(rows, n, generator=g) - 2.5).cuda()  # ~99% zeros: ties cut at k
    lens = torch.tensor([n, n - 12345], dtype=torch.int32, device="cuda")
    idx, vals = top_k_varlen(logits, lens, k, return_values=True, backend="radix_cutlass")
    check_topk(logits, lens, k, idx, vals)
