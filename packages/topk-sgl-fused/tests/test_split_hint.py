"""The two-launch path with its bracket from a hint (``launch_split(call, config, hint)``, ``split._hint_bracket``:
what ``topk-gvr`` runs). A hint changes the filter's bracket only; these check that the filter used it (an exact hint
lists exactly the top k as candidates) and that every hint, good or bad, gives the exact answer.

Under TRITON_INTERPRET=1 on CPU, or compiled on a GPU (then these run in the GPU suite too).
"""

from dataclasses import replace

import pytest
import torch

from topk_core.keys import order_keys, valid_lengths
from topk_core.protocol import Call
from topk_core.testing import check_topk, poison_like
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device

pytestmark = TRITON_MARKS


def _shape():
    """(rows, n, k): interpreter-sized on CPU, a decode-like row on a GPU."""
    return (3, 300, 32) if triton_device().type == "cpu" else (4, 131072, 2048)


def _top_cols(logits, lengths, k):
    """Each row's exact top-k columns inside its valid length (by order key), -1 past it."""
    keys = order_keys(logits).to(torch.int64)
    cols = torch.arange(logits.shape[1], device=logits.device)
    keys = torch.where(cols[None, :] < lengths[:, None], keys, -1)
    top = torch.topk(keys, k, dim=1).indices.to(torch.int32)
    return torch.where(torch.arange(k, device=logits.device)[None, :] < lengths[:, None], top, -1)


def _call(logits, seq_lens, k, next_n=1, workspace=None):
    rows = logits.shape[0]
    idx = poison_like(torch.empty(rows, k, dtype=torch.int32, device=logits.device))
    vals = poison_like(torch.empty(rows, k, dtype=logits.dtype, device=logits.device))
    return Call(logits=logits, seq_lens=seq_lens, top_k=k, indices=idx, values=vals, next_n=next_n,
                workspace=workspace)


def _check(call):
    check_topk(call.logits, call.seq_lens, call.top_k, call.indices, call.values, next_n=call.next_n)


def _fast_config(rows, n, k):
    """The pick, with a candidate cap that holds every candidate of a good hint (the interpreter's pick has 512)."""
    from topk_sgl_fused import launch

    config = launch.pick_split(rows, n, k, launch.sm_count(triton_device()))
    return replace(config, cap=max(config.cap, 4 * k + config.block))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_exact_hint_lists_the_top_k(dtype):
    """With the row's own top k as the hint, ``lo`` is the k-th key: the filter lists exactly those k columns as
    candidates (distinct values, so no ties at ``lo``) and none as sure; ``hi`` is the top key."""
    from topk_sgl_fused import launch

    rows, n, k = _shape() if dtype == torch.float32 else (3, 300, 32)  # bf16 holds 300 distinct integers, not 128K
    dev = triton_device()
    g = torch.Generator().manual_seed(1)
    logits = torch.stack([torch.randperm(n, generator=g) - n // 2 for _ in range(rows)]).to(dtype).to(dev)
    seq_lens = torch.full((rows,), n, dtype=torch.int32, device=dev)
    lengths = valid_lengths(seq_lens, rows, n)
    top = _top_cols(logits, lengths, k)
    config = _fast_config(rows, n, k)
    work = {}
    call = _call(logits, seq_lens, k, workspace=work)
    launch.launch_split(call, config, hint=top.contiguous())
    _check(call)
    ctr = work[launch.OWNER + ".split.counters"].view(torch.int32).reshape(-1)
    lists = work[launch.OWNER + ".split.lists"].view(torch.int32).reshape(-1)
    keys = order_keys(logits).to(torch.int64)
    for b in range(rows):
        words = ctr[b * 8: b * 8 + 8].cpu()
        assert words[0] == 0 and words[1] == 0  # the select reset the counts
        kth = keys[b].gather(0, top[b].long()).min().item()
        assert words[2].item() & 0xFFFFFFFF == kth
        assert words[3].item() & 0xFFFFFFFF == (0xFFFFFFFF if dtype == torch.float32 else 0xFFFF)
        base = b * (k + 2 * config.cap)
        cand_cols = lists[base + k + config.cap: base + k + config.cap + k].cpu()
        assert set(cand_cols.tolist()) == set(top[b].tolist())


def _hints(kind, logits, lengths, k, requests, next_n, g):
    """A hint of ``kind`` for each request (row ``i * next_n``'s columns)."""
    n = logits.shape[1]
    if kind == "random":
        return torch.randint(-1, n + 5, (requests, k), generator=g, dtype=torch.int32).to(logits.device)
    if kind == "empty":
        return torch.full((requests, k), -1, dtype=torch.int32, device=logits.device)
    first = slice(0, requests * next_n, next_n)
    if kind == "previous":  # the previous step's top k: a little noise on the scores
        noise = torch.randn(logits.shape, generator=g).to(logits.device) * 0.05
        prev = torch.where(torch.isfinite(logits), logits.float() + noise, logits.float())
        hint = _top_cols(prev[first], lengths[first], k)
        hint[:, 1] = -1
        hint[:, 2] = n + 3  # out of range
        hint[:, 3] = hint[:, 4]  # a duplicate
        return hint.contiguous()
    return _top_cols(logits[first], lengths[first], k).contiguous()  # "exact"


@pytest.mark.parametrize("kind", ["exact", "previous", "random", "empty"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize("next_n", [1, 2])
def test_every_hint_is_exact(kind, dtype, next_n):
    """Any hint gives the exact answer: good ones through the lists, bad ones (random, empty, duplicates, -1, out
    of range) through the select's check and the exact path. Rows of mixed lengths (some at or below k), NaN,
    +-inf and a plateau at the threshold; both the interpreter's pick and one whose cap holds the candidates."""
    from topk_sgl_fused import launch

    rows, n, k = _shape()
    rows *= next_n
    dev = triton_device()
    g = torch.Generator().manual_seed(7 + next_n)
    logits = torch.randn(rows, n, generator=g)
    logits[0, 5] = float("nan")
    logits[0, 9] = float("inf")
    logits[-1, 11] = float("-inf")
    logits[1 % rows, : n // 2] = torch.randn(1, generator=g).round()  # a plateau across the threshold
    logits = logits.to(dtype).to(dev)
    requests = rows // next_n
    seq_lens = torch.randint(k // 2, n + 10, (requests,), generator=g, dtype=torch.int32).to(dev)
    seq_lens[0] = n
    lengths = valid_lengths(seq_lens, rows, n, next_n=next_n)
    hint = _hints(kind, logits, lengths, k, requests, next_n, g)
    for config in (None, _fast_config(rows, n, k)):
        call = _call(logits, seq_lens, k, next_n=next_n)
        launch.launch_split(call, config, hint=hint)
        _check(call)
