"""The two-launch path (``split.py``): its float32 bracket test, both of its ways to finish a
row, and rows whose threshold lies among denormals and signed zeros.

Under TRITON_INTERPRET=1 on CPU, or compiled on a GPU (then these run in the GPU suite too).
"""

import itertools
import random
from dataclasses import replace

import pytest
import torch
import triton
import triton.language as tl

from topk_core.kernels.triton_common import order_key
from topk_core.protocol import Call
from topk_core.testing import check_topk, poison_like
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device
from topk_sgl_fused.split import _classify, _fp32_bounds

pytestmark = TRITON_MARKS


def _run(logits, seq_lens, k, config=None, transform="none", with_values=True):
    from topk_sgl_fused import launch

    rows, n = logits.shape
    dev = logits.device
    idx = poison_like(torch.empty(rows, k, dtype=torch.int32, device=dev))
    vals = poison_like(torch.empty(rows, k, dtype=logits.dtype, device=dev)) if with_values else None
    page = offsets = None
    if transform == "page_table":
        page = torch.stack([torch.randperm(n, device=dev) for _ in range(rows)]).to(torch.int32)
    if transform == "ragged":
        offsets = torch.randint(0, 1000, (rows,), dtype=torch.int32, device=dev)
    call = Call(logits=logits, seq_lens=seq_lens, top_k=k, indices=idx, values=vals, next_n=1, compress_ratio=1,
                transform=transform, page_table=page, index_offsets=offsets)
    if isinstance(config, str):  # the pick, with its select by bisection / interpolation / its filter's tile early
        config = replace(launch.pick_split(rows, n, k, launch.sm_count(dev)), **FORCED[config])
    launch.launch_split(call, config)
    local = idx.long()
    if transform == "page_table":
        inverse = torch.argsort(page.long(), dim=1)
        local = torch.where(idx < 0, -1, torch.gather(inverse, 1, local.clamp(min=0)))
    if transform == "ragged":
        local = torch.where(idx < 0, -1, local - offsets[:, None])
    check_topk(logits, seq_lens, k, local.to(torch.int32))
    if vals is None:
        return
    got = torch.gather(logits, 1, local.clamp(min=0))
    want = torch.where(local >= 0, got, torch.full_like(got, float("-inf")))
    torch.testing.assert_close(vals, want, rtol=0, atol=0, equal_nan=True)


FORCED = {"bisect": {"bisect": True}, "secant": {"bisect": True, "sbits": 0}, "early": {"early": True},
          "hist": {"bracket_bits": 0}}


def _configs():
    """The interpreter's pick (its tiny cap sends most rows to the exact fallback) and one
    whose cap holds the bracket's candidates (the fast path), with either candidate select, and the filter's first
    tile loaded before its bracket (chunks of one tile and of two; the second with the filter's bracket by two
    histograms, ``bracket_bits=0``, not by bisection); last, the select by interpolation."""
    from topk_sgl_fused.launch import SplitConfig, interpreting

    if not interpreting():
        return [None, "bisect", "early", "hist", "secant"]
    fast = SplitConfig(chunk=512, warps=1, r=1, sample=256, select_warps=1, cblock=64, block=64, cap=4096)
    return [None, fast, replace(fast, bisect=True), replace(fast, early=True),
            replace(fast, chunk=1024, early=True, bracket_bits=0), replace(fast, bisect=True, sbits=0)]


@triton.jit
def _probe(x_ptr, lo, hi, out_ptr, N: tl.constexpr, MASKED: tl.constexpr):
    """1 where the float compares and the keys classify a value differently (every NaN is sure), or where a
    candidate's NaN-free ``order_key`` is not its ``order_key``."""
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    lo_u = tl.full([], lo, tl.int64).to(tl.uint32)
    hi_u = tl.full([], hi, tl.int64).to(tl.uint32)
    f_lo, f_hi = _fp32_bounds(lo_u, hi_u)
    sure, cand = _classify(x, i, N, lo_u, hi_u, f_lo, f_hi, MASKED)
    key = order_key(x)
    nan = x != x
    want_sure = (key > hi_u) | nan
    want_cand = (key >= lo_u) & (key <= hi_u) & ~nan
    bad = (sure != want_sure.to(tl.int32)) | (cand != want_cand.to(tl.int32))
    bad = bad | ((cand != 0) & (order_key(x, NAN_FREE=True) != key))
    tl.store(out_ptr + i, bad.to(tl.int32))


