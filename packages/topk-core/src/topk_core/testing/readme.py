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
