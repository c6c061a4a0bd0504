"""The README's Supports table says what ``checks.py`` does."""

from topk_core.testing.readme import TritonSupportsTable, package_readme
from topk_sgl_fused import checks


class TestSupportsTable(TritonSupportsTable):
    checks = checks
    readme = package_readme(__file__)

    def test_next_n_compress_ratio_hint(self):
        t = self.table()
        assert t["next_n"] == "any >= 1" and t["compress_ratio"] == "any >= 1"
        assert checks.supports(self.problem(next_n=4, rows=8, compress_ratio=4)) is None
        assert t["hint"].startswith("accepted, ignored")
        assert checks.supports(self.problem(has_hint=True)) is None

    def test_transforms(self):
        listed = [x.strip() for x in self.table()["transforms"].split(",")]
        assert listed == [x for x in checks.SUPPORTED_TRANSFORMS if x != "none"] + ["row_starts"]
        for x in checks.SUPPORTED_TRANSFORMS:
            assert checks.supports(self.problem(transform=x, row_starts=True)) is None
