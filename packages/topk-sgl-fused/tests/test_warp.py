"""The warp path (``warp.py``: one small program per row, one launch), forced through ``launch``.

Under TRITON_INTERPRET=1 on CPU, or compiled on a GPU (then in the GPU suite too). Each case
compares against the exact answer with ``check_topk`` (transforms inverted first).

| case                               | forces                                                 |
|------------------------------------|--------------------------------------------------------|
| conformance kit (interpreter)      | every kit case through the warp path                   |
| fast path alone                    | the sampled bracket settles random rows (no fallback)  |
| kinds x caps x warps               | tiny caps: candidates overflow, the exact fallback     |
| ties / plateau / +-inf / NaN rows  | brackets that miss; tie classes across the whole row   |
| row_starts, values, next_n         | windows clamped; values from registers and gathers     |
| page table (cu_seqlens_q), ragged  | the transform at the store, sure keys and candidates   |
| bracket bits 1 / 2 / 4             | the same bracket from every search width               |
| select bits 2 / 4, ties, NaN       | multi-threshold steps, full-width ties, early stops    |
| late page table, random table      | k slots in one or several blocks, k not a power of two |
| lazy request (late), random table  | req found after the stream: fast path, fill, fallback  |
| sample runs 4 / 8 / 32             | overlapping runs, a run far above the rest, fallback   |
| sample runs as vectors             | the same columns as scalar loads; runs past the end    |
| packed candidates (64-bit words)   | every select mode, the fallback reusing the scratch    |
"""

import os

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

from topk_core.testing import (
    PAGE_STRIDE,
    BackendConformance,
    Claims,
    TransformConformance,
    check_topk,
    clamped_windows,
    local_columns,
    make_logits,
    paged_requests,
    poison_like,
    poisoned_call,
    ragged_decode_rows,
    random_page_tables,
)
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device
from topk_sgl_fused.bisect_select import _bracket_bisect, _sample
from topk_sgl_fused.kernel import _bracket
from topk_sgl_fused.warp import _warp_fast

pytestmark = [*TRITON_MARKS, pytest.mark.filterwarnings("ignore:Conversion of an array with ndim:DeprecationWarning")]


def _cfgs():
    """One warp, tiles of 4 x 32 lanes (late page table); two warps with the histogram select; a tiny cap
    (the exact fallback). On a GPU one build (cap is a runtime value), to keep its compiles few; the
    late pass and the multi-bit steps are forced by their own tests."""
    from topk_sgl_fused.launch import WarpConfig, interpreting

    if not interpreting():
        return [WarpConfig(2, 1, 128, 64, 64), WarpConfig(2, 1, 128, 64, 64, cap=8)]
    return [WarpConfig(1, 1, 64, 64, 64, late=True), WarpConfig(2, 1, 128, 32, 64, bisect=False),
            WarpConfig(1, 1, 64, 64, 64, cap=8)]


def _run(logits, seq_lens, k, config, **fields):
    from topk_sgl_fused import launch

    call = poisoned_call(logits, seq_lens, k, **fields)
    launch.launch(call, config=config)
    return call.indices, call.values


@triton.jit
def _fast_probe(x_ptr, stride, lens_ptr, k, out_idx, out_val, scratch, cap, ok_ptr, KEY_BITS: tl.constexpr,
                A: tl.constexpr, V: tl.constexpr, TH: tl.constexpr, SAMPLE: tl.constexpr, CBLOCK: tl.constexpr,
                SB: tl.constexpr, BB: tl.constexpr, ALLC: tl.constexpr = False, EMIT_DONE: tl.constexpr = False):
    b = tl.program_id(0)
    L = tl.load(lens_ptr + b)
    buf = scratch + b.to(tl.int64) * (2 * cap)
    row = x_ptr + b.to(tl.int64) * stride
    ok = _warp_fast(row, L, k, b.to(tl.int64) * k, out_idx, out_val, 1, buf, buf + cap, cap, b.to(tl.int64), 0,
                    out_idx, 0, KEY_BITS, A, V, TH, SAMPLE, CBLOCK, 0, True, SB, BB, base=row, PACK=ALLC, ALLC=ALLC,
                    EMIT_DONE=EMIT_DONE)
    tl.store(ok_ptr + b, ok.to(tl.int32))


@triton.jit
def _bracket_probe(x_ptr, stride, lens_ptr, k_ptr, out_ptr, KEY_BITS: tl.constexpr, SAMPLE: tl.constexpr):
    b = tl.program_id(0)
    row = x_ptr + b.to(tl.int64) * stride
    L = tl.load(lens_ptr + b)
    k = tl.load(k_ptr + b)
    lo1, hi1 = _bracket_bisect(row, L, k, KEY_BITS, SAMPLE, 1)
    lo2, hi2 = _bracket_bisect(row, L, k, KEY_BITS, SAMPLE, 2)
    lo4, hi4 = _bracket_bisect(row, L, k, KEY_BITS, SAMPLE, 4)
    lo12, hi12 = _bracket_bisect(row, L, k, KEY_BITS, SAMPLE, 1, 12)
    loh, hih = _bracket(row, L, k, KEY_BITS, SAMPLE)
    o = out_ptr + b * 10
    tl.store(o + 8, loh.to(tl.int64))
    tl.store(o + 9, hih.to(tl.int64))
    tl.store(o + 6, lo12.to(tl.int64))
    tl.store(o + 7, hi12.to(tl.int64))
    tl.store(o, lo1.to(tl.int64))
    tl.store(o + 1, hi1.to(tl.int64))
    tl.store(o + 2, lo2.to(tl.int64))
    tl.store(o + 3, hi2.to(tl.int64))
    tl.store(o + 4, lo4.to(tl.int64))
    tl.store(o + 5, hi4.to(tl.int64))


