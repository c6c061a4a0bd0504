"""The bracket guessed from the sample's moments (``bisect_select._bracket_guess``, session 22).

Under TRITON_INTERPRET=1 on CPU, or compiled on a GPU. The guess only ever changes speed, so the tests check
what its acceptance promises and that a rejected guess leaves the bisection's bounds:

| case                                   | checks                                                        |
|----------------------------------------|---------------------------------------------------------------|
| bell-shaped and skewed rows            | accepted; the sample counts the check promises hold on the host |
| constant, tied, inf / NaN, huge rows   | rejected (or, if accepted, the same promises); GUESS=True then |
|                                        | gives exactly the bisection's bounds                          |
| warp and two-launch paths with guess   | exact through ``launch`` on every kit kind, with the fallback |
"""

import pytest
import torch
import triton
import triton.language as tl

from topk_core.kernels.triton_common import order_key
from topk_core.keys import order_keys
from topk_core.testing import check_topk, make_logits, poisoned_call
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device
from topk_sgl_fused.bisect_select import _bracket_bisect, _bracket_guess, _sample, _sample_ranks

pytestmark = [*TRITON_MARKS, pytest.mark.filterwarnings("ignore:Conversion of an array with ndim:DeprecationWarning")]

SAMPLE = 512


@triton.jit
def _guess_probe(x_ptr, stride, lens_ptr, k_ptr, out_ptr, KEY_BITS: tl.constexpr, SAMPLE: tl.constexpr):
    b = tl.program_id(0)
    row = x_ptr + b.to(tl.int64) * stride
    L = tl.load(lens_ptr + b)
    k = tl.load(k_ptr + b)
    xs = _sample(row, L, SAMPLE)
    r_lo, r_hi = _sample_ranks(L, k, SAMPLE)
    ok, g_lo, g_hi = _bracket_guess(xs, order_key(xs), tl.load(row).to(tl.float32), r_lo, r_hi, SAMPLE, 2.5)
    b_lo, b_hi = _bracket_bisect(row, L, k, KEY_BITS, SAMPLE)
    u_lo, u_hi = _bracket_bisect(row, L, k, KEY_BITS, SAMPLE, 1, 16, 2.5)
    o = out_ptr + b * 9
    tl.store(o, ok.to(tl.int64))
    tl.store(o + 1, g_lo.to(tl.int64))
    tl.store(o + 2, g_hi.to(tl.int64))
    tl.store(o + 3, b_lo.to(tl.int64))
    tl.store(o + 4, b_hi.to(tl.int64))
    tl.store(o + 5, u_lo.to(tl.int64))
    tl.store(o + 6, u_hi.to(tl.int64))
    tl.store(o + 7, r_lo.to(tl.int64))
    tl.store(o + 8, r_hi.to(tl.int64))


def _probe(x, lens, ks):
    out = torch.full((x.shape[0], 9), -1, dtype=torch.int64, device=x.device)
    _guess_probe[(x.shape[0],)](x, x.stride(0), lens, ks, out, KEY_BITS=8 * x.element_size(), SAMPLE=SAMPLE,
                                num_warps=2)
    return out.cpu()


def _sample_keys(x, L):
    pos = ((torch.arange(SAMPLE, dtype=torch.float32) + 0.5) * (L / SAMPLE)).to(torch.int32).clamp(0, L - 1)
    return order_keys(x.cpu()[pos.long()]).to(torch.int64) & ((1 << 8 * x.element_size()) - 1)


