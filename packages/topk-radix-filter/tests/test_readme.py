"""The README's Supports table says what checks.py enforces (they cannot drift apart)."""

import re
from functools import partial

from topk_core.protocol import DTYPES
from topk_core.testing.readme import cuda_problem, package_readme, supports_table
from topk_radix_filter import checks

README = package_readme(__file__)


def table() -> dict[str, str]:
    return supports_table(README)


P = partial(cuda_problem, rows=64, n=65536, k=2048)


def test_table_has_every_row():
    assert set(table()) == {"GPUs", "dtypes", "k", "next_n", "compress_ratio", "hint", "transforms", "graph-safe"}


def test_gpus():
    major, minor = map(int, re.search(r"sm_(\d)(\d)\+", table()["GPUs"]).groups())
    assert (major, minor) == checks.MIN_CAPABILITY
    assert checks.supports(P(capability=(major, minor))) is None
    assert checks.supports(P(capability=(major, minor - 1) if minor else (major - 1, 9))) is not None


def test_dtypes():
    listed = [d.strip() for d in table()["dtypes"].split(",")]
    assert sorted(listed) == sorted(DTYPES)
    for d in DTYPES:
        assert checks.supports(P(dtype=d)) is None


def test_k_range():
    lo, hi = map(int, re.fullmatch(r"(\d+)\.\.(\d+)", table()["k"]).groups())
    assert (lo, hi) == (1, checks.MAX_K)
    assert checks.supports(P(k=lo)) is None and checks.supports(P(k=hi)) is None
    assert checks.supports(P(k=hi + 1)) is not None


def test_next_n_and_compress_ratio():
    assert table()["next_n"] == "any >= 1" and table()["compress_ratio"] == "any >= 1"
    for v in (1, 2, 4, 7):
        assert checks.supports(P(next_n=v, compress_ratio=v)) is None


def test_hint_and_transforms():
    assert table()["hint"].startswith("accepted")
    assert checks.supports(P(has_hint=True)) is None
    assert table()["transforms"] == "none"
    assert checks.supports(P(transform="ragged")) is not None
    assert checks.supports(P(transform="page_table")) is not None


def test_graph_safe():
    assert table()["graph-safe"].startswith("yes")
