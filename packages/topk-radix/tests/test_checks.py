"""Host logic: supports/score/geometry as pure functions, the plugin's import cost, the README table."""

import subprocess
import sys
from pathlib import Path

import pytest

from topk_core.protocol import Problem
from topk_core.testing.readme import supports_table
from topk_radix import checks

H200 = (9, 0)


def P(**kw):
    facts = dict(rows=1, n=131072, k=2048, dtype="float32", capability=H200)
    facts.update(kw)
    return Problem(**facts)


def test_supports_decode_shapes():
    for rows, n in [(1, 8192), (1, 131072), (32, 131072), (1, 262144), (4096, 8192)]:
        assert checks.supports(P(rows=rows, n=n)) is None


@pytest.mark.parametrize("facts,word", [
    (dict(device="cpu"), "CUDA"),
    (dict(capability=(8, 0)), "cluster"),
    (dict(dtype="float64"), "dtype"),
    (dict(transform="ragged"), "transform"),
    (dict(row_starts=True), "row_starts"),
    (dict(n=1 << 20), "resident"),
    (dict(n=1 << 21, dtype="bfloat16"), "resident"),
    (dict(rows=70000), "rows"),
])
def test_refusals_have_reasons(facts, word):
    reason = checks.supports(P(**facts))
    assert reason and word in reason


def test_supports_never_raises():
    assert checks.supports(Problem(rows=None, n="x", k=1, dtype="float32")).startswith("cannot judge")


def test_widest_rows():
    assert checks.supports(P(n=checks.max_n("float32"))) is None
    assert checks.supports(P(n=checks.max_n("float32") + 1)) is not None
    assert checks.supports(P(n=1 << 20, dtype="bfloat16")) is None