def _check_rows(x, lens, out):
    """Every row: GUESS=True gives the guess when accepted, else the bisection's bounds; an accepted guess keeps
    the check's promises, recounted here on the host."""
    for b in range(x.shape[0]):
        ok, g_lo, g_hi, b_lo, b_hi, u_lo, u_hi, r_lo, r_hi = out[b].tolist()
        assert (u_lo, u_hi) == ((g_lo, g_hi) if ok else (b_lo, b_hi)), (b, out[b])
        if ok:
            key = _sample_keys(x[b], int(lens[b]))
            c_lo, c_hi = int((key >= g_lo).sum()), int((key > g_hi).sum())
            top = (1 << 8 * x.element_size()) - 1
            assert c_lo >= r_lo and c_lo - c_hi <= 2 * (r_lo - r_hi), (b, c_lo, c_hi, out[b])
            assert c_hi < r_hi or (r_hi < 1 and g_hi == b_hi == top and c_hi == 0), (b, c_hi, out[b])
            assert g_lo <= g_hi


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_bell_shaped_and_skewed_rows_are_guessed(dtype):
    """Rows the model fits: randn (also offset and scaled, so that squares of raw values would cancel), sums of
    ReLU'd products (skewed, like an indexer's scores) and gamma(4): the guess is accepted."""
    dev = triton_device()
    rows, n = 6, 6000
    g = torch.Generator().manual_seed(7)
    x = torch.randn(rows, n, generator=g)
    x[1] = x[1] * 0.5 + (2e3 if dtype == torch.float32 else 8.0)  # bfloat16 keeps 8 bits: 2e3 would be constant
    x[2] = torch.relu(torch.randn(n, 64, generator=g)) @ torch.rand(64, generator=g)
    x[3] = torch.distributions.Gamma(4.0, 1.0).sample((n,))
    x = x.to(dtype).to(dev)
    lens = torch.tensor([6000, 5000, 6000, 5500, 3001, 6000], dtype=torch.int32, device=dev)
    ks = torch.tensor([600, 400, 900, 600, 300, 1500], dtype=torch.int32, device=dev)
    out = _probe(x, lens, ks)
    assert out[:, 0].tolist() == [1] * rows, out
    _check_rows(x, lens, out)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_small_k_is_guessed(dtype):
    """k so small a share of the row that the bracket has no sure keys (``r_hi < 1``; 1x128K k=512 with 4096 sampled
    keys): the guess takes the top key for ``hi``, as the bisection does, checks ``lo`` alone and is accepted
    (session 31: it was always rejected, so those rows paid for the guess and the bisection)."""
    dev = triton_device()
    rows, n = 4, 6000
    g = torch.Generator().manual_seed(9)
    x = torch.randn(rows, n, generator=g)
    x[1] = torch.relu(torch.randn(n, 64, generator=g)) @ torch.rand(64, generator=g)
    x = x.to(dtype).to(dev)
    lens = torch.tensor([6000, 6000, 5000, 6000], dtype=torch.int32, device=dev)
    ks = torch.tensor([120, 100, 50, 1], dtype=torch.int32, device=dev)
    out = _probe(x, lens, ks)
    assert (out[:, 8] < 1).all() and out[:, 0].tolist() == [1] * rows, out
    _check_rows(x, lens, out)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_rows_the_model_misses_keep_the_bisection(dtype):
    """A constant row, integer ties, +-inf and NaN in the sample, values whose squares overflow, a step (two
    levels), a row too short for ranks on both sides: whatever the check decides, GUESS=True returns either
    a guess keeping its promises or exactly the bisection's bounds; the constant and overflowing rows are
    rejected."""
    dev = triton_device()
    rows, n = 7, 4000
    x = torch.randn(rows, n, generator=torch.Generator().manual_seed(8))
    x[0] = 0.25
    x[1] = make_logits("int_ties", 1, n, torch.float32, "cpu", seed=3, k=500)[0]
    x[2, ::7] = float("inf")
    x[2, 3::11] = float("-inf")
    x[3, ::5] = float("nan")
    x[4] = x[4] * 1e30  # squares overflow float32
    x[5, : n // 2] = -1.0
    x[5, n // 2:] = 1.0
    x = x.to(dtype).to(dev)
    lens = torch.tensor([4000, 4000, 3500, 4000, 4000, 4000, 600], dtype=torch.int32, device=dev)
    ks = torch.tensor([500, 500, 400, 700, 500, 500, 590], dtype=torch.int32, device=dev)
    out = _probe(x, lens, ks)
    assert out[0, 0] == 0 and out[4, 0] == 0, out
    _check_rows(x, lens, out)


@pytest.mark.parametrize("kind", ["randn", "int_ties", "plateau", "nan", "sorted"])
def test_paths_with_the_guess_are_exact(kind):
    """Through ``launch`` with ``guess`` on: the warp path (one with a tiny cap, so the fallback runs after a
    guessed bracket; one with the pivot loaded beside the sample, ``early_pivot``) and the two-launch path; values, rows
    shorter than k, every kit kind."""
    from topk_sgl_fused import launch
    from topk_sgl_fused.launch import SplitConfig, WarpConfig

    dev = triton_device()
    k = 300
    lens = torch.tensor([3000, 301, 300, 2500, 1999], dtype=torch.int32, device=dev)
    x = make_logits(kind, 5, 3000, torch.float32, dev, seed=12, k=k)
    configs = [WarpConfig(2, 1, 512, 64, 64, guess=2.5), WarpConfig(1, 1, 256, 64, 64, guess=2.5, cap=8),
               WarpConfig(2, 1, 512, 64, 64, guess=2.5, early_pivot=True),
               SplitConfig(chunk=1024, warps=1, sample=512, select_warps=1, cblock=64, block=64, cap=1024,
                           bisect=True, sbits=0, guess=2.5)]
    for config in configs:
        call = poisoned_call(x, lens, k)
        launch.launch(call, config=config)
        check_topk(x, lens, k, call.indices, call.values)
