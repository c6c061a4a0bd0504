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


@pytest.mark.parametrize("rows,n", [(1, 8192), (1, 16384), (16, 12000), (32, 16384), (1, 32768), (1, 131072),
                                    (8, 32768), (8, 131072), (32, 131072), (1, 262144)])
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
    """seq_lens may be any 1-D int32 view; topk-core hands backends a unit-stride copy."""
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


#: Register-kernel geometries (C, T, E) beyond the ones reg_geometry picks in the tests above.
GEOMETRIES = [(1, 1024, 8), (2, 512, 8), (2, 1024, 4), (4, 1024, 8), (8, 512, 8), (8, 1024, 8), (2, 1024, 16),
              (4, 512, 16), (2, 512, 32), (8, 1024, 16), (16, 1024, 8), (16, 512, 16), (8, 512, 32),
              (16, 1024, 16), (16, 512, 32), (1, 512, 16), (1, 256, 32), (8, 256, 16), (16, 256, 32), (8, 256, 64)]


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: "x".join(map(str, g)))
def test_forced_register_geometries(geo):
    """Every geometry the sweep may pick, on ties, NaN and plateaus, with a scalar tail (N % 4 != 0)."""
    from topk_radix import launch

    cluster, threads, elems = geo
    n = cluster * threads * elems - 5
    launch.FORCE = ("regs", *geo)
    try:
        for kind in ("randn", "int_ties", "nan", "plateau"):
            _case(3, n, 300, kind=kind, mode="mixed")
        _case(2, n, 2048, kind="randn", mode="full")
        if elems % 8 == 0:
            _case(3, n, 300, dtype=torch.bfloat16, kind="int_ties", mode="mixed")
    finally:
        launch.FORCE = None


#: regs.py variants besides checks.reg_variant's picks: 0.2.0's kernel, gather alone, early alone,
#: and a 64-key candidate buffer (the overflow path on most rows, gather on short ones).
REG_VARIANTS = [{"gather": 0, "warp_emit": False, "early": False}, {"gather": 8192, "warp_emit": False, "early": False},
                {"gather": 0, "warp_emit": False, "early": True}, {"gather": 64, "warp_emit": True, "early": True}]


@pytest.mark.parametrize("variant", REG_VARIANTS, ids=lambda v: "g{}w{:d}x{:d}".format(*v.values()))
@pytest.mark.parametrize("geo", [(1, 1024, 8), (8, 512, 8), (16, 512, 16)],
                         ids=lambda g: "x".join(map(str, g)))
def test_register_variants(geo, variant):
    from topk_radix import launch

    cluster, threads, elems = geo
    n = cluster * threads * elems - 5
    launch.FORCE = ("regs", *geo)
    launch.REG_VARIANT = variant
    try:
        for kind in ("randn", "int_ties", "plateau", "nan"):
            _case(3, n, 300, kind=kind, mode="mixed")
        _case(2, n, 2048, kind="randn", mode="full")
        _case(3, n, 300, dtype=torch.bfloat16, kind="int_ties", mode="mixed")
    finally:
        launch.FORCE = None
        launch.REG_VARIANT = None


#: lean.py's flags (fkey, emit1, nozero) on top of: checks.reg_variant's pick (gather + warp_emit +
#: early on fp32), 0.2.0's kernel (no gather/warp_emit/early), a 64-key buffer (the overflow path).
LEAN = {"fkey": True, "emit1": True, "nozero": True}
LEAN_VARIANTS = [{"gather": 8192, "warp_emit": True, "early": True, **LEAN},
                 {"gather": 0, "warp_emit": False, "early": False, **LEAN},
                 {"gather": 64, "warp_emit": True, "early": True, **LEAN}]


#: Every geometry the issue-5 cells run with the first variant; the other two on one C=1 and one
#: cluster geometry each (a device call's test budget is ~90 s of cold builds).
LEAN_CASES = [(g, LEAN_VARIANTS[0]) for g in ((1, 1024, 8), (8, 512, 8), (16, 512, 16), (8, 1024, 16))] + [
    ((1, 1024, 8), LEAN_VARIANTS[1]), ((16, 512, 16), LEAN_VARIANTS[1]), ((8, 512, 8), LEAN_VARIANTS[2]),
    ((16, 512, 16), LEAN_VARIANTS[2])]


