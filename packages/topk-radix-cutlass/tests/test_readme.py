"""The README's Supports table says what checks.py does: the two cannot drift apart."""

from topk_core.testing.readme import cuda_problem, package_readme, supports_table
from topk_radix_cutlass import checks

README = package_readme(__file__)


def table() -> dict[str, str]:
    return supports_table(README)


P = cuda_problem


def test_table_matches_checks():
    t = table()
    assert set(t) == {"GPUs", "dtypes", "k", "next_n", "compress_ratio", "hint", "transforms", "graph-safe"}
    major, minor = checks.MIN_CAPABILITY
    assert t["GPUs"] == f"sm_{major}{minor}+"
    assert checks.supports(P(capability=(major, minor))) is None
    assert checks.supports(P(capability=(major - 1, 5))) is not None
    assert tuple(d.strip() for d in t["dtypes"].split(",")) == checks.DTYPES
    for d in checks.DTYPES:
        assert checks.supports(P(dtype=d)) is None
    assert t["k"].startswith(f"1 .. 2^{checks.MAX_K.bit_length() - 1} ")
    for k in (1, 2048, 5000, 1 << 20, checks.MAX_K):
        assert checks.supports(P(k=k)) is None
    assert checks.supports(P(k=checks.MAX_K + 1)) is not None
    assert t["next_n"] == "yes" and checks.supports(P(rows=8, next_n=4)) is None
    assert t["compress_ratio"] == "yes" and checks.supports(P(compress_ratio=4)) is None
    assert t["hint"].startswith("accepted") and checks.supports(P(has_hint=True)) is None
    assert t["transforms"] == "none"
    assert checks.supports(P(transform="ragged")) and checks.supports(P(transform="page_table"))
    assert t["graph-safe"] == "yes"
