"""Host logic of radix_cutlass: supports() and score() are pure and never raise."""

from functools import partial

import pytest

from topk_core.protocol import Problem
from topk_core.testing.readme import cuda_problem
from topk_radix_cutlass import checks
from topk_radix_cutlass._plugin import backend

P = partial(cuda_problem, rows=8, n=32768, k=2048)


@pytest.mark.parametrize("facts", [
    dict(), dict(dtype="bfloat16"), dict(dtype="float16"), dict(k=1), dict(k=1 << 20, n=100),
    dict(next_n=4, compress_ratio=4), dict(return_values=True), dict(capability=(8, 0)),
    dict(capability=(10, 0)), dict(capability=None), dict(n=1 << 20, rows=1), dict(has_hint=True),
    dict(load_balance=False),
])
def test_supports_everything_valid(facts):
    assert checks.supports(P(**facts)) is None
    assert checks.score(P(**facts)) > 0


@pytest.mark.parametrize("facts, word", [
    (dict(device="cpu"), "CUDA"), (dict(capability=(7, 5)), "capability"),
    (dict(transform="ragged"), "transform"), (dict(transform="page_table"), "transform"),
    (dict(row_starts=True), "row_starts"), (dict(dtype="float64"), "dtype"),
    (dict(n=1 << 31), "N="), (dict(n=(1 << 30) + 1), "N="), (dict(k=(1 << 30) + 1), "k="),
    (dict(long_stride=True), "stride"), (dict(rows=1 << 31), "rows="),
])
def test_refusals_have_reasons(facts, word):
    reason = checks.supports(P(**facts))
    assert isinstance(reason, str) and word in reason
    assert checks.score(P(**facts)) == 0.0


def test_never_raises_on_odd_problems():
    for p in (Problem(rows=0, n=0, k=0, dtype="float32"), Problem(rows=1, n=1, k=1, dtype="x", capability="bad")):
        assert checks.supports(p) is None or isinstance(checks.supports(p), str)


def test_plugin_is_named():
    assert backend.name == "radix_cutlass"
    assert backend.protocol == 1


def test_plugin_import_does_not_import_cutlass():
    import subprocess
    import sys

    code = ("import sys; import topk_radix_cutlass._plugin as p; p.backend.supports; "
            "print('cutlass' in sys.modules, 'triton' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_plan_follows_measurements():
    from topk_radix_cutlass.launch import plan

    assert plan(1, 131072) == (1024, 13)
    assert plan(128, 32768) == (1024, 13)
    assert plan(512, 131072) == (1024, 13)
    assert plan(1024, 65536) == (512, 13)
    assert plan(4096, 8192) == (512, 11)
    assert plan(1, 8192) == (1024, 11)


def test_score_follows_the_measured_table():
    assert checks.score(P(rows=1, n=131072)) == checks.MEASURED_SPEEDUP[(1, 131072)]
    assert checks.score(P(rows=512, n=131072)) > checks.score(P(rows=8, n=131072))
    assert checks.score(P(rows=3, n=5)) > 0  # tiny problems still beat reference (score 0)
    assert checks.score(P(rows=1 << 20, n=1 << 24)) > 0


@pytest.mark.parametrize("bits", [16, 32])
@pytest.mark.parametrize("first", [11, 12, 13])
def test_digits_tile_the_key(bits, first):
    pytest.importorskip("cutlass")
    from topk_radix_cutlass.kernel import digits

    ds = digits(bits, first)
    assert ds[0] == (bits - first, first)
    assert all(width <= first for _, width in ds)  # the histogram is sized by the first digit
    covered = sorted(b for shift, width in ds for b in range(shift, shift + width))
    assert covered == list(range(bits))