#: preclear + upscan + emitb (regs.py; emitb is off at E = 32) on the shipped fp32 flags at every issue-5
#: geometry, on 0.2.0's kernel (the CTA-scan offsets) and on the 64-key overflow path; 16-bit rows too.
LEAN2 = {"preclear": True, "upscan": True, "emitb": True}
LEAN2_CASES = [(g, {**v, **LEAN2}) for g, v in (
    ((1, 1024, 8), LEAN_VARIANTS[0]), ((8, 512, 8), LEAN_VARIANTS[0]), ((16, 512, 16), LEAN_VARIANTS[0]),
    ((8, 1024, 16), LEAN_VARIANTS[0]), ((8, 512, 32), {**LEAN_VARIANTS[0], "gather": 0, "warp_emit": False}),
    ((4, 512, 16), LEAN_VARIANTS[1]), ((8, 512, 8), LEAN_VARIANTS[2]))]


def _lean_id(g, v) -> str:
    return ("x".join(map(str, g)) + "-lean-g{}w{:d}x{:d}".format(*list(v.values())[:3])
            + ("-pub" if v.get("preclear") else ""))


@pytest.mark.parametrize("geo,variant", LEAN_CASES + LEAN2_CASES,
                         ids=[_lean_id(g, v) for g, v in LEAN_CASES + LEAN2_CASES])
def test_lean_variants(geo, variant):
    """fkey / emit1 / nozero: keys from a float add (-0.0, denormals, NaN of both signs, ±inf),
    edge compares in the emit, key 0 counted in pass 0; with values, on random inputs. ``-pub`` cases
    add preclear (early 16-byte clears), upscan (predicated-shfl scans), emitb (ballot-ordered stores)."""
    from topk_radix import launch

    cluster, threads, elems = geo
    seed = 1000 * cluster + elems + variant["gather"]
    launch.FORCE = ("regs", *geo)
    launch.REG_VARIANT = variant
    try:
        for j, kind in enumerate(("randn", "int_ties", "plateau", "nan", "inf", "zeros_denormals", "huge",
                                  "nan", "zeros_denormals")):
            n = cluster * threads * elems - 4 - j % 2  # 16-byte rows / scalar copies with a tail
            _case(3, n, 300, mode="mixed", logits=make_logits(kind, 3, n, torch.float32, "cuda", seed=seed + j, k=300))
        n = cluster * threads * elems
        _case(2, n, 2048, logits=make_logits("randn", 2, n, torch.float32, "cuda", seed=seed + 1, k=2048),
              mode="full")
        _case(4, n - 8, 700, logits=make_logits("nan", 4, n - 8, torch.float32, "cuda", seed=seed + 2, k=700),
              next_n=2)
        for dtype, kind in ((torch.bfloat16, "int_ties"), (torch.float16, "nan")):
            _case(3, n - 8, 300, logits=make_logits(kind, 3, n - 8, dtype, "cuda", seed=seed + 3, k=300), mode="mixed")
        # One row: 16-byte copies and a scalar tail (N % V != 0), full length; the last vector and the
        # tail hold the largest values, so both sides of the vector/tail bound must be kept.
        for dtype, tail in ((torch.float32, 3), (torch.bfloat16, 5)):
            m = n - 8 - tail
            logits = make_logits("randn", 1, m, dtype, "cuda", seed=seed + 4, k=300)
            logits[0, -(tail + 8):] += 100.0
            _case(1, m, 300, logits=logits, mode="full")
    finally:
        launch.FORCE = None
        launch.REG_VARIANT = None


#: spare: CTAs whose slice starts at or past the row's end exit before pass 0; the live ones read and
#: write no exited CTA's shared memory. Shipped flags + spare, the CTA-scan emit, the 64-key overflow path.
SPARE_VARIANTS = [{"gather": 8192, "warp_emit": True, "early": True, **LEAN, "preclear": True, "upscan": True},
                  {"gather": 0, "warp_emit": False, "early": True, **LEAN, "preclear": True, "upscan": True},
                  {"gather": 64, "warp_emit": True, "early": True, **LEAN}]
SPARE_CASES = [((8, 512, 32), SPARE_VARIANTS[1]), ((8, 512, 8), SPARE_VARIANTS[0]), ((16, 512, 16), SPARE_VARIANTS[0]),
               ((8, 1024, 16), SPARE_VARIANTS[0]), ((2, 512, 32), SPARE_VARIANTS[1]), ((4, 512, 16), SPARE_VARIANTS[2]),
               ((16, 512, 32), SPARE_VARIANTS[1])]


