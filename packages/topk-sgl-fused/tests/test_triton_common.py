"""``topk_core.kernels.triton_common`` (owned with this package) against its torch twins.

Interpreter run: the helpers execute exactly on CPU; the sm_90 compile of every kernel
variant (test_compile_sm90.py) covers them on the compiler side.
"""

import os

import pytest
import torch
import triton
import triton.language as tl

from topk_core.kernels.triton_common import order_key, select_bin, valid_length, window_length
from topk_core.keys import order_keys, valid_lengths

pytestmark = [
    pytest.mark.interpreter,
    pytest.mark.skipif(os.environ.get("TRITON_INTERPRET", "") in ("", "0"), reason="needs TRITON_INTERPRET=1"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


@triton.jit
def _keys(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    j = tl.arange(0, BLOCK)
    tl.store(o_ptr + j, order_key(tl.load(x_ptr + j, mask=j < n)).to(tl.int64), mask=j < n)


@triton.jit
def _lengths(s_ptr, o_ptr, rows, next_n, cr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    s = tl.load(s_ptr + r // next_n, mask=r < rows, other=0)
    tl.store(o_ptr + r, valid_length(s, r % next_n, next_n, cr, n), mask=r < rows)


@triton.jit
def _windows(l_ptr, s_ptr, o_ptr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    length, start = window_length(tl.load(l_ptr + r), tl.load(s_ptr + r), n)
    tl.store(o_ptr + r, length)
    tl.store(o_ptr + BLOCK + r, start)


@triton.jit
def _bins(h_ptr, rem, o_ptr, NB: tl.constexpr):
    b, above, count = select_bin(tl.load(h_ptr + tl.arange(0, NB)), rem, NB)
    tl.store(o_ptr, b)
    tl.store(o_ptr + 1, above)
    tl.store(o_ptr + 2, count)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_order_key_matches_torch(dtype):
    x = torch.randn(1000).to(dtype)
    x[:6] = torch.tensor([float("nan"), -float("nan"), float("inf"), -float("inf"), -0.0, 0.0]).to(dtype)
    x[6:9] = torch.tensor([torch.finfo(dtype).max, -torch.finfo(dtype).max, torch.finfo(dtype).tiny]).to(dtype)
    out = torch.empty(1000, dtype=torch.int64)
    _keys[(1,)](x, out, 1000, BLOCK=1024)
    assert torch.equal(out, order_keys(x))
    assert bool((out > 0).all())  # key 0 (OUTSIDE_KEY) is never a real value's


def test_valid_length_matches_torch():
    # -2**31 (+1): the numerator seq_len - next_n + 1 wraps in int32 arithmetic unless the kernel guards it
    s = torch.tensor([0, -5, 1, 3, 100, 10**6, 2**31 - 1, 17, -2**31, -2**31 + 1], dtype=torch.int32)
    for next_n, cr in ((1, 1), (2, 4), (3, 1), (4, 4)):
        rows = 10 * next_n
        out = torch.empty(rows, dtype=torch.int32)
        _lengths[(1,)](s, out, rows, next_n, cr, 50, BLOCK=64)
        assert torch.equal(out.long(), valid_lengths(s, rows, 50, next_n, cr))


def test_window_length():
    length = torch.tensor([5, 100, -3, 7, 0, 50, 50, 1], dtype=torch.int32)
    start = torch.tensor([0, 10, 5, -4, 60, 45, 100, 49], dtype=torch.int32)
    out = torch.empty(16, dtype=torch.int32)
    _windows[(1,)](length, start, out, 50, BLOCK=8)
    want_start = start.clamp(0, 50)
    want_len = torch.minimum(length.clamp(min=0), 50 - want_start)
    assert torch.equal(out[8:], want_start) and torch.equal(out[:8], want_len)


def test_select_bin():
    hist = torch.tensor([3, 0, 5, 0, 2, 7, 0, 1], dtype=torch.int32)
    for rem in range(1, int(hist.sum()) + 1):
        out = torch.empty(3, dtype=torch.int32)
        _bins[(1,)](hist, rem, out, NB=8)
        b, above, count = out.tolist()
        assert above < rem <= above + count and hist[b] == count and hist[b + 1:].sum() == above
