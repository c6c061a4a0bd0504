"""Scores from measured tables: the nearest measured shape, discounted by its distance.

A backend's ``score`` is on the common scale of :class:`topk_core.protocol.Backend`: the
measured speed-up over masked ``torch.topk`` on the H200. Backends measure a grid of
shapes and keep ``{(rows, n): speedup}``; :func:`measured_score` answers for any shape.

Distance is measured in octaves (log2) on each axis. The nearest cell is the one closest
in (log2 rows, log2 N), Euclidean. Its speed-up stands while the problem lies within
``free_octaves`` (default 1: a factor of 2) of it on both axes; beyond that it is halved
for every further octave on the farther axis, so extrapolating far from what was measured
ranks a backend below one measured close by. The result stays positive.

Pure and cheap: no torch, cutlass or triton.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..protocol import Problem

#: Octaves (factors of 2) on either axis within which a measured cell counts in full.
FREE_OCTAVES = 1.0


def _log2(x: int) -> float:
    return math.log2(max(x, 1))


def nearest_cell(table: Mapping[tuple[int, int], float], rows: int, n: int) -> tuple[int, int] | None:
    """The ``(rows, n)`` key nearest to ``(rows, n)`` in log2 space (first of equals), or None if empty."""
    if not table:
        return None
    lr, ln = _log2(rows), _log2(n)
    return min(table, key=lambda cell: (_log2(cell[0]) - lr) ** 2 + (_log2(cell[1]) - ln) ** 2)


def octaves_away(cell: tuple[int, int], rows: int, n: int) -> float:
    """Octaves between ``cell`` and ``(rows, n)`` on the farther axis."""
    return max(abs(_log2(cell[0]) - _log2(rows)), abs(_log2(cell[1]) - _log2(n)))


def measured_score(table: Mapping[tuple[int, int], float], problem: Problem,
                   free_octaves: float = FREE_OCTAVES) -> float | None:
    """The nearest measured speed-up for ``problem``'s (rows, N), halved per octave beyond
    ``free_octaves``; None when ``table`` is empty."""
    cell = nearest_cell(table, problem.rows, problem.n)
    if cell is None:
        return None
    speedup = float(table[cell])
    far = octaves_away(cell, problem.rows, problem.n)
    if far > free_octaves:
        speedup /= 2 ** (far - free_octaves)
    return speedup
