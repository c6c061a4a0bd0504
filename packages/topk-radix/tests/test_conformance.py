"""The topk-core conformance suite, on the GPU, plus the edges this backend claims.

Test matrix (beyond the suite): k=1 and k=N, a 1M-column 16-bit row, the
issue's decode shapes, unaligned row strides (the scalar-copy path).
"""

import pytest
import torch

from topk_core import top_k_varlen
from topk_core.testing import BackendConformance, Claims, GpuConformance, check_topk, make_logits, make_seq_lens
from topk_radix import checks

pytestmark = [pytest.mark.gpu]


class TestRadix(BackendConformance, GpuConformance):
    backend = "radix"
    device = "cuda"
    claims = Claims(max_n=checks.max_n("float32"))


def _case(rows, n, k, dtype=torch.float32, kind="randn", mode="uniform", next_n=1, logits=None):
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    if logits is None:
        logits = make_logits(kind, rows, n, dtype, "cuda", seed=rows * 7 + k, k=k)
    lens = make_seq_lens(rows // next_n, logits.shape[1], next_n=next_n, seed=k, mode=mode, device="cuda")
    idx, vals = top_k_varlen(logits, lens, k, next_n=next_n, return_values=True, backend="radix")
    check_topk(logits, lens, k, idx, vals, next_n=next_n)


@pytest.mark.parametrize("k", [1, 2, 4095, 4096])
def test_k_edges(k):
    _case(3, 4096, k, kind="int_ties", mode="full")
    _case(3, 4096, k, kind="plateau", mode="mixed")


@pytest.mark.parametrize("rows,n", [(1, 8192), (1, 32768), (1, 131072), (8, 32768), (8, 131072),
                                    (32, 131072), (1, 262144)])
def test_decode_grid(rows, n):
    _case(rows, n, 2048)


def test_next_n_2_long():
    _case(8, 131072, 2048, next_n=2)


@pytest.mark.slow
def test_million_columns_16bit():
    _case(1, 1 << 20, 2048, dtype=torch.bfloat16)
    _case(2, 1 << 20, 2048, dtype=torch.float16, kind="int_ties", mode="full")


def test_max_fp32_row():
    _case(1, checks.max_n("float32"), 2048, kind="int_ties")


def test_strided_seq_lens():
    """seq_lens may be any 1-D int32 view; launch makes it contiguous."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    logits = make_logits("randn", 4, 20000, torch.float32, "cuda", seed=4)
    lens = make_seq_lens(8, 20000, seed=4, mode="mixed", device="cuda")[::2]
    idx, vals = top_k_varlen(logits, lens, 512, return_values=True, backend="radix")
    check_topk(logits, lens, 512, idx, vals)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_unaligned_stride(dtype):
    """Row stride not a multiple of the 16-byte vector: the scalar-copy variant."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    base = make_logits("randn", 5, 3001, dtype, "cuda", seed=3)
    _case(5, 3000, 300, logits=base[:, 1:])
    _case(5, 3000, 300, logits=base[:, :3000])