def test_fp32_bounds_agree_with_keys():
    """For every pair of bracket keys ``_bracket`` can return (hi at or above key(-inf)), the
    float compares classify special and ordinary values exactly as their keys do (but NaN: always sure, also
    where ``hi`` is the top key), and the candidates' keys are their ``order_key``."""
    dev = triton_device()
    special = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-45, -1e-45, 1e-40, -1e-40, 3e38, -3e38]
    x = torch.cat([torch.randn(100), torch.tensor(special)])
    bits = torch.tensor([0x7FC00001, -0x00400001, 0x7F800001], dtype=torch.int32)  # NaNs of both signs
    x = torch.cat([x, bits.view(torch.float32), torch.zeros(128 - len(x) - 3)]).to(dev)
    rng = random.Random(0)
    keys = [0, 1, 0x007FFFFF, 0x00800000, 0x7FFEFFFF, 0x7FFF0000, 0x7FFFFFFF, 0x80000000, 0x8000FFFF,
            0xBF800000, 0xFF7FFFFF, 0xFF800000, 0xFF80FFFF, 0xFFFFFFFE, 0xFFFFFFFF]
    keys += [rng.randrange(0x00800000, 1 << 32) for _ in range(10)]
    out = torch.zeros(128, dtype=torch.int32, device=dev)
    for lo, hi in itertools.product(keys, keys):
        if lo <= hi and hi >= 0x007FFFFF:
            for masked in (False, True):
                _probe[(1,)](x, lo, hi, out, N=128, MASKED=masked)
                bad = out.bool()
                assert not bad.any(), f"lo={lo:#x} hi={hi:#x} masked={masked}: {x[bad][:4].tolist()}"


#: CI's pairs: each dtype once and each transform once, float32 with the page table (every config, the most
#: involved slot writes), the 16-bit dtypes with the first two configs; the other six pairs are slow (``nox -s
#: interpreter`` runs all nine). A transform changes only the slot writes, which every config shares.
_CI_PAIRS = {("float32", "page_table"), ("bfloat16", "ragged"), ("float16", "none")}


def _pairs():
    slow = pytest.mark.slow(minutes=1)

    def marks(d, t):  # float32 runs every config (~150 s in the interpreter), 16-bit two
        if (d, t) not in _CI_PAIRS:
            return slow
        return pytest.mark.minutes(2.5 if d == "float32" else 0.9)

    return [pytest.param(d, t, marks=marks(str(d)[6:], t), id=f"{str(d)[6:]}-{t}")
            for d in (torch.float32, torch.bfloat16, torch.float16) for t in ("none", "page_table", "ragged")]


