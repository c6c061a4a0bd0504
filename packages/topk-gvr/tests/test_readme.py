"""The README's Supports table says what ``checks.py`` does."""

from topk_core.testing.readme import cuda_problem, package_readme, supports_table
from topk_gvr import checks

README = package_readme(__file__)


def _table() -> dict[str, str]:
    return supports_table(README)


def _problem(**facts):
    return cuda_problem(**{"has_hint": True, **facts})


def test_columns():
    assert list(_table()) == ["GPUs", "dtypes", "k", "next_n", "compress_ratio", "hint", "transforms",
                              "graph-safe"]


def test_gpus():
    gpus = _table()["GPUs"]
    for major in checks.CAPABILITY_MAJOR:
        assert f"sm_{major}0" in gpus
        assert checks.supports(_problem(capability=(major, 0))) is None
    assert checks.supports(_problem(capability=(8, 0))) is not None and "sm_80" not in gpus


def test_dtypes():
    listed = [d.strip() for d in _table()["dtypes"].split(",")]
    assert listed == list(checks.SUPPORTED_DTYPES)
    for d in listed:
        assert checks.supports(_problem(dtype=d)) is None


def test_k():
    assert _table()["k"] == f"1 .. 2^{checks.MAX_K.bit_length() - 1}"
    assert checks.supports(_problem(k=1)) is None and checks.supports(_problem(k=checks.MAX_K)) is None
    assert checks.supports(_problem(k=checks.MAX_K + 1)) is not None


def test_next_n_compress_ratio():
    t = _table()
    assert t["next_n"] == "any >= 1" and t["compress_ratio"] == "any >= 1"
    assert checks.supports(_problem(next_n=4, rows=8, compress_ratio=4)) is None


def test_hint_required():
    assert _table()["hint"].startswith("required")
    assert checks.supports(_problem(has_hint=False)) is not None


def test_transforms():
    assert _table()["transforms"] == "none"
    for x in ("page_table", "ragged"):
        assert checks.supports(_problem(transform=x)) is not None
    assert checks.supports(_problem(row_starts=True)) is not None


def test_graph_safe():
    assert _table()["graph-safe"].startswith("yes")
