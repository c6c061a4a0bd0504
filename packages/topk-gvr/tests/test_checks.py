"""Host logic: the refusals and their reasons, the score, the plugin's import cost, the config."""

import subprocess
import sys

import pytest

from topk_core.testing.readme import cuda_problem
from topk_gvr import checks


def P(**facts):
    return cuda_problem(**{"has_hint": True, **facts})


def test_supports_decode_shapes():
    for rows, n in [(1, 8192), (1, 131072), (8, 131072), (32, 131072), (1, 1 << 20), (4096, 8192)]:
        for dtype in checks.SUPPORTED_DTYPES:
            assert checks.supports(P(rows=rows, n=n, k=2048, dtype=dtype)) is None


@pytest.mark.parametrize("facts,word", [
    (dict(has_hint=False), "hint"),
    (dict(dtype="float64"), "dtype"),
    (dict(transform="page_table"), "transform"),
    (dict(row_starts=True), "row_starts"),
    (dict(device="cpu"), "TRITON_INTERPRET"),
    (dict(device="mps"), "CUDA"),
    (dict(capability=(8, 0)), "sm_80"),
    (dict(capability=(10, 0)), "sm_100"),
    (dict(n=checks.MAX_N + 1), "N="),
    (dict(k=checks.MAX_K + 1), "k="),
    (dict(rows=1 << 31), "rows"),
])
def test_refusals_have_reasons(facts, word):
    reason = checks.supports(P(**facts))
    assert reason and word in reason


def test_cpu_under_the_interpreter():
    assert checks.supports(P(device="cpu", capability=None), interpreter=True) is None


def test_never_raises():
    class Odd:
        has_hint = True

        @property
        def dtype(self):
            raise RuntimeError("boom")

    assert "unusual" in checks.supports(Odd())


def test_unmeasured_score_ranks_below_measured_backends(monkeypatch):
    monkeypatch.setattr(checks, "MEASURED", {})  # a table emptied (a new GPU, say) falls back, never raises
    assert 0 < checks.score(P()) == checks.UNMEASURED_SCORE < 0.1


def test_score_follows_a_measured_table(monkeypatch):
    monkeypatch.setattr(checks, "MEASURED", {(1, 131072): 9.0, (32, 131072): 3.0})
    assert checks.score(P(rows=1, n=131072)) == 9.0 and checks.score(P(rows=32, n=131072)) == 3.0


def test_entry_point_does_not_import_triton():
    code = "import sys; from topk_gvr._plugin import backend; print('triton' in sys.modules, backend.name)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "gvr"]


@pytest.mark.parametrize("rows,n,k", [(1, 131072, 2048), (32, 131072, 512), (4096, 8192, 2048), (1, 1 << 20, 2048)])
def test_config_holds_the_hint_candidates(rows, n, k):
    from topk_gvr.launch import CAP_PER_K, gvr_config

    config = gvr_config(rows, n, k, 132)
    assert config.cap >= min(CAP_PER_K * k, n) and config.cap >= k + config.block


def test_cap_grows_with_the_row_within_the_list_budget():
    from topk_gvr.launch import LIST_BYTES, gvr_config

    assert gvr_config(1, 131072, 2048, 132).cap >= 131072 // 4  # a decode row: room for a weaker hint
    assert gvr_config(1, 1 << 20, 2048, 132).cap >= (1 << 20) // 4
    for rows, n in ((32, 131072), (512, 131072), (4096, 8192), (1, 1000)):
        config = gvr_config(rows, n, 2048, 132)
        assert config.cap <= max(n, 2048 + config.block)  # never past the row
        assert 8 * rows * config.cap <= max(LIST_BYTES, 8 * rows * 2 * 2048), (rows, n)  # the budget, or the minimum


def test_candidate_lists_stay_int32():
    """A row's list is k + 2 x cap words, sized in int32 by the kernels (session 43's audit: 2 rows of 715827883
    columns at k = 715827882 wrapped it); the cap still holds the exact stream fallback's k + block."""
    from topk_gvr.launch import INT32_MAX, gvr_cap
    from topk_sgl_fused import launch as sgl

    for rows, n, k in ((2, 715_827_883, checks.MAX_K), (2, 1 << 30, checks.MAX_K), (1, 1 << 30, 1 << 27),
                       (32, 131072, 2048), (1, 1 << 20, 2048)):
        config = sgl.pick_split(rows, n, k, 132)
        cap = gvr_cap(rows, n, k, config)
        assert k + 2 * cap <= INT32_MAX and cap >= k + config.block, (rows, n, k, cap)