def test_geometry_fits_and_is_static():
    for dtype in checks.DTYPES:
        vec = checks.vector_width(dtype)
        itemsize = 4 if dtype == "float32" else 2
        for rows in (1, 8, 32, 128, 4096):
            for n in (0, 1, 7, 4096, 8192, 32768, 131072, 262144, checks.max_n(dtype)):
                cluster, capacity, threads = checks.geometry(rows, n, dtype)
                per = -(-max(n, 1) // cluster)
                assert -(-per // vec) * vec <= capacity, (dtype, rows, n)
                assert capacity * itemsize <= checks.SLICE_BYTES
                assert capacity in checks.CAPACITIES and cluster in checks.CLUSTER_SIZES
                assert threads in (512, 1024)
        assert checks.geometry(1, checks.max_n(dtype) + 1, dtype) is None


def test_geometry_decode_choices():
    assert checks.geometry(1, 131072, "float32")[0] == 16
    assert checks.geometry(1, 8192, "float32")[0] == 2
    # Many rows: clusters shrink so the grid fits the GPU in about one wave.
    assert checks.geometry(128, 131072, "float32")[0] == 4


def test_score_prefers_decode():
    assert checks.score(P(rows=1)) > checks.score(P(rows=4096, n=131072))
    assert checks.score(P(rows=1, n=131072)) == checks.MEASURED_SPEEDUP[(1, 131072)]
    assert checks.score(P(transform="ragged")) == 0.0
    assert 0.0 < checks.score(P(rows=65535, n=1024)) < 1.0
    assert checks.score(P(rows=512, n=131072)) == checks.MEASURED_SPEEDUP[(512, 131072)]
    assert checks.score(P(rows=2048, n=131072)) < 1.0  # many waves, not measured
    assert checks.score(P(rows=4, n=65536)) > 2.0  # inside the measured decode grid


def test_plugin_import_is_cheap():
    code = ("import sys; from topk_radix._plugin import backend; "
            "assert 'cutlass' not in sys.modules, 'cutlass imported'; print(backend.name)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "radix"


def _readme_table():
    return supports_table(Path(__file__).resolve().parents[1] / "README.md")


def test_readme_supports_table_matches_checks():
    table = _readme_table()
    assert set(table) >= {"GPUs", "dtypes", "k", "next_n", "compress_ratio", "hint", "transforms", "graph-safe"}
    assert table["dtypes"] == ", ".join(checks.DTYPES)
    assert table["GPUs"].startswith(f"sm_{checks.MIN_CAPABILITY[0]}{checks.MIN_CAPABILITY[1]}+")
    assert f"{checks.max_n('float32')} (float32)" in table["N"]
    assert f"{checks.max_n('bfloat16')} (16-bit)" in table["N"]
    assert table["k"].startswith(f"1 .. 2^{checks.MAX_K.bit_length() - 1} ")
    assert checks.supports(P(k=checks.MAX_K)) is None and checks.supports(P(k=checks.MAX_K + 1)) is not None
    assert table["rows"] == f"up to {checks.MAX_ROWS}"
    assert table["transforms"] == "none"
    assert table["graph-safe"].startswith("yes")
    # Claimed rows are accepted; what the table says is refused is refused.
    assert checks.supports(P(next_n=4, compress_ratio=4, has_hint=True, k=1 << 20)) is None
    assert checks.supports(P(transform="page_table")) is not None
    assert checks.supports(P(capability=(8, 9))) is not None


def test_reg_geometry_fits():
    for dtype in checks.DTYPES:
        vec = checks.vector_width(dtype)
        for rows in (1, 8, 32, 128, 4096):
            for n in (1, 7, 4096, 8192, 8193, 32768, 131072, checks.REG_MAX_N):
                geo = checks.reg_geometry(rows, n, dtype)
                if geo is None:
                    continue
                cluster, threads, elems = geo
                assert cluster * threads * elems >= n and cluster in checks.CLUSTER_SIZES
                assert elems % vec == 0 and threads * (elems + 1) < 32768
                assert rows * cluster * threads <= checks.REG_WAVE
        assert checks.reg_geometry(1, checks.REG_MAX_N + 1, dtype) is None


def test_reg_geometry_decode_choices():
    """The geometries measured fastest on the decode cells (NOTES.md, 2026-11-29 sweeps)."""
    best = {(1, 8192): (8, 256, 4), (16, 8192): (8, 256, 4), (17, 8192): (1, 1024, 8),  # session 14
            (1, 32768): (8, 512, 8), (1, 131072): (16, 512, 16),
            (8, 32768): (8, 512, 8), (8, 131072): (8, 1024, 16), (32, 131072): (8, 512, 32),
            (32, 32768): (4, 512, 16), (1, 262144): (16, 512, 32), (128, 32768): (2, 512, 32),
            (8, 65536): (8, 1024, 8),
            (1, 12288): (8, 256, 8), (1, 16384): (8, 256, 8), (16, 16384): (8, 256, 8), (32, 16384): (8, 256, 8),
            (33, 16384): (1, 1024, 16)}  # session 15
    for (rows, n), geo in best.items():
        assert checks.reg_geometry(rows, n, "float32") == geo, (rows, n)
    assert checks.reg_geometry(128, 131072, "float32") is None  # beyond one wave: kernel.py
    assert checks.reg_geometry(1, 8192, "bfloat16") == (1, 1024, 8)  # E = 4 is below a 16-bit vector


def test_reg_variant():
    """gather + warp_emit on fp32 grids of <= half a wave; early, fkey, emit1, nozero on fp32
    (NOTES.md, sessions 4 and 12); spare at (8, 512, 8), (4, 512, 16) and (8, 256, 4), push0 on half-wave clusters
    of 8 (sessions 13, 14); 16-bit rows without any."""
    def pick(rows, n, dtype="float32", next_n=1):
        return checks.reg_variant(rows, dtype, checks.reg_geometry(rows, n, dtype), next_n)

    lean = {"fkey": True, "emit1": True, "nozero": True, "preclear": True, "upscan": True, "spare": False,
            "push0": False, "relaxed_exit": True}
    c16 = {**lean, "preclear": False, "upscan": False}  # clusters of 16 (session 12 call 8: even or slower)
    for rows, n in ((1, 32768), (8, 32768)):  # (8, 512, 8)
        assert pick(rows, n) == {"gather": checks.GATHER_KEYS, "warp_emit": True, "early": True, **lean,
                                 "spare": True, "push0": True}, (rows, n)
    assert pick(32, 32768) == {"gather": checks.GATHER_KEYS, "warp_emit": True, "early": True, **lean,
                               "spare": True}  # (4, 512, 16)
    assert pick(8, 131072) == {"gather": checks.GATHER_KEYS, "warp_emit": True, "early": True, **lean,
                               "push0": True}  # (8, 1024, 16)
    for rows, n in ((1, 131072), (1, 262144)):
        assert pick(rows, n) == {"gather": checks.GATHER_KEYS, "warp_emit": True, "early": True, **c16}, (rows, n)
    assert pick(17, 8192) == {"gather": 0, "warp_emit": True, "early": True, **lean,
                             "relaxed_exit": False}  # C=1: nothing to gather, no cluster barrier
    for rows, n in ((1, 16384), (32, 16384)):  # (8, 256, 8), session 15
        assert pick(rows, n) == {"gather": checks.GATHER_KEYS, "warp_emit": True, "early": True, **lean,
                                 "spare": True, "push0": True}, rows
    for rows in (1, 16):  # (8, 256, 4), session 14
        assert pick(rows, 8192) == {"gather": checks.GATHER_KEYS, "warp_emit": True, "early": True, **lean,
                                    "spare": True, "push0": True}, rows
    for rows, n in ((32, 131072), (128, 32768)):
        assert pick(rows, n) == {"gather": 0, "warp_emit": False, "early": True, **lean}, (rows, n)
    assert pick(8, 65536, next_n=2) == {"gather": 0, "warp_emit": False, "early": True, **lean}
    off = {"fkey": False, "emit1": False, "nozero": False, "preclear": False, "upscan": False, "spare": False,
           "push0": False, "relaxed_exit": False}
    assert pick(1, 131072, "bfloat16") == {"gather": 0, "warp_emit": False, "early": False, **off}


def test_wave_split():
    """Rows past the clusters that fit at once go beside them (side.py), in whole requests, when they fit the
    SMs the wave leaves idle; otherwise (or with no occupancy answer) every row stays in the cluster kernel."""
    h200 = {"cluster": 8, "per_sm": 2, "active": 30, "sms": 132}  # gpc_probe.cu: 30 clusters of 8 at 2 per SM
    assert checks.wave_split(32, 1, **h200) == 30
    assert checks.wave_split(33, 1, **h200) == 30
    assert checks.wave_split(30, 1, **h200) == 30
    assert checks.wave_split(8, 1, **h200) == 8
    assert checks.wave_split(32, 4, **h200) == 28  # whole requests of next_n rows
    assert checks.wave_split(32, 1, **{**h200, "active": 0}) == 32  # no answer: no split
    assert checks.wave_split(45, 1, **h200) == 45  # 15 rows past the wave, 12 idle SMs: no split
    assert checks.wave_split(42, 1, **h200) == 30  # 12 rows, 12 idle SMs
    assert checks.wave_split(32, 64, **h200) == 32  # not one whole request fits
    assert checks.reg_ctas_per_sm(512) == 2 and checks.reg_ctas_per_sm(1024) == 1 and checks.reg_ctas_per_sm(256) == 4
    from topk_radix_filter import checks as side_checks

    assert checks.side_supported(2048) and checks.side_supported(side_checks.MAX_K)
    assert not checks.side_supported(side_checks.MAX_K + 1) and not checks.side_supported(0)
