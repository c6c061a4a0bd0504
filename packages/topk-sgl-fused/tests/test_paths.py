"""Kernel paths the conformance shapes may not reach, forced through ``launch`` options.

Under TRITON_INTERPRET=1 on CPU (or compiled on a GPU). Each case compares against the
exact answer with ``check_topk`` (transforms inverted first).

| case                         | forces                                              |
|------------------------------|-----------------------------------------------------|
| two-pass, tiny cap           | candidates overflow: deeper digits re-read the row  |
| stream, minimum cap          | a compaction nearly every chunk (sorted rows worst) |
| scan appends (both paths)    | block-scan slots instead of atomic counters         |
| fast path (both fallbacks)   | sampled bracket; tiny caps force its fallback       |
| stream, sample misses        | the sampled threshold keeps < k: second read        |
| plateau / all-equal rows     | tie class spanning the whole row, take-first-rem    |
| k = 1, k = L, k = L - 1      | boundaries of the long path                         |
| row_starts out of [0, N]     | window clamping, never out of bounds                |
| cu_seqlens_q with empty reqs | req(b) by counting                                  |
"""


import pytest
import torch

from topk_core.reference import apply_transform, select_local
from topk_core.testing import (
    PAGE_STRIDE,
    check_topk,
    clamped_windows,
    make_logits,
    paged_requests,
    poisoned_call,
    ragged_decode_rows,
)
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device

pytestmark = TRITON_MARKS


def _run(logits, seq_lens, k, *, config=None, cap=None, values=True, **fields):
    from topk_sgl_fused import launch

    call = poisoned_call(logits, seq_lens, k, values=values, **fields)
    launch.launch(call, config=config, cap=cap)
    return call, call.indices, call.values


def _configs():
    from topk_sgl_fused.launch import Config

    return [Config(64, 2, 1, False), Config(64, 2, 2, True), Config(64, 2, 1, True, atomic=False),
            Config(64, 2, 1, False, atomic=False),
            Config(128, 1, 1, False, fast=True, sample=64, cblock=32), Config(64, 2, 2, True, fast=True, sample=16,
                                                                              cblock=64)]


@pytest.mark.parametrize("kind", ["randn", "sorted", "reversed", "int_ties", "plateau", "nan"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_small_caps(kind, dtype):
    dev = triton_device()
    rows, n, k = 4, 400, 24
    x = make_logits(kind, rows, n, dtype, dev, seed=3, k=k)
    lens = torch.tensor([400, 25, 24, 333], dtype=torch.int32, device=dev)
    two_pass, stream, scan, two_pass_scan, fast, fast_stream = _configs()
    for config, cap in ((two_pass, 8), (two_pass, 40), (stream, k + stream.block), (stream, 2 * k + stream.block),
                        (scan, k + scan.block), (two_pass_scan, 40), (fast, 8), (fast, 300),
                        (fast_stream, k + fast_stream.block), (fast_stream, 400)):
        _, idx, vals = _run(x, lens, k, config=config, cap=cap)
        check_topk(x, lens, k, idx, vals)


@pytest.mark.parametrize("k", [1, 2, 299, 300, 301])
def test_k_boundaries(k):
    dev = triton_device()
    x = make_logits("int_ties", 3, 300, torch.float32, dev, seed=k)
    lens = torch.tensor([300, 300, 299], dtype=torch.int32, device=dev)
    for config in _configs():
        cap = max(k + config.block, 64) if config.stream else 64
        _, idx, vals = _run(x, lens, k, config=config, cap=cap)
        check_topk(x, lens, k, idx, vals)


def test_all_equal_rows():
    dev = triton_device()
    x = torch.full((3, 500), -0.0, device=dev)
    x[1] = 0.0
    x[2, ::2] = float("nan")
    lens = torch.tensor([500, 499, 480], dtype=torch.int32, device=dev)
    for config in _configs():
        _, idx, vals = _run(x, lens, 37, config=config, cap=37 + config.block if config.stream else 16)
        check_topk(x, lens, 37, idx, vals)


def test_row_starts_clamped():
    k = 30
    x, starts, lens = clamped_windows(triton_device())
    for config in _configs():
        _, idx, vals = _run(x, lens, k, config=config, row_starts=starts)
        check_topk(x, lens, k, idx, vals, row_starts=starts)


@pytest.mark.parametrize("values", [False, True])
def test_page_table_with_empty_requests(values):
    """Values, when asked for, are gathered from the local columns before the page table rewrites the slots."""
    k = 20
    x, lens, cu, table, req = paged_requests(triton_device())  # requests 0, 2, 3 are empty
    for config in _configs():
        call, idx, vals = _run(x, lens, k, config=config, transform="page_table", page_table=table,
                               cu_seqlens_q=cu, values=values)
        ref = apply_transform(call, select_local(call))
        assert torch.equal(torch.sort(idx.long(), 1).values, torch.sort(ref, 1).values) or \
            _same_up_to_ties(x, lens, k, idx, req)
        if values:
            _same_up_to_ties(x, lens, k, idx, req, vals)


def _same_up_to_ties(x, lens, k, idx, req, vals=None):
    local = torch.where(idx >= 0, idx - PAGE_STRIDE * req[:, None].to(idx.dtype), idx)
    check_topk(x, lens, k, local.to(torch.int32), vals)
    return True


def test_next_n_compress_with_ragged():
    x, lens, offsets, next_n, cr, k = ragged_decode_rows(triton_device())
    for config in _configs():
        _, idx, vals = _run(x, lens, k, config=config, transform="ragged", index_offsets=offsets, next_n=next_n,
                            compress_ratio=cr)
        local = torch.where(idx >= 0, idx - offsets[:, None], idx)
        check_topk(x, lens, k, local.to(torch.int32), vals, next_n=next_n, compress_ratio=cr)


def test_stream_sample_misses():
    """The first chunk holds a few huge values: the sampled threshold keeps fewer than k,
    so the stream path must read the row again from threshold 0."""
    dev = triton_device()
    rows, n, k = 2, 1000, 20
    x = make_logits("randn", rows, n, torch.float32, dev, seed=12)
    x[:, :10] = 1e30
    lens = torch.tensor([1000, 900], dtype=torch.int32, device=dev)
    for stream in _configs()[1:3] + _configs()[5:]:
        _, idx, vals = _run(x, lens, k, config=stream, cap=k + stream.block)
        check_topk(x, lens, k, idx, vals)
        assert bool((idx[:, :k] >= 0).all())


def test_zero_width():
    dev = triton_device()
    x = torch.empty(3, 0, device=dev)
    lens = torch.tensor([0, 5, -1], dtype=torch.int32, device=dev)
    _, idx, vals = _run(x, lens, 4)
    check_topk(x, lens, 4, idx, vals)


@pytest.mark.minutes(0.6)  # CI runs it (not slow-marked): the 1M path is only here on CPU
def test_million_columns():
    """1M-column rows through the GPU launch shapes (stream with its sampled threshold, and
    two-pass), k = 2048; under the interpreter too (large chunks keep it to seconds)."""
    from topk_sgl_fused.launch import Config

    dev = triton_device()
    n, k = 1 << 20, 2048
    x = make_logits("randn", 2, n, torch.float32, dev, seed=13)
    lens = torch.tensor([n, 700001], dtype=torch.int32, device=dev)
    for config in (Config(4096, 16, 1, True), Config(4096, 16, 1, False)):
        _, idx, vals = _run(x, lens, k, config=config)
        check_topk(x, lens, k, idx, vals)
