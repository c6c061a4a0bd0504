"""Host logic of radix_filter: supports() and score() are pure and never raise."""

import subprocess
import sys
from functools import partial

import pytest

from topk_core.protocol import Problem
from topk_core.testing.readme import cuda_problem
from topk_radix_filter import checks
from topk_radix_filter._plugin import backend

P = partial(cuda_problem, rows=128, n=131072, k=2048)


@pytest.mark.parametrize("facts", [
    dict(), dict(dtype="bfloat16"), dict(dtype="float16"), dict(k=1), dict(k=16384), dict(k=16384, n=100),
    dict(next_n=4, compress_ratio=4), dict(return_values=True), dict(capability=(8, 0)),
    dict(capability=(10, 0)), dict(capability=None), dict(n=1 << 20, rows=1), dict(has_hint=True),
    dict(load_balance=False), dict(rows=1), dict(rows=4096, n=8192), dict(rows=1, n=1 << 30),
])
def test_supports_the_scope(facts):
    assert checks.supports(P(**facts)) is None
    assert checks.score(P(**facts)) > 0


@pytest.mark.parametrize("facts, word", [
    (dict(device="cpu"), "CUDA"), (dict(capability=(7, 5)), "capability"),
    (dict(transform="ragged"), "transform"), (dict(transform="page_table"), "transform"),
    (dict(row_starts=True), "row_starts"), (dict(dtype="float64"), "dtype"),
    (dict(n=1 << 31), "N="), (dict(n=(1 << 30) + 1), "N="), (dict(k=16385), "k="), (dict(k=0), "k="),
    (dict(long_stride=True), "stride"), (dict(rows=1 << 31), "rows="),
])
def test_refusals_have_reasons(facts, word):
    reason = checks.supports(P(**facts))
    assert isinstance(reason, str) and word in reason


def test_never_raises_on_odd_problems():
    odd = (Problem(rows=0, n=0, k=0, dtype="float32"), Problem(rows=1, n=1, k=1, dtype="x", capability="bad"),
           Problem(rows=-1, n=-5, k=None, dtype=None))
    for p in odd:
        reason = checks.supports(p)
        assert reason is None or (isinstance(reason, str) and reason)
        assert isinstance(checks.score(p), float)


def test_score_follows_the_measured_table(monkeypatch):
    monkeypatch.setattr(checks, "MEASURED", {(32, 32768): 2.0, (512, 131072): 6.0})
    assert checks.score(P(rows=30, n=30000)) == 2.0
    assert checks.score(P(rows=600, n=140000)) == 6.0


def test_score_prefers_batches_without_measurements(monkeypatch):
    monkeypatch.setattr(checks, "MEASURED", {})
    assert checks.score(P(rows=128)) > checks.score(P(rows=1))