def test_bracket_bits_agree():
    """The bracket's search over the sample gives the same bounds at 1, 2 and 4 bits per step:
    random and tied rows, ranks past either end (k tiny: no sure keys; k ~ L: lo at the bottom);
    on 12 prefix bits the bounds are the 16-bit ones rounded outwards to 12-bit bin edges; on 16 bits they are the
    two histograms' (``kernel._bracket``, which the two-launch filter used before session 20)."""
    dev = triton_device()
    rows, n = 6, 900
    x = make_logits("randn", rows, n, torch.float32, dev, seed=5)
    x[1] = make_logits("int_ties", 1, n, torch.float32, dev, seed=6, k=40)[0]
    x[2, ::3] = float("inf")
    x[3] = 0.5
    lens = torch.tensor([900, 800, 900, 700, 300, 899], dtype=torch.int32, device=dev)
    ks = torch.tensor([40, 300, 2, 100, 299, 1], dtype=torch.int32, device=dev)
    out = torch.full((rows, 10), -1, dtype=torch.int64, device=dev)
    _bracket_probe[(rows,)](x, x.stride(0), lens, ks, out, KEY_BITS=32, SAMPLE=256, num_warps=1)
    out = out.cpu()
    assert (out >= 0).all()
    assert (out[:, 0] <= out[:, 1]).all()
    assert torch.equal(out[:, 0:2], out[:, 2:4]) and torch.equal(out[:, 0:2], out[:, 4:6]), out
    assert torch.equal(out[:, 0:2], out[:, 8:10]), out
    assert torch.equal(out[:, 6], out[:, 0] >> 20 << 20), out  # lo rounded down to a 12-bit edge
    assert torch.equal(out[:, 7], ((out[:, 1] >> 20) + 1 << 20) - 1), out  # hi rounded up
    assert out[4, 0] == 0 and out[5, 1] == 2**32 - 1  # k ~ L: no lower bound; k = 1: no sure keys


@triton.jit
def _sample_probe(x_ptr, lens_ptr, out_ptr, SAMPLE: tl.constexpr, RUN: tl.constexpr):
    b = tl.program_id(0)
    L = tl.load(lens_ptr + b)
    i = tl.arange(0, SAMPLE)
    tl.store(out_ptr + (2 * b) * SAMPLE + i, _sample(x_ptr, L, SAMPLE, RUN, False))
    tl.store(out_ptr + (2 * b + 1) * SAMPLE + i, _sample(x_ptr, L, SAMPLE, RUN, True))