@pytest.mark.parametrize("dtype, transform", _pairs())
def test_split_exact(dtype, transform):
    """Every config on float32 with each transform and on each dtype without one; a 16-bit row through a transform
    takes the first two (the fallback and the fast path: a transform changes only the slot writes, shared by all)."""
    torch.manual_seed(3)
    dev = triton_device()
    configs = _configs()
    for config in configs if dtype == torch.float32 or transform == "none" else configs[:2]:
        for rows, n, k in ((3, 3000, 100), (2, 2000, 1500), (2, 5000, 7)):
            x = torch.randn(rows, n).to(dtype).to(dev)
            x[0, ::97] = float("nan")
            x[-1, ::89] = float("-inf")
            seq = torch.randint(n // 2, n + 1, (rows,), dtype=torch.int32, device=dev)
            _run(x, seq, k, config, transform)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_split_few_long_rows(transform, dtype):
    """The pick for rows of 32K+ columns (the select by interpolation, early filter tile; 16-bit rows since session
    31), GPU sizes only."""
    from topk_sgl_fused import launch

    if launch.interpreting():
        pytest.skip("GPU sizes")
    if dtype == "float16" and transform != "ragged":
        pytest.skip("16-bit rows: bfloat16 with each transform, float16 with one")
    dev = triton_device()
    torch.manual_seed(5)
    for rows, n, k in ((1, 32768, 2048), (4, 40000, 2048), (8, 131072, 1000), (3, 70001, 4096), (12, 50000, 2048),
                       (32, 32768, 2048), (16, 65536, 512)):  # the last two: 16-warp filters (session 25)
        config = launch.pick_split(rows, n, k, launch.sm_count(dev))
        assert config.bisect and config.early and config.sbits == 0 and config.sample_run == launch.SPLIT_SAMPLE_RUN
        assert config.sample_vec == launch.SPLIT_SAMPLE_VEC
        x = torch.randn(rows, n, device=dev)
        x[0, ::101] = float("nan")
        if rows >= 3:  # NaNs (all sure keys, session 21) just fewer than k, then more than k (the exact path)
            x[1, :: -(-n // (k - 100))] = float("nan")
            x[2, ::2] = float("nan")
        x[-1, : n // 3] = 0.5  # a plateau around the threshold
        seq = torch.randint(n // 2, n + 1, (rows,), dtype=torch.int32, device=dev)
        _run(x.to(getattr(torch, dtype)), seq, k, None, transform)


@pytest.mark.parametrize("transform", ["none", "page_table"])
def test_split_sample_runs(transform):
    """The filter's bracket sample in runs of adjacent columns (``sample_run``, session 26; loaded as vectors or
    not, ``sample_vec``, session 27): runs that overlap on a
    short row, a run far above the rest, NaN and -inf, with the guessed bracket and by bisection alone, and every
    filter program of a row finding the same bracket (several chunks per row)."""
    from topk_sgl_fused.launch import SplitConfig, interpreting, pick_split, sm_count

    torch.manual_seed(7)
    dev = triton_device()
    if interpreting():
        base = SplitConfig(chunk=512, warps=1, r=1, sample=256, select_warps=1, cblock=64, block=64, cap=4096)
        shapes = ((3, 3000, 100), (2, 1500, 200))
    else:
        base = None
        shapes = ((3, 40000, 2048), (8, 131072, 2048))
    for rows, n, k in shapes:
        x = torch.randn(rows, n).to(dev)
        x[0, ::97] = float("nan")
        x[-1, ::89] = float("-inf")
        x[1, 256:264] = 1e9  # one sampled run far above the rest
        seq = torch.randint(n // 2, n + 1, (rows,), dtype=torch.int32, device=dev)
        seq[0] = min(n, max(k + 100, 300))  # about as short as the sample: its runs overlap
        config = base or pick_split(rows, n, k, sm_count(dev))
        for cfg in (replace(config, sample_run=8, sample_vec=False), replace(config, sample_run=32, guess=0.0),
                    replace(config, sample_run=8, sample_vec=True), replace(config, sample_run=4, sample_vec=True)):
            _run(x, seq, k, cfg, transform)


def test_split_sample_run_rejected():
    """A run that does not divide the filter's sample is refused before any launch (the warp path's check)."""
    from topk_sgl_fused.launch import SplitConfig

    dev = triton_device()
    x = torch.randn(2, 3000).to(dev)
    seq = torch.tensor([3000, 2000], dtype=torch.int32, device=dev)
    bad = SplitConfig(chunk=512, warps=1, r=1, sample=256, select_warps=1, cblock=64, block=64, cap=4096, sample_run=3)
    with pytest.raises(ValueError, match="sample_run"):
        _run(x, seq, 100, bad)


@pytest.mark.minutes(0.6)
@pytest.mark.parametrize("with_values", [False, True])
def test_split_page_block(with_values):
    """The select's page-table pass in blocks of ``page_kb`` slots (``late_block``: all k at once up to 16 per
    thread; here also a block smaller than k, so a masked tail), with the values gathered first or not at all;
    with the sure columns copied in blocks of the same size (``sure_kb``) or of ``block``. NaNs, -inf and a
    plateau at the threshold."""
    from topk_sgl_fused import launch

    dev = triton_device()
    torch.manual_seed(8)
    if launch.interpreting():
        base = _fast_config()
        shapes = ((3, 3000, 100), (2, 2000, 600))
    else:
        base = None
        shapes = ((8, 32768, 2048), (3, 70001, 600), (2, 131072, 4096))
    for rows, n, k in shapes:
        config = base or launch.pick_split(rows, n, k, launch.sm_count(dev))
        for kb, sure in itertools.product(sorted({launch.late_block(config, k), 256}), (False, True)):
            x = torch.randn(rows, n, device=dev)
            x[0, ::97] = float("nan")
            x[-1, ::89] = float("-inf")
            x[1, : n // 4] = 0.25
            seq = torch.randint(n // 2, n + 1, (rows,), dtype=torch.int32, device=dev)
            _run(x, seq, k, replace(config, page_kb=kb, sure_kb=kb if sure else 0), "page_table", with_values)


def _fast_config():
    """A tiny config whose cap holds the bracket's candidates (the fast path, so the select's page pass runs)."""
    from topk_sgl_fused.launch import SplitConfig

    return SplitConfig(chunk=512, warps=1, r=1, sample=256, select_warps=1, cblock=64, block=64, cap=4096)


@pytest.mark.minutes(1.4)
def test_split_denormals_and_signed_zeros():
    """Thresholds among float32 denormals, -0.0 and +0.0 (float compares must keep denormals)."""
    torch.manual_seed(4)
    dev = triton_device()
    tiny = torch.tensor([0.0, -0.0, 1e-45, -1e-45, 3e-44, -3e-44, 1e-40, -1e-40, 1e-38, -1e-38])
    for config in _configs()[:3] + _configs()[-1:]:  # the fallback, the fast path, its two selects (not early tiles)
        for rows, n, k in ((2, 3000, 400), (2, 4000, 1500)):
            x = tiny[torch.randint(0, len(tiny), (rows, n))].to(dev)
            seq = torch.full((rows,), n, dtype=torch.int32, device=dev)
            _run(x, seq, k, config)


@pytest.mark.minutes(0.6)
def test_split_page_stream():
    """``page_stream`` (the filter streams the page table's row beside the scores and lists page entries; no values
    asked for): chunks of one tile (its first loaded early or not) and of several, both candidate selects, the
    interpreter's pick (a tiny cap: the exact fallback, which gathers); early tiles also with the page tile loaded after
    the bracket; with values asked for it takes the late pass. NaNs, -inf and a plateau at the threshold."""
    from topk_sgl_fused import launch

    dev = triton_device()
    torch.manual_seed(9)
    if launch.interpreting():
        fast = _fast_config()
        configs = [fast, replace(fast, chunk=256), replace(fast, chunk=256, early=True), replace(fast, bisect=True),
                   replace(fast, bisect=True, sbits=0), None]
        shapes = ((3, 3000, 100),)
    else:
        configs = [None]
        shapes = ((8, 32768, 2048), (32, 131072, 2048), (1, 32768, 2048), (4, 70000, 1000))
    for rows, n, k in shapes:
        assert n % 4 == 0  # a table of n columns can be streamed
        x = torch.randn(rows, n, device=dev)
        x[0, ::97] = float("nan")
        x[-1, ::89] = float("-inf")
        x[min(1, rows - 1), : n // 4] = 0.25
        seq = torch.randint(n // 2, n + 1, (rows,), dtype=torch.int32, device=dev)
        for config in configs:
            config = replace(config or launch.pick_split(rows, n, k, launch.sm_count(dev)), page_stream=True)
            _run(x, seq, k, config, "page_table", with_values=False)
            if config.early:  # the page tile after the bracket (``page_after_bracket``)
                _run(x, seq, k, replace(config, page_after_bracket=True), "page_table", with_values=False)
        _run(x, seq, k, config, "page_table", with_values=True)
        _run(x.to(torch.bfloat16), seq, k, config, "page_table", with_values=False)  # 16-bit rows (session 31)


def _split_call(seed, rows=4, n=1024, k=64):
    dev = triton_device()
    logits = torch.randn(rows, n, generator=torch.Generator().manual_seed(seed)).to(dev)
    seq = torch.full((rows,), n, dtype=torch.int32, device=dev)
    idx = poison_like(torch.empty(rows, k, dtype=torch.int32, device=dev))
    return Call(logits=logits, seq_lens=seq, top_k=k, indices=idx, values=None, next_n=1, compress_ratio=1)


def test_split_select_that_never_launches_leaves_no_counts(monkeypatch):
    """The filter counts into the per-stream counters and the select reads and re-zeroes them: a select that fails
    to launch (an interrupted compile, say) must not leave the counts to the next call, which would read them as its
    own (session 43's audit: a repeated index in the next call)."""
    from topk_sgl_fused import launch

    real = launch._run_cached

    def failing_select(key, fn, args, kwargs):
        if "select" in repr(key):
            raise RuntimeError("select failed")
        return real(key, fn, args, kwargs)

    monkeypatch.setattr(launch, "_run_cached", failing_select)
    with pytest.raises(RuntimeError, match="select failed"):
        launch.launch_split(_split_call(1))
    monkeypatch.setattr(launch, "_run_cached", real)
    for seed in (2, 3):
        call = _split_call(seed)
        launch.launch_split(call)
        check_topk(call.logits, call.seq_lens, call.top_k, call.indices)


def test_split_launches_of_two_threads_do_not_interleave(monkeypatch):
    """Two host threads on one stream: each call's filter and select go out back to back (``launch_sequence``), so
    no select reads the other call's counts. A pause after each filter invites the other thread in."""
    import threading
    import time

    from topk_sgl_fused import launch

    real = launch._run_cached
    order, gate = [], threading.Lock()  # the interpreter runs one kernel at a time

    def logged(key, fn, args, kwargs):
        with gate:
            real(key, fn, args, kwargs)
        order.append((threading.current_thread().name, "select" if "select" in repr(key) else "filter"))
        time.sleep(0.05)

    launch.launch_split(_split_call(0))  # compiled before the race
    monkeypatch.setattr(launch, "_run_cached", logged)
    calls = {"A": _split_call(4), "B": _split_call(5)}
    threads = [threading.Thread(target=launch.launch_split, args=(c,), name=name) for name, c in calls.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [o[1] for o in order] == ["filter", "select"] * 2 and order[0][0] == order[1][0], order
    for c in calls.values():
        check_topk(c.logits, c.seq_lens, c.top_k, c.indices)
