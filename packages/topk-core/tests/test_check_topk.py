"""check_topk catches every kind of wrong answer (so passing it means something)."""

import pytest
import torch

from topk_core import top_k_varlen
from topk_core.testing import TopKMismatch, check_topk, make_logits, make_seq_lens


def solved(kind="randn", k=8, rows=6, n=50):
    logits = make_logits(kind, rows, n, seed=1, k=k)
    seq_lens = torch.tensor([0, 3, 8, 20, 50, 99], dtype=torch.int32)[:rows]
    idx, vals = top_k_varlen(logits, seq_lens, k, return_values=True)
    return logits, seq_lens, k, idx, vals


def test_correct_answer_passes():
    check_topk(*solved())


@pytest.mark.parametrize("mutation", ["swap_in_outside", "duplicate", "poison", "drop_to_minus_one",
                                      "pad_early", "worse_value", "value_bits", "shape"])
def test_each_mutation_is_caught(mutation):
    logits, seq_lens, k, idx, vals = solved()
    idx = idx.clone()
    vals = vals.clone()
    if mutation == "swap_in_outside":
        idx[3, 0] = 25  # row 3 has 20 valid columns
    elif mutation == "duplicate":
        idx[4, 1] = idx[4, 0]
    elif mutation == "poison":
        idx[5, 2] = -123456789
    elif mutation == "drop_to_minus_one":
        idx[4, 7] = -1
    elif mutation == "pad_early":
        idx[1, 0], idx[1, 3] = -1, idx[1, 0]
    elif mutation == "worse_value":
        row = logits[4, :50]
        chosen = set(idx[4].tolist())
        worst = int(torch.argmin(row))
        assert worst not in chosen
        idx[4, 0] = worst
    elif mutation == "value_bits":
        vals[4, 0] = torch.nextafter(vals[4, 0], torch.tensor(float("inf")))
    elif mutation == "shape":
        idx = idx[:, :-1]
    with pytest.raises(TopKMismatch):
        check_topk(logits, seq_lens, k if mutation != "shape" else k, idx, vals)


def test_ties_are_interchangeable():
    logits = torch.tensor([[1.0, 2.0, 2.0, 2.0, 0.0]])
    lens = torch.tensor([5], dtype=torch.int32)
    for pick in ([1, 2], [2, 3], [3, 1]):
        check_topk(logits, lens, 2, torch.tensor([pick], dtype=torch.int32))


def test_nan_ranks_above_inf_and_signed_zeros_tie():
    logits = torch.tensor([[float("inf"), float("nan"), -0.0, 0.0, -float("nan")]])
    lens = torch.tensor([5], dtype=torch.int32)
    check_topk(logits, lens, 3, torch.tensor([[1, 4, 0]], dtype=torch.int32))
    with pytest.raises(TopKMismatch):
        check_topk(logits, lens, 2, torch.tensor([[0, 1]], dtype=torch.int32))  # misses a NaN
    check_topk(torch.tensor([[-0.0, 0.0, -1.0]]), torch.tensor([3], dtype=torch.int32), 1,
               torch.tensor([[0]], dtype=torch.int32))


@pytest.mark.parametrize("dtype,bits", [(torch.bfloat16, torch.int16), (torch.float16, torch.int16),
                                        (torch.float32, torch.int32)])
def test_nan_payloads_kept_bit_for_bit(dtype, bits):
    """NaN values come back with their own sign and payload: the reference keeps them, and a NaN rewritten to
    another NaN (CPU gather of 16-bit floats does that) fails the check."""
    raw = {torch.int16: [0x7FC0, 0x7F81 if dtype == torch.bfloat16 else 0x7C01, -1, 0x3F80, 0],
           torch.int32: [0x7F800001, -4194304, 0x7FC00000, 5, 0]}[bits]
    logits = torch.tensor([raw], dtype=bits).view(dtype)
    lens = torch.tensor([5], dtype=torch.int32)
    idx, vals = top_k_varlen(logits, lens, 3, return_values=True, backend="reference")
    assert sorted(vals.view(bits)[0].tolist()) == sorted(raw[:3])
    check_topk(logits, lens, 3, idx, vals)
    vals = vals.clone()
    first = int(vals.view(bits)[0, 0])
    vals.view(bits)[0, 0] = -1 if first != -1 else (0x7FC0 if bits == torch.int16 else 0x7FC00000)  # another NaN
    assert torch.isnan(vals[0, 0])
    with pytest.raises(TopKMismatch, match="bit for bit"):
        check_topk(logits, lens, 3, idx, vals)


def test_generators_never_all_zero():
    from topk_core.testing import KINDS

    for kind in KINDS:
        for dtype in (torch.float32, torch.bfloat16, torch.float16):
            x = make_logits(kind, 3, 500, dtype, seed=2, k=16)
            assert bool((x != 0).any()), kind
    assert make_seq_lens(8, 100, mode="mixed").min() < 0