@pytest.mark.parametrize("run", [4, 8])
def test_sample_vec_same_runs(run):
    """The sample's runs loaded as vectors hold the same columns as the scalar loads (in another order), except
    that runs past the row's end move back inside it rather than repeating its last column; rows shorter than a run
    give zeros (no run fits; the bracket then only costs speed). The row holds its column numbers."""
    dev = triton_device()
    sample = 64
    x = torch.arange(2000, dtype=torch.float32, device=dev)
    lens = torch.tensor([run - 1, run + 3, 60, 513, 1300, 1999], dtype=torch.int32, device=dev)
    out = torch.full((lens.numel(), 2, sample), -1.0, device=dev)
    _sample_probe[(lens.numel(),)](x, lens, out, SAMPLE=sample, RUN=run, num_warps=1)
    out = out.cpu()
    nr = sample // run
    for r, L in enumerate(lens.tolist()):
        scalar, vec = out[r, 0].sort().values, out[r, 1].sort().values
        if L < run:
            assert (vec == 0).all(), (L, vec)
            continue
        # the runs' first columns as the kernel computes them (float32), moved back inside the row
        first = ((np.arange(nr, dtype=np.float32) + np.float32(0.5)) * np.float32(L / nr)).astype(np.int32)
        first = np.maximum(np.minimum(first // run * run, (L - run) // run * run), 0)
        want = torch.from_numpy((first[:, None] + np.arange(run)).reshape(-1).astype(np.float32)).sort().values
        assert torch.equal(vec, want), (L, vec, want)
        if first[-1] + run <= L and (first // run * run == first).all() and L >= 2 * sample:
            assert torch.equal(vec, scalar), (L, vec, scalar)  # no run moved: the scalar loads' columns


@pytest.mark.parametrize("dtype,bits,mode", [(torch.float32, (1, 1), ""), (torch.bfloat16, (1, 1), ""),
                                             (torch.float32, (4, 4), ""), (torch.bfloat16, (2, 4), ""),
                                             (torch.float32, (1, 1), "allc"), (torch.bfloat16, (0, 1), "allc"),
                                             (torch.float32, (2, 1), "emit"), (torch.float32, (1, 1), "emit")])
def test_fast_path_alone(dtype, bits, mode):
    """Random rows: the bracket holds the k-th key, so the fast path settles every row itself
    (no fallback), exactly, values included; also with 2 or 4 bits per select / bracket step, and with every key
    above the bracket a candidate ("allc": ``all_cands``; NaNs among them), and ("emit") with ``emit_done``."""
    dev = triton_device()
    rows, n, k = 3, 2000, 100
    x = make_logits("randn", rows, n, dtype, dev, seed=21)
    x[0, ::50] = float("nan") if dtype == torch.float32 else -0.0  # the interpreter drops a 16-bit NaN's payload
    x[1, ::40] = float("inf")
    lens = torch.tensor([2000, 1500, 777], dtype=torch.int32, device=dev)
    cap = 1024
    idx = poison_like(torch.empty(rows, k, dtype=torch.int32, device=dev))
    vals = poison_like(torch.empty(rows, k, dtype=dtype, device=dev))
    ok = torch.zeros(rows, dtype=torch.int32, device=dev)
    scratch = torch.empty(rows * 2 * cap, dtype=torch.int32, device=dev)
    v = 16 // x.element_size()
    _fast_probe[(rows,)](x, x.stride(0), lens, k, idx, vals, scratch, cap, ok, KEY_BITS=8 * x.element_size(), A=1, V=v,
                         TH=32, SAMPLE=256, CBLOCK=64, SB=bits[0], BB=bits[1], ALLC=mode == "allc",
                         EMIT_DONE=mode == "emit", num_warps=1)
    assert ok.tolist() == [1] * rows
    check_topk(x, lens, k, idx, vals)


@pytest.mark.parametrize("kind", ["randn", "sorted", "int_ties", "plateau", "nan"])
def test_kinds_and_caps(kind):
    dev = triton_device()
    k = 40
    lens = torch.tensor([700, 41, 40, 555], dtype=torch.int32, device=dev)
    for dtype in (torch.float32, torch.bfloat16) if kind in ("randn", "nan") else (torch.float32,):
        x = make_logits(kind, 4, 700, dtype, dev, seed=3, k=k)
        for config in _cfgs():
            idx, vals = _run(x, lens, k, config)
            check_topk(x, lens, k, idx, vals)


@pytest.mark.parametrize("kind", ["int_ties", "nan", "sorted"])
def test_select_bits(kind):
    """2 and 4 bits per select step (and per bracket step): tie classes resolved to the last bit,
    NaN and +-inf keys, early stops; the tiny cap of the third config forces the fallback; the fourth
    brackets on 12 prefix bits (``bracket_bits``); two select by interpolation (``sbits=0``; chunks of
    64 and 32 candidates, so the counts loop over the scratch); the last four emit a search that ended on exactly the
    keys needed without counting the keys above (``emit_done``), with 1, 2 (packed counts over chunks of 32) and 4
    bits per step and with every key above the bracket a candidate (``all_cands``)."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 45
    lens = torch.tensor([700, 46, 45, 600], dtype=torch.int32, device=dev)
    x = make_logits(kind, 4, 700, torch.float32, dev, seed=4, k=k)
    x[3, ::9] = float("-inf")
    for config in (WarpConfig(1, 1, 64, 64, 64, sbits=4, bbits=2), WarpConfig(2, 1, 128, 64, 64, sbits=2, bbits=4),
                   WarpConfig(1, 1, 64, 64, 64, sbits=4, cap=8), WarpConfig(2, 1, 128, 64, 64, bracket_bits=12),
                   WarpConfig(1, 1, 64, 64, 64, sbits=0), WarpConfig(2, 1, 128, 32, 64, sbits=0, bracket_bits=12),
                   WarpConfig(1, 1, 64, 64, 64, emit_done=True), WarpConfig(2, 1, 128, 32, 64, sbits=2, emit_done=True),
                   WarpConfig(1, 1, 64, 64, 64, sbits=4, emit_done=True),
                   WarpConfig(1, 1, 64, 64, 64, sbits=2, emit_done=True, pack_cands=True, all_cands=True)):
        idx, vals = _run(x, lens, k, config)
        check_topk(x, lens, k, idx, vals)


@pytest.mark.parametrize("k", [37, 600])
def test_late_page_table_random(k):
    """The late pass over a random (non-identity, non-affine) table with cu_seqlens_q: blocks of
    ``block`` slots (the default), and of ``late_block``'s 512 (one block at k = 37, two with a
    masked tail at k = 600); a row shorter than k (the fill); rows of two requests."""
    from topk_sgl_fused.launch import WarpConfig, late_block

    dev = triton_device()
    n, rows = 1300, 4
    x = make_logits("randn", rows, n, torch.float32, dev, seed=9)
    x[1, ::5] = x[1, 0]  # ties across the row
    lens = torch.tensor([1300, 1250, 500, 640], dtype=torch.int32, device=dev)
    cu = torch.tensor([0, 2, 4], dtype=torch.int32, device=dev)
    req = torch.tensor([0, 0, 1, 1])
    table, inv = random_page_tables(2, n, seed=11)
    kb = late_block(WarpConfig(1), 600)
    assert kb == 512 < 600
    configs = [WarpConfig(1, 1, 64, 64, 64, late=True),
               WarpConfig(2, 1, 128, 64, 64, late=True, late_kb=kb, sbits=4, bbits=4)]
    for config in configs:
        idx, vals = _run(x, lens, k, config, transform="page_table", page_table=table.to(dev), cu_seqlens_q=cu)
        idx = idx.cpu().long()
        assert ((idx >= -1) & (idx < 4 * n)).all()
        local = local_columns(idx, inv, req)
        assert (local[idx >= 0] >= 0).all()  # every output is a table entry of the row's request
        check_topk(x, lens, k, local.to(torch.int32).to(dev), vals)


@pytest.mark.parametrize("k", [37, 300])
def test_lazy_page_table(k):
    """``lazy`` (the late pass's request found after the stream): random tables over three requests of
    two rows (cu_seqlens_q), row_starts and values, ties, NaN, +-inf, a row shorter than k (the fill) and
    one of exactly k + 1; blocks of ``block`` and of ``late_block``; a tiny cap (the exact fallback);
    a register cap (ignored by the interpreter)."""
    from topk_sgl_fused.launch import WarpConfig, late_block

    dev = triton_device()
    n, rows = 1300, 6
    x = make_logits("randn", rows, n, torch.float32, dev, seed=13)
    x[1, ::5] = x[1, 0]  # ties across the row
    x[2, ::31] = float("nan")
    x[3, ::17] = float("inf")
    x[3, 1::17] = float("-inf")
    x[5] = make_logits("int_ties", 1, n, torch.float32, dev, seed=14, k=k)[0]
    starts = torch.tensor([0, 7, 100, -20, 0, 1300 - k - 1], dtype=torch.int32, device=dev)
    lens = torch.tensor([1300, 1250, 900, 1290, k - 5, k + 1], dtype=torch.int32, device=dev)
    cu = torch.tensor([0, 2, 4, 6], dtype=torch.int32, device=dev)
    req = torch.tensor([0, 0, 1, 1, 2, 2])
    table, inv = random_page_tables(3, n, seed=12 + k)
    kb = late_block(WarpConfig(1), k)
    configs = [WarpConfig(1, 1, 64, 64, 64, late=True, lazy=True),
               WarpConfig(2, 1, 128, 64, 64, late=True, late_kb=kb, lazy=True, maxnreg=80),
               WarpConfig(1, 1, 64, 64, 64, late=True, lazy=True, cap=8)]
    for config in configs:
        idx, vals = _run(x, lens, k, config, transform="page_table", page_table=table.to(dev), cu_seqlens_q=cu,
                         row_starts=starts)
        idx = idx.cpu().long()
        assert ((idx >= -1) & (idx < 4 * n)).all()
        local = local_columns(idx, inv, req)
        assert (local[idx >= 0] >= 0).all()  # every output is a table entry of the row's request
        check_topk(x, lens, k, local.to(torch.int32).to(dev), vals, row_starts=starts)


def test_lazy_same_ptx_without_page_table():
    """``lazy`` changes nothing but the page-table build: its compile-time arguments are the old ones
    for the identity and ragged transforms, and without ``late``."""
    from topk_sgl_fused.launch import WarpConfig, warp_constexprs

    lazy, plain = WarpConfig(4, 2, 2048, 512, 512, late=True, lazy=True), WarpConfig(4, 2, 2048, 512, 512, late=True)
    for transform in (0, 2):
        assert warp_constexprs(lazy, 32, transform, False, 2048) == warp_constexprs(plain, 32, transform, False, 2048)
    assert "LAZY" not in warp_constexprs(WarpConfig(4, lazy=True), 32, 1, False, 2048)
    assert warp_constexprs(lazy, 32, 1, False, 2048)["LAZY"] is True


def test_all_equal_and_special_rows():
    dev = triton_device()
    x = torch.full((4, 500), -0.0, device=dev)
    x[1] = 0.0
    x[2, ::2] = float("nan")
    x[3] = float("-inf")
    x[3, ::7] = float("inf")
    lens = torch.tensor([500, 499, 480, 500], dtype=torch.int32, device=dev)
    for config in _cfgs():
        idx, vals = _run(x, lens, 37, config)
        check_topk(x, lens, 37, idx, vals)


def test_row_starts_and_k_edges():
    x, starts, lens = clamped_windows(triton_device())
    for k in (1, 30, 276):
        for config in _cfgs()[::2]:
            idx, vals = _run(x, lens, k, config, row_starts=starts)
            check_topk(x, lens, k, idx, vals, row_starts=starts)


def test_page_table_with_empty_requests():
    k = 20
    x, lens, cu, table, req = paged_requests(triton_device())  # requests 0, 2, 3 are empty
    for config in _cfgs():
        idx, vals = _run(x, lens, k, config, transform="page_table", page_table=table, cu_seqlens_q=cu)
        local = torch.where(idx >= 0, idx - PAGE_STRIDE * req[:, None].to(idx.dtype), idx)
        check_topk(x, lens, k, local.to(torch.int32), vals)


def test_ragged_with_next_n_and_compress():
    x, lens, offsets, next_n, cr, k = ragged_decode_rows(triton_device())
    for config in _cfgs():
        idx, vals = _run(x, lens, k, config, transform="ragged", index_offsets=offsets, next_n=next_n,
                         compress_ratio=cr)
        local = torch.where(idx >= 0, idx - offsets[:, None], idx)
        check_topk(x, lens, k, local.to(torch.int32), vals, next_n=next_n, compress_ratio=cr)


@pytest.mark.interpreter
@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET", "") in ("", "0"), reason="needs TRITON_INTERPRET=1")
class TestWarpInterpreter(BackendConformance, TransformConformance):
    """The conformance kit with every call on the warp path (one warp, tiles of 4 x 32 lanes)."""

    backend = "sgl_fused"
    device = "cpu"
    scale = "small"
    claims = Claims(transforms=("page_table", "ragged"), row_starts=True)

    @pytest.fixture(autouse=True)
    def _force_warp(self, monkeypatch):
        from topk_sgl_fused import launch

        monkeypatch.setattr(launch, "pick_warp", lambda *a: launch.WarpConfig(1, 1, 64, 64, 64))


def _special_rows(dev, lens, k, seed, plateau_step):
    """randn rows of 1300 columns with a plateau (every ``plateau_step``-th column), NaN, +-inf and integer ties."""
    x = make_logits("randn", lens.numel(), 1300, torch.float32, dev, seed=seed)
    x[1, ::plateau_step] = x[1, 0]
    x[2, ::31] = float("nan")
    x[3, ::17] = float("inf")
    x[3, 1::17] = float("-inf")
    x[6] = make_logits("int_ties", 1, 1300, torch.float32, dev, seed=seed + 1, k=k)[0]
    return x


def _gpu_pick_cases(dev, transform, seed, **change):
    """The float32 picks of about one row per SM (16 warps) at GPU sizes, with ``change`` applied: NaN, a plateau
    around the threshold; none under the interpreter."""
    from dataclasses import replace

    from topk_sgl_fused import launch
    from topk_sgl_fused.launch import WarpConfig

    if launch.interpreting():
        return []
    torch.manual_seed(seed)
    cases = []
    for r, m in ((130, 24000), (128, 32768), (132, 131072)):
        big = torch.randn(r, m, device=dev)
        big[0, ::97] = float("nan")
        big[-1, : m // 3] = 0.5
        seq = torch.randint(m // 2, m + 1, (r,), dtype=torch.int32, device=dev)
        config = launch.pick_warp(r, m, 2048, launch.sm_count(dev), transform)
        assert isinstance(config, WarpConfig) and config.warps == 16
        cases.append((big, seq, 2048, replace(config, **change)))
    return cases


def _check_cases(cases, transform, seed):
    """Each ``(logits, seq_lens, k, config)`` forced through the warp path with ``transform``, checked exact."""
    dev = triton_device()
    for logits, seq, kk, config in cases:
        r, m = logits.shape
        fields = {}
        if transform == "page_table":
            table, inv = random_page_tables(r, m, seed=seed)
            fields = dict(page_table=table.to(dev))
        elif transform == "ragged":
            offsets = torch.arange(r, dtype=torch.int32, device=dev) * 3 * m
            fields = dict(index_offsets=offsets)
        idx, vals = _run(logits, seq, kk, config, transform=transform, **fields)
        if transform == "page_table":
            idx = local_columns(idx.cpu().long(), inv, torch.arange(r)).to(torch.int32).to(dev)
        elif transform == "ragged":
            idx = torch.where(idx >= 0, idx - offsets[:, None], idx)
        check_topk(logits, seq, kk, idx, vals)


@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_two_tiles_ahead(transform):
    """``ahead=2`` (the stream's next two tiles in flight): rows of no full tile, one, two and many, with ties,
    NaN and +-inf, a row shorter than k and one of k + 1; the late page pass, the histogram select and a tiny cap (the
    exact fallback). On a GPU also the float32 picks of 1 row per SM (16 warps) with it, at GPU sizes."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 37
    lens = torch.tensor([100, 200, 300, 1300, k - 5, k + 1, 1299], dtype=torch.int32, device=dev)
    x = _special_rows(dev, lens, k, 21, 5)
    cases = [(x, lens, k, c) for c in (WarpConfig(1, 1, 64, 64, 64, ahead=2, late=True),
                                       WarpConfig(2, 1, 128, 32, 64, ahead=2, bisect=False),
                                       WarpConfig(1, 1, 64, 64, 64, ahead=2, cap=8))]
    _check_cases(cases + _gpu_pick_cases(dev, transform, 23, ahead=2), transform, 24)


@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_regions_16bit(transform):
    """0.27.6's regions configs (candidates packed in regions per warp, two tiles ahead, the select by interpolation,
    longest first; the page table's sure entries held through the select, its first chunk's gathered early) on 16-bit
    rows, which 0.27.7's picks give them up to 64 k: bfloat16 and float16 with ties, +-inf,
    -0.0, a row shorter than k and one of k + 1, and a tiny cap (the exact fallback)."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 37
    lens = torch.tensor([100, 200, 300, 1300, k - 5, k + 1, 1299], dtype=torch.int32, device=dev)
    x = _special_rows(dev, lens, k, 85, 5)
    x[2, ::31] = -0.0  # not NaN: the interpreter drops a 16-bit NaN's payload
    page = transform == "page_table"
    reg = dict(pack_cands=True, warp_regions=True, ahead=2, sbits=0, longest_first=True, first_wave=1,
               defer_sure=page, page_early=page)
    cases = [(x.to(dtype), lens, k, c) for dtype in (torch.bfloat16, torch.float16)
             for c in (WarpConfig(2, 1, 128, 64, 64, **reg), WarpConfig(1, 1, 64, 64, 64, cap=8, **reg))]
    _check_cases(cases, transform, 86)


@pytest.mark.parametrize("transform", ["none", "page_table"])
def test_sample_runs(transform):
    """``sample_run`` (the bracket's sample in runs of adjacent columns), with and without ``sample_vec`` (the runs
    loaded as vectors): rows shorter than the sample (runs overlap), shorter than one run,
    of a few runs and of many, with ties, NaN and +-inf, a run-aligned plateau, a row shorter than k and one of
    k + 1; the guessed bracket, the bisection and a tiny cap (the exact fallback). On a GPU also the float32 picks of
    1 row per SM with runs of 8, at GPU sizes."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 37
    lens = torch.tensor([60, 200, 513, 1300, k - 5, k + 1, 1299], dtype=torch.int32, device=dev)
    x = _special_rows(dev, lens, k, 31, 8)
    x[6, 64:72] = 1e9  # one run of the sample: far above the rest
    cases = [(x, lens, k, c) for c in (WarpConfig(1, 1, 64, 64, 64, sample_run=8, late=True),
                                       WarpConfig(2, 1, 128, 32, 64, sample_run=4, guess=2.5),
                                       WarpConfig(1, 1, 64, 64, 64, sample_run=32, cap=8),
                                       WarpConfig(1, 1, 64, 64, 64, sample_run=8, sample_vec=True, late=True),
                                       WarpConfig(2, 1, 128, 32, 64, sample_run=4, sample_vec=True, guess=2.5))]
    # rows shorter than one run (every vector run masked off) and of a run and a bit
    tiny = make_logits("randn", 3, 40, torch.float32, dev, seed=36)
    tiny_lens = torch.tensor([5, 7, 11], dtype=torch.int32, device=dev)
    cases += [(tiny, tiny_lens, 3, WarpConfig(1, 1, 64, 64, 64, sample_run=8, sample_vec=True))]
    _check_cases(cases + _gpu_pick_cases(dev, transform, 33, sample_run=8, sample_vec=True), transform, 34)


@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_packed_candidates(transform):
    """``pack_cands`` (each candidate one 64-bit scratch word, key << 32 | column): rows of no full tile, of a few
    tiles and of many, with ties, NaN and +-inf, a row shorter than k and one of k + 1; the late page pass, the select
    by bisection and by interpolation, two tiles ahead, and a tiny cap (the exact fallback reuses the scratch with its
    own layout). On a GPU also the float32 picks of 1 row per SM with it, at GPU sizes."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 37
    lens = torch.tensor([60, 200, 513, 1300, k - 5, k + 1, 1299], dtype=torch.int32, device=dev)
    x = _special_rows(dev, lens, k, 51, 7)
    pack = dict(pack_cands=True)
    cases = [(x, lens, k, c) for c in (WarpConfig(1, 1, 64, 64, 64, late=True, **pack),
                                       WarpConfig(2, 1, 128, 32, 64, sbits=0, guess=2.5, ahead=2, **pack),
                                       WarpConfig(1, 1, 64, 64, 64, cap=8, **pack))]
    _check_cases(cases + _gpu_pick_cases(dev, transform, 53, **pack), transform, 54)


@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_all_candidates(transform):
    """``all_cands`` (no sure keys in the stream: every key at or above the bracket's low bound is a packed
    candidate): the cases of ``test_packed_candidates`` (ties, NaN, +-inf, short rows, the page stream, a tiny cap
    and a cap one tile short of the row's candidates, where the tile of slack sends the row to the exact path), the
    page table's late pass over all k slots, and the select's first chunk of page entries gathered before its search
    (``page_early``: chunks of 64 and 256, by bisection and by interpolation). On a GPU also the float32 picks of 1
    row per SM with it, at GPU sizes (the page table's applied as the select emits, first chunk early: the shipped
    route since session 34)."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 37
    lens = torch.tensor([60, 200, 513, 1300, k - 5, k + 1, 1299], dtype=torch.int32, device=dev)
    x = _special_rows(dev, lens, k, 57, 7)
    allc = dict(pack_cands=True, all_cands=True)
    ps = dict(page_stream=True) if transform == "page_table" else {}
    cases = [(x, lens, k, c) for c in (WarpConfig(1, 1, 64, 64, 64, **allc, **ps),
                                       WarpConfig(2, 1, 128, 32, 64, sbits=0, guess=2.5, ahead=2, **allc, **ps),
                                       WarpConfig(1, 1, 64, 256, 64, **allc),
                                       WarpConfig(1, 1, 64, 64, 64, cap=8, **allc),
                                       WarpConfig(1, 1, 64, 64, 64, cap=200, **allc),
                                       WarpConfig(2, 1, 128, 32, 64, late=True, late_kb=-1, **allc),
                                       WarpConfig(1, 1, 64, 64, 64, page_early=True, **allc),
                                       WarpConfig(2, 1, 128, 256, 64, sbits=0, guess=2.5, page_early=True, **allc))]
    early = dict(late=False, page_stream=False, page_early=True) if transform == "page_table" else {}
    _check_cases(cases + _gpu_pick_cases(dev, transform, 59, cblock=4096, **allc, **early), transform, 58)


@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_first_chunk_regs(transform):
    """``first_chunk_regs`` (the select's first candidate chunk emitted from the registers of its first load): two
    32-bit scratch arrays and packed words, one chunk and several, bisection and interpolation, with all_cands and
    the page table's early gathers; ties, NaN and +-inf (``_special_rows``)."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 37
    lens = torch.tensor([60, 200, 513, 1300, k - 5, k + 1, 1299], dtype=torch.int32, device=dev)
    x = _special_rows(dev, lens, k, 61, 7)
    k0 = dict(first_chunk_regs=True)
    allc = dict(pack_cands=True, all_cands=True)
    cases = [(x, lens, k, c) for c in (WarpConfig(1, 1, 64, 64, 64, **k0),
                                       WarpConfig(1, 1, 64, 1024, 64, pack_cands=True, **k0),
                                       WarpConfig(2, 1, 128, 32, 64, sbits=0, guess=2.5, **allc, **k0),
                                       WarpConfig(1, 1, 64, 64, 64, sbits=2, emit_done=True, page_early=True, **allc,
                                                  **k0))]
    _check_cases(cases, transform, 62)


@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_warp_regions(transform):
    """``warp_regions`` (candidates, and without all_cands sure columns, appended to regions per warp; copied to one
    list and to the output before the select): with all_cands and without, one warp and several, rows of no full
    tile and of many, ties, NaN and +-inf (``_special_rows``), bisection, two bits a step and interpolation, the page
    table's early gathers and its late pass; a region's overflow and a tiny cap (the exact fallback); on a GPU also
    the float32 picks of 1 row per SM at GPU sizes with it, with all_cands and without."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 37
    lens = torch.tensor([60, 200, 513, 1300, k - 5, k + 1, 1299], dtype=torch.int32, device=dev)
    x = _special_rows(dev, lens, k, 67, 7)
    x[3, 1000:1300] = 7.0  # the top keys all in the last tiles: one warp's region overflows first
    wr = dict(pack_cands=True, warp_regions=True)
    allc = dict(all_cands=True, **wr)
    cases = [(x, lens, k, c) for c in (WarpConfig(1, 1, 64, 64, 64, **allc),
                                       WarpConfig(2, 1, 128, 32, 64, sbits=0, guess=2.5, **allc),
                                       WarpConfig(4, 1, 64, 64, 64, sbits=2, emit_done=True, page_early=True, **allc),
                                       WarpConfig(2, 1, 64, 64, 64, cap=40, **allc),
                                       WarpConfig(1, 1, 64, 64, 64, **wr),
                                       WarpConfig(2, 1, 128, 32, 64, sbits=2, emit_done=True, **wr),
                                       WarpConfig(4, 1, 64, 64, 64, late=True, sbits=0, guess=2.5, **wr),
                                       WarpConfig(2, 1, 64, 64, 64, cap=40, **wr))]
    early = dict(late=False, page_stream=False, page_early=True) if transform == "page_table" else {}
    gpu = _gpu_pick_cases(dev, transform, 68, cblock=4096, **allc, **early) + _gpu_pick_cases(dev, transform, 70, **wr)
    _check_cases(cases + gpu, transform, 69)


@pytest.mark.minutes(0.3)
@pytest.mark.parametrize("transform", ["page_table", "none"])
def test_defer_sure(transform):
    """``defer_sure`` (the sure columns' page entries gathered after their copy, stored after the select): all k slots
    held (k 37) and only the first 4 a thread with the rest gathered in the copy (k 300 on one warp: 128 held), with
    the early gathers and without, bisection, two bits a step and interpolation, ties, NaN and +-inf
    (``_special_rows``), a region's overflow and a tiny cap (the exact fallback, which must not be overwritten by
    the held entries); the identity transform ignores the flag. On a GPU also the float32 picks of 1 row per SM, with
    the early gathers and without (the streamed ones stay streamed: the flag leaves them alone)."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    cases = []
    for k, seed in ((37, 71), (300, 72)):
        lens = torch.tensor([60, 200, 513, 1300, k - 5, k + 1, 1299], dtype=torch.int32, device=dev)
        x = _special_rows(dev, lens, k, seed, 7)
        x[3, 1000:1300] = 7.0  # the top keys all in the last tiles: one warp's region overflows first
        ds = dict(pack_cands=True, warp_regions=True, defer_sure=True)
        cases += [(x, lens, k, c) for c in (WarpConfig(1, 1, 64, 64, 64, **ds),
                                            WarpConfig(2, 1, 128, 32, 64, sbits=2, page_early=True, **ds),
                                            WarpConfig(4, 1, 64, 64, 64, sbits=0, guess=2.5, **ds),
                                            WarpConfig(2, 1, 64, 64, 64, cap=40, **ds))]
    gpu = (_gpu_pick_cases(dev, transform, 73, late=False, defer_sure=True)
           + _gpu_pick_cases(dev, transform, 75, late=False, defer_sure=True, page_early=True))
    _check_cases(cases + gpu, transform, 74)


@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_longest_first(transform):
    """``longest_first``: programs past the first wave take rows from the order kernel's output (all of them, and
    past a first wave of 1 or 2 programs per SM: the interpreter's 4 SMs), rows of every length class with ties,
    NaN and +-inf, the exact fallback (a tiny cap), the late page pass and the page stream. On a GPU also two
    many-wave picks with the order kernel as the programmatic primary and without, and five more picks as they
    ship."""
    from dataclasses import replace

    from topk_sgl_fused import launch
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 37
    lens = torch.tensor([60, 1300, 513, 1299, k - 5, k + 1, 200, 1300, 0, 700, 1250, 90], dtype=torch.int32,
                        device=dev)
    x = _special_rows(dev, lens, k, 76, 11)
    lf = dict(longest_first=True)
    cases = [(x, lens, k, WarpConfig(1, 1, 64, 64, 64, first_wave=f, **lf)) for f in (0, 1, 2)]
    cases.append((x, lens, k, WarpConfig(2, 1, 64, 64, 64, cap=8, first_wave=1, **lf)))
    # the page table's ways in the ordered picks (session 51): the late pass over the k slots, and the stream
    ps = dict(page_stream=True) if transform == "page_table" else {}
    cases += [(x, lens, k, WarpConfig(1, 1, 64, 64, 64, late=True, first_wave=1, **lf)),
              (x, lens, k, WarpConfig(1, 1, 64, 64, 64, first_wave=1, **ps, **lf))]
    if not launch.interpreting():
        # (rows, columns, seed, a plateau's row step, columns and value): the 700x32K pick and the 2100x8K pick
        # (forced), with the order kernel as the programmatic primary and without; the others as they ship, with
        # the first wave they ship (None: index order): 300x64K and 900x64K (session 50), 1000x16K (session 51),
        # 1024x8K and 2048x32K (session 52); the plateaus tie at the k-th value of many rows (a full 64K row has
        # ~1000 keys above 2.0, a 10K one ~2000 above 0.5 outside its plateau)
        page = transform == "page_table"
        shipped = {(300, 65536): 1, (900, 65536): 1, (1000, 16384): 3 if page else 1, (1024, 8192): 3,
                   (2048, 32768): None if page else 6}
        for r, m, seed, step, cols, value in ((700, 32768, 77, 5, 8192, 0.25), (2100, 8192, 78, 5, 2048, 0.25),
                                              (300, 65536, 80, 7, 20000, 2.0), (900, 65536, 81, 7, 20000, 2.0),
                                              (1000, 16384, 82, 3, 4000, 0.5), (1024, 8192, 83, 3, 2000, 0.25),
                                              (2048, 32768, 84, 5, 8192, 0.25)):
            config = launch.pick_warp(r, m, 2048, launch.sm_count(dev), transform)
            assert isinstance(config, WarpConfig)
            if (r, m) in shipped:
                want = shipped[r, m]
                assert config.longest_first == (want is not None) and config.first_wave == (want or 0), (r, m, config)
                if want is None:
                    continue
            big = make_logits("randn", r, m, torch.float32, dev, seed=seed)
            big[::step, :cols] = value
            seq = torch.randint(0, m + 1, (r,), generator=torch.Generator(dev).manual_seed(seed), device=dev).int()
            if (r, m) in shipped:
                cases.append((big, seq, 2048, config))
            else:
                cases += [(big, seq, 2048, replace(config, first_wave=1, order_pdl=pdl, **lf)) for pdl in (True, False)]
    _check_cases(cases, transform, 79)


@pytest.mark.parametrize("fields, match", [
    (dict(defer_sure=True), "defer_sure"),  # the held entries are the sure regions'
    (dict(all_cands=True), "all_cands"),  # all_cands writes packed candidates
    (dict(bisect=False, pack_cands=True), "pack_cands"),  # the histogram select reads two 32-bit arrays
    (dict(bisect=False, page_early=True), "page_early"),  # the histogram select never gathers the entries
    (dict(bisect=False, first_chunk_regs=True), "first_chunk_regs"),  # ... nor keeps its first chunk
    (dict(sample_run=3), "sample_run"),  # a run that does not divide the sample
    (dict(warp_regions=True), "warp_regions"),  # the regions hold packed candidates
    (dict(longest_first=True, first_wave=-1), "first_wave"),  # programs per SM
])
def test_config_refused(fields, match):
    """A warp config whose flags do not go together is refused with a ValueError before any launch."""
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    x = make_logits("randn", 2, 300, torch.float32, dev, seed=55)
    seq = torch.tensor([300, 200], dtype=torch.int32, device=dev)
    with pytest.raises(ValueError, match=match):
        _run(x, seq, 16, WarpConfig(1, 1, 64, 64, 64, **fields))


def _page_stream_cases(dev, seed):
    """``(logits, seq_lens, k, config)`` for ``page_stream``: rows of no full tile, of a few tiles and of many, with
    ties, NaN and +-inf, a row shorter than k and one of k + 1; the select by bisection and by interpolation,
    packed candidates, two tiles ahead and a tiny cap (the exact fallback, which gathers). On a GPU also the float32
    picks of 1 row per SM with it, at GPU sizes."""
    from topk_sgl_fused.launch import WarpConfig

    k = 37
    lens = torch.tensor([60, 200, 513, 1300, k - 5, k + 1, 1299], dtype=torch.int32, device=dev)
    x = _special_rows(dev, lens, k, seed, 9)
    ps = dict(page_stream=True)
    cases = [(x, lens, k, c) for c in (WarpConfig(1, 1, 64, 64, 64, **ps),
                                       WarpConfig(2, 1, 128, 32, 64, sbits=0, guess=2.5, ahead=2, **ps),
                                       WarpConfig(1, 1, 64, 64, 64, pack_cands=True, **ps),
                                       WarpConfig(1, 1, 64, 64, 64, cap=8, **ps))]
    return cases + _gpu_pick_cases(dev, "page_table", seed + 1, late=False, late_kb=0, **ps)


def test_page_stream():
    """``page_stream`` (the page-table row streamed beside the scores; no values asked, an aligned table): exact on
    every case of ``_page_stream_cases`` with a random page table, and the calls do take the stream."""
    from topk_sgl_fused import launch

    dev = triton_device()
    for i, (logits, seq, kk, config) in enumerate(_page_stream_cases(dev, 61)):
        r, m = logits.shape
        table, inv = random_page_tables(r, m, seed=62 + i)
        call = poisoned_call(logits, seq, kk, values=False, transform="page_table", page_table=table.to(dev))
        assert launch._page_streamable(call)
        launch.launch(call, config=config)
        idx = local_columns(call.indices.cpu().long(), inv, torch.arange(r)).to(torch.int32).to(dev)
        check_topk(logits, seq, kk, idx, None)


def test_page_stream_falls_back():
    """``page_stream`` where it cannot stream (values asked for; a table stride not divisible by 4) takes the late
    page pass instead, exact; with ``late`` it is refused before any launch."""
    from topk_sgl_fused import launch
    from topk_sgl_fused.launch import WarpConfig

    dev = triton_device()
    k = 37
    lens = torch.tensor([300, 1299, 40], dtype=torch.int32, device=dev)
    x = make_logits("randn", 3, 1300, torch.float32, dev, seed=63)
    table, inv = random_page_tables(3, 1301, seed=64)  # stride 1301
    config = WarpConfig(1, 1, 64, 64, 64, page_stream=True)
    for values, tab in ((True, table[:, :1300].contiguous()), (False, table)):
        call = poisoned_call(x, lens, k, values=values, transform="page_table", page_table=tab.to(dev))
        assert not launch._page_streamable(call)
        launch.launch(call, config=config)
        idx = local_columns(call.indices.cpu().long(), inv, torch.arange(3)).to(torch.int32).to(dev)
        check_topk(x, lens, k, idx, call.values)
    call = poisoned_call(x, lens, k, values=False, transform="page_table", page_table=table.to(dev))
    with pytest.raises(ValueError, match="page_stream"):
        launch.launch(call, config=WarpConfig(1, 1, 64, 64, 64, page_stream=True, late=True))


def test_page_stream_with_requests():
    """``page_stream`` with ``cu_seqlens_q``: rows of a request stream that request's table row (requests 0, 2 and 3
    empty), on the warp path and the two-launch path (``SplitConfig.page_stream``; one-tile chunks also with the page
    tile loaded after the bracket)."""
    from dataclasses import replace

    from topk_sgl_fused import launch
    from topk_sgl_fused.launch import SplitConfig, WarpConfig

    k = 20
    x, lens, cu, table, req = paged_requests(triton_device())
    split = SplitConfig(chunk=128, warps=1, r=1, sample=64, select_warps=1, cblock=64, block=64, cap=512)
    for config in (WarpConfig(1, 1, 64, 64, 64, page_stream=True), replace(split, page_stream=True),
                   replace(split, chunk=256, page_stream=True),
                   replace(split, chunk=256, early=True, page_stream=True, page_after_bracket=True)):
        call = poisoned_call(x, lens, k, values=False, transform="page_table", page_table=table, cu_seqlens_q=cu)
        assert launch._page_streamable(call)
        launch.launch(call, config=config)
        idx = call.indices
        local = torch.where(idx >= 0, idx - PAGE_STRIDE * req[:, None].to(idx.dtype), idx)
        check_topk(x, lens, k, local.to(torch.int32), None)
