"""Host logic of the split path: which shapes are cut, into how many chunks (static facts only)."""

import pytest

from topk_radix_cutlass.launch import SPLIT_MAX_CHUNKS, SPLIT_MAX_CTAS, split_plan


@pytest.mark.parametrize("rows, n, k", [
    (1, 8192, 2048), (1, 131072, 2048), (8, 131072, 2048), (32, 131072, 2048), (1, 1 << 20, 2048),
    (3, 5000, 64), (2, 40000, 7), (100, 131072, 512), (1, 100, 1),
])
def test_chunks_cover_the_row_and_stay_aligned(rows, n, k):
    chunks, width = split_plan(rows, n, k)
    assert 1 <= chunks <= SPLIT_MAX_CHUNKS
    assert chunks * width >= n
    if chunks > 1:
        assert rows * chunks <= SPLIT_MAX_CTAS
        assert width % 8 == 0  # 16-byte aligned chunk starts
        assert (chunks - 1) * width < n  # no chunk lies wholly past N
        assert chunks * chunks * k <= n  # stage 2 (chunks*k keys) is no wider than a chunk


@pytest.mark.parametrize("rows, n, k", [
    (128, 131072, 2048), (1, 32768, 2048), (1, 65535, 1), (1, 16383, 1), (4096, 8192, 2048), (1, 8191, 2048),
    (8, 131072, 131072), (0, 100, 1),
])
def test_no_split_where_it_cannot_pay(rows, n, k):
    assert split_plan(rows, n, k) == (1, n)


@pytest.mark.parametrize("rows, n, chunks", [(1, 131072, 8), (8, 131072, 8), (32, 131072, 4), (64, 131072, 2),
                                             (1, 1 << 20, 16), (1, 65536, 4)])
def test_measured_choices(rows, n, chunks):
    """The chunk counts that measured fastest on the H200 (NOTES.md), k=2048."""
    assert split_plan(rows, n, 2048)[0] == chunks


def test_load_balance_false_never_splits():
    assert split_plan(1, 1 << 20, 2048, load_balance=False) == (1, 1 << 20)
    assert split_plan(1, 1 << 20, 2048)[0] > 1
