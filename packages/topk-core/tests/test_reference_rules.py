"""Spec rules checked on the reference backend with hand-computed answers."""

import torch

from topk_core import top_k_varlen
from topk_core.keys import order_keys, valid_lengths


def test_valid_length_formula_matches_spec():
    seq = torch.tensor([10, 0, -4, 1000], dtype=torch.int32)
    got = valid_lengths(seq, rows=8, n=100, next_n=2, compress_ratio=4)
    # row r: request r//2, t = r%2: (s - 2 + t + 1) // 4 clamped to [0, 100]
    want = [max(0, min(100, (s - 2 + t + 1) // 4)) for s in seq.tolist() for t in range(2)]
    assert got.tolist() == want


def test_order_keys_are_monotone_with_nan_on_top():
    x = torch.tensor([float("-inf"), -3.0, -1e-42, -0.0, 0.0, 1e-42, 2.0, float("inf"), float("nan")])
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        k = order_keys(x.to(dtype))
        assert torch.all(k[1:] >= k[:-1]) and k[3] == k[4] and k[-1] > k[-2]
        assert order_keys(torch.tensor([float("nan")]).neg().to(dtype)) == k[-1]
        assert bool((k >= 0).all())


def test_short_rows_return_prefix_then_minus_one():
    logits = torch.randn(3, 10)
    idx, vals = top_k_varlen(logits, torch.tensor([4, 0, -7], dtype=torch.int32), 6, return_values=True)
    assert sorted(idx[0, :4].tolist()) == [0, 1, 2, 3] and idx[0, 4:].tolist() == [-1, -1]
    assert idx[1].tolist() == [-1] * 6 and idx[2].tolist() == [-1] * 6
    assert torch.isneginf(vals[1]).all() and torch.isneginf(vals[0, 4:]).all()


def test_real_minus_inf_is_selected_before_padding():
    logits = torch.tensor([[float("-inf"), 1.0, float("-inf"), 7.0]])
    idx, _ = top_k_varlen(logits, torch.tensor([3], dtype=torch.int32), 2)
    assert sorted(idx[0].tolist()) == [0, 1] or sorted(idx[0].tolist()) == [1, 2]


def test_k_above_n_pads():
    idx, _ = top_k_varlen(torch.randn(2, 3), torch.tensor([99, 2], dtype=torch.int32), 5)
    assert sorted(idx[0, :3].tolist()) == [0, 1, 2] and idx[0, 3:].tolist() == [-1, -1]
    assert idx[1, 2:].tolist() == [-1, -1, -1]


def test_empty_batch_and_zero_width():
    idx, vals = top_k_varlen(torch.randn(0, 5), torch.zeros(0, dtype=torch.int32), 3, return_values=True)
    assert idx.shape == (0, 3) and vals.shape == (0, 3)
    idx, vals = top_k_varlen(torch.randn(2, 0), torch.tensor([5, 0], dtype=torch.int32), 3, return_values=True)
    assert idx.tolist() == [[-1] * 3] * 2 and torch.isneginf(vals).all()
