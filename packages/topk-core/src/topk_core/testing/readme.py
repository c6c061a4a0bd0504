"""Read a backend README's **Supports** table, so a test can hold it against ``checks.py``."""

from __future__ import annotations

from pathlib import Path

ROWS = ("GPUs", "dtypes", "k", "next_n", "compress_ratio", "hint", "transforms", "graph-safe")


def package_readme(test_file: str | Path) -> Path:
    """The README.md of the package whose ``tests/`` folder holds ``test_file``."""
    return Path(test_file).resolve().parents[1] / "README.md"


def cuda_problem(**facts):
    """A ``Problem`` on an sm_90 GPU for host-logic tests: 4 rows of 4096 fp32 columns, k=64,
    unless ``facts`` say otherwise (``functools.partial`` it for other defaults)."""
    from ..protocol import Problem

    return Problem(**{**dict(rows=4, n=4096, k=64, dtype="float32", device="cuda", capability=(9, 0)), **facts})


def supports_table(readme: str | Path) -> dict[str, str]:
    """The first table under ``## Supports`` as {row: value}.

    Accepts both layouts: one column per fact (a header of ``ROWS`` and one data row)
    or one row per fact (``| fact | value |``, any header).
    """
    text = Path(readme).read_text()
    if "## Supports" not in text:
        raise ValueError(f"{readme}: no '## Supports' section")
    section = text.split("## Supports", 1)[1].split("\n## ", 1)[0]
    lines = [line.strip() for line in section.splitlines() if line.strip().startswith("|")]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    cells = [row for row in cells if not all(set(c) <= set("-: ") for c in row)]  # drop |---|
    if cells and cells[0][0] == ROWS[0] and len(cells[0]) > 2:
        return dict(zip(cells[0], cells[1]))
    return {row[0]: row[1] for row in cells[1:] if len(row) == 2}


class TritonSupportsTable:
    """The Supports table rows that Triton backends share, held against their checks module (``CAPABILITY_MAJOR``,
    ``SUPPORTED_DTYPES``, ``MAX_K``). Subclass it as ``Test...`` with ``checks``, ``readme`` (``package_readme``)
    and, where a typical call needs more facts, ``facts``."""

    checks = None
    readme: Path | None = None
    facts: dict = {}

    def problem(self, **facts):
        return cuda_problem(**{**self.facts, **facts})

    def table(self) -> dict[str, str]:
        return supports_table(self.readme)

    def test_columns(self):
        assert list(self.table()) == list(ROWS)

    def test_gpus(self):
        gpus = self.table()["GPUs"]
        for major in self.checks.CAPABILITY_MAJOR:
            assert f"sm_{major}0" in gpus
            assert self.checks.supports(self.problem(capability=(major, 0))) is None
        assert self.checks.supports(self.problem(capability=(8, 0))) is not None and "sm_80" not in gpus

    def test_dtypes(self):
        listed = [d.strip() for d in self.table()["dtypes"].split(",")]
        assert listed == list(self.checks.SUPPORTED_DTYPES)
        for d in listed:
            assert self.checks.supports(self.problem(dtype=d)) is None

    def test_k(self):
        max_k = self.checks.MAX_K
        assert self.table()["k"] == f"1 .. 2^{max_k.bit_length() - 1}"
        assert self.checks.supports(self.problem(k=1)) is None and self.checks.supports(self.problem(k=max_k)) is None
        assert self.checks.supports(self.problem(k=max_k + 1)) is not None

    def test_graph_safe(self):
        assert self.table()["graph-safe"].startswith("yes")