def test_plugin_is_named_and_lazy():
    assert backend.name == "radix_filter" and backend.protocol == 1
    code = ("import sys; import topk_radix_filter._plugin as p; from topk_core.protocol import Problem; "
            "p.backend.supports(Problem(rows=1, n=8, k=1, dtype='float32')); p.backend.environment(); "
            "print('cutlass' in sys.modules, 'triton' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_variant_key_holds_every_codegen_knob():
    """The compile-cache key must change with every field of Variant."""
    from dataclasses import asdict, fields

    from topk_radix_filter.launch import DEFAULT, Variant

    assert set(asdict(DEFAULT)) == {f.name for f in fields(Variant)}


def test_measured_table_is_the_h200_run():
    """The committed H200 run (2026-11-29) fills MEASURED: its cells score exactly."""
    assert len(checks.MEASURED) >= 13
    for (rows, n), speedup in checks.MEASURED.items():
        assert checks.score(P(rows=rows, n=n)) == speedup > 0


@pytest.mark.parametrize("rows, n, which", [
    (128, 131072, "DEFAULT"), (32, 32768, "FEW_ROWS"), (64, 131072, "FEW_LONG_ROWS"), (65, 16384, "DEFAULT"),
    (64, 65535, "FEW_ROWS"), (1, 65536, "FEW_LONG_ROWS_3"), (32, 131072, "FEW_LONG_ROWS_3"),
    (33, 131072, "FEW_LONG_ROWS"), (65, 131072, "DEFAULT"),
    (264, 131072, "DEFAULT"), (512, 131072, "MANY_ROWS_F32"),
    (512, 32768, "LIGHT_ONE_WAVE"), (396, 32768, "LIGHT"), (397, 65536, "LIGHT_ONE_WAVE"),
    (528, 16384, "LIGHT_ONE_WAVE"), (529, 32768, "LIGHT"), (1024, 65536, "LIGHT"), (4096, 8192, "SHORT_MANY"),
    (2047, 8192, "SHORT_F32_WIDE_8K"), (2047, 8193, "SHORT_F32_WIDE"), (2048, 16383, "SHORT_MANY_LF"),
    (3168, 8192, "SHORT_MANY_LF"),
    (3169, 8192, "SHORT_MANY"), (1, 16383, "SHORT_F32"), (1, 16384, "FEW_ROWS"),
    (396, 8192, "SHORT_F32"), (397, 8192, "SHORT_F32_WIDE_8K"), (512, 16383, "SHORT_F32_WIDE"),
    (264, 16383, "SHORT_F32"), (265, 16384, "LIGHT"), (1, 524288, "FEW_LONG_ROWS_3"), (1, 524289, "FEW_HUGE_ROWS"),
    (32, 1 << 20, "FEW_HUGE_ROWS"), (33, 1 << 20, "FEW_LONG_ROWS"),
])
def test_plan_picks_the_measured_variant(rows, n, which):
    from topk_radix_filter import launch

    assert launch.plan(rows, n) == launch.PLANNED[which]


def test_plan_keeps_256_thread_variants_to_float32_and_counts_sms():
    """The 256-thread variants were measured on float32 (16-bit builds need 69-80 registers), and
    LIGHT_ONE_WAVE's row range is 3 to 4 CTAs per SM of the GPU at hand."""
    from topk_radix_filter import launch

    for dtype in ("bfloat16", "float16"):
        assert launch.plan(512, 32768, dtype=dtype) == launch.LIGHT_16  # 4 CTAs per SM by min_ctas (session 14)
        assert launch.plan(265, 65536, dtype=dtype) == launch.LIGHT_16
        assert launch.plan(265, 65537, dtype=dtype) == launch.MANY_ROWS
        assert launch.plan(4096, 8192, dtype=dtype) == launch.SHORT
    assert launch.plan(512, 32768, sms=114) == launch.LIGHT  # 456 one-wave slots: two waves anyway
    assert launch.plan(456, 32768, sms=114) == launch.LIGHT_ONE_WAVE
    assert launch.plan(342, 32768, sms=114) == launch.LIGHT
    assert launch.plan(343, 8192, sms=114) == launch.SHORT_F32_WIDE_8K  # four 512-thread CTAs per SM past three
    assert launch.plan(343, 8192, sms=114, dtype="bfloat16") == launch.SHORT


def test_planned_lists_every_variant_plan_picks():
    from itertools import product

    from topk_radix_filter import launch

    picked = {launch.plan(rows, n, cap, sms, dtype) for rows, n, cap, sms, dtype in product(
        range(1, 4200, 7), (1024, 16383, 16384, 65535, 65536, 65537, 1 << 20), ((8, 0), (9, 0)), (114, 132),
        ("float32", "bfloat16"))}
    assert picked == set(launch.PLANNED.values())


def test_plan_keeps_clusters_off_before_hopper():
    """The two-CTA cluster variant needs sm_90; an sm_80 GPU gets the one-CTA variant."""
    from topk_radix_filter import launch

    assert launch.plan(32, 131072, (9, 0)).group == 3
    assert launch.plan(64, 131072, (9, 0)).group == 2
    assert launch.plan(32, 131072, (8, 0)) == launch.FEW_ROWS
    assert all(launch.plan(rows, n, (8, 6)).group == 1 for rows in (1, 64, 65, 512) for n in (8192, 65536, 1 << 20))


def test_longest_first_host_logic(monkeypatch):
    """``longest_first``: which CTAs take their own rows, and which build each launch compiles (the plain builds of
    variants that differ only in the order's host settings share one cache key; the ordered entry has its own)."""
    from dataclasses import replace

    from topk_radix_filter import launch as rf

    # Shipped (session 45) on the float32 variants of many waves; 16-bit rows were not measured with it.
    assert {name for name, v in rf.PLANNED.items() if v.longest_first} == {"SHORT_MANY_LF", "LIGHT", "MANY_ROWS_F32"}
    assert rf.plan(512, 131072, dtype="bfloat16").longest_first == 0 and rf.LIGHT_16.longest_first == 0
    lf = replace(rf.SHORT_MANY, longest_first=6)
    assert rf.first_wave(lf, 4096, 132) == 792 and rf.first_wave(lf, 500, 132) == 500
    assert rf.first_wave(rf.SHORT_MANY_LF, 3000, 132) == 396  # three CTAs per SM take their own rows
    assert rf.first_wave(rf.SHORT_MANY, 4096, 132) == 4096  # off: every CTA its own row
    keys = []
    monkeypatch.setattr(rf, "compile_cached", lambda key, thunk: keys.append(key))
    rf.compiled("float32", False, "sm_90a", rf.SHORT_MANY)
    rf.compiled("float32", False, "sm_90a", replace(lf, order_pdl=False))
    rf.compiled("float32", False, "sm_90a", lf, ordered=True)
    rf.compiled("float32", False, "sm_90a", replace(lf, order_pdl=False), ordered=True)
    assert keys[0] == keys[1] and len({keys[0], keys[2], keys[3]}) == 3