def _spare_lengths(cluster: int, cap: int, k: int) -> list[int]:
    """Row lengths that leave 0 .. C-1 spare CTAs: k + 1 (rank 0 alone), slice edges +-1, the full row."""
    n = cluster * cap
    want = [k + 1, cap, cap + 1, 2 * cap - 1, 3 * cap + 17, n // 2, n - cap, n - cap + 1, n - 1, n, k, 0]
    return [min(max(x, 0), n) for x in want]


@pytest.mark.parametrize("geo,variant", SPARE_CASES,
                         ids=["x".join(map(str, g)) + "-g{}w{:d}".format(v["gather"], v["warp_emit"])
                              for g, v in SPARE_CASES])
def test_spare_ctas(geo, variant):
    _slice_edge_cases(geo, {**variant, "spare": True})


#: push0: pass 0's group sums pushed to every CTA before its cluster barrier (the find's first hop local);
#: with the shipped flags of each issue-5 geometry, with spare, the CTA-scan emit, the 64-key overflow, 16-bit.
PUSH_CASES = [((16, 512, 16), SPARE_VARIANTS[0]), ((8, 512, 8), {**SPARE_VARIANTS[0], "spare": True}),
              ((8, 256, 4), {**SPARE_VARIANTS[0], "spare": True, "relaxed_exit": True}),
              ((8, 256, 8), {**SPARE_VARIANTS[0], "spare": True, "relaxed_exit": True}),
              ((8, 1024, 16), SPARE_VARIANTS[0]), ((8, 512, 32), SPARE_VARIANTS[1]),
              ((2, 512, 32), {**SPARE_VARIANTS[1], "spare": True}), ((4, 512, 16), SPARE_VARIANTS[2]),
              ((16, 512, 32), SPARE_VARIANTS[0])]


@pytest.mark.parametrize("geo,variant", PUSH_CASES,
                         ids=["x".join(map(str, g)) + "-g{}w{:d}s{:d}".format(v["gather"], v["warp_emit"],
                                                                              v.get("spare", False))
                              for g, v in PUSH_CASES])
def test_push0(geo, variant):
    _slice_edge_cases(geo, {**variant, "push0": True})


@pytest.mark.parametrize("geo,variant", PUSH_CASES[:6],
                         ids=["x".join(map(str, g)) + "-g{}w{:d}".format(v["gather"], v["warp_emit"])
                              for g, v in PUSH_CASES[:6]])
def test_relaxed_exit(geo, variant):
    """relaxed_exit: the exit barrier's arrive without a release fence, with and without push0/spare."""
    _slice_edge_cases(geo, {**variant, "relaxed_exit": True})


def _slice_edge_cases(geo, variant):
    """Rows ending at every slice edge (0 .. C-1 CTAs without a column), ties, NaN, +-inf, 16-bit, values,
    next_n = 2, on one forced geometry and regs.py variant."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix import launch

    cluster, threads, elems = geo
    cap = threads * elems
    n = cluster * cap
    launch.FORCE = ("regs", *geo)
    launch.REG_VARIANT = variant
    try:
        for j, (kind, dtype, k) in enumerate((("randn", torch.float32, 2048), ("int_ties", torch.float32, 300),
                                              ("plateau", torch.float32, 700), ("nan", torch.float32, 1),
                                              ("inf", torch.float32, 2048), ("int_ties", torch.bfloat16, 300),
                                              ("nan", torch.float16, 2048))):
            if elems % (16 // torch.empty(0, dtype=dtype).element_size()) != 0:
                continue  # a 16-bit row's 16-byte vector is 8 keys: (8, 256, 4) is float32's only
            lens = _spare_lengths(cluster, cap, k)
            logits = make_logits(kind, len(lens), n, dtype, "cuda", seed=31 * j + cluster, k=k)
            seq_lens = torch.tensor(lens, dtype=torch.int32, device="cuda")
            idx, vals = top_k_varlen(logits, seq_lens, k, return_values=True, backend="radix")
            check_topk(logits, seq_lens, k, idx, vals)
        # next_n = 2: each request's two rows end one column apart, so a slice edge falls between them.
        lens = torch.tensor([cap + 1, 3 * cap, n - 1], dtype=torch.int32, device="cuda")
        logits = make_logits("randn", 6, n, torch.float32, "cuda", seed=7 + cluster, k=2048)
        idx, vals = top_k_varlen(logits, lens, 2048, next_n=2, return_values=True, backend="radix")
        check_topk(logits, lens, 2048, idx, vals, next_n=2)
    finally:
        launch.FORCE = None
        launch.REG_VARIANT = None

