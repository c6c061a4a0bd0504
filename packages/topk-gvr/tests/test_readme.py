"""The README's Supports table says what ``checks.py`` does."""

from topk_core.testing.readme import TritonSupportsTable, package_readme
from topk_gvr import checks


class TestSupportsTable(TritonSupportsTable):
    checks = checks
    readme = package_readme(__file__)
    facts = {"has_hint": True}

    def test_next_n_compress_ratio(self):
        t = self.table()
        assert t["next_n"] == "any >= 1" and t["compress_ratio"] == "any >= 1"
        assert checks.supports(self.problem(next_n=4, rows=8, compress_ratio=4)) is None

    def test_hint_required(self):
        assert self.table()["hint"].startswith("required")
        assert checks.supports(self.problem(has_hint=False)) is not None

    def test_transforms(self):
        assert self.table()["transforms"] == "none"
        for x in ("page_table", "ragged"):
            assert checks.supports(self.problem(transform=x)) is not None
        assert checks.supports(self.problem(row_starts=True)) is not None
