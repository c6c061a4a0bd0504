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
        for rows, n, k in ((3, 3000, 64), (3, 40000, 2048), (300, 3000, 64), (300, 40000, 512)):
            self.run_case(rows, n, k, kind="int_ties", seed=rows + n, lens_mode="mixed")
            self.run_case(rows, n, k, dtype="bfloat16", kind="randn", seed=rows + n + 1, lens_mode="uniform")
