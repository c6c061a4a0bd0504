"""auto's ranking (scores from each backend's measured table) picks, on every cell of the
committed H200 run, the backend that was fastest there. Fails when a table drifts from
the results or a new run changes the winner without the scores following."""

import json
from pathlib import Path

import pytest

from topk_core import registry
from topk_core.protocol import Problem

RESULTS = sorted((Path(__file__).resolve().parents[1] / "benchmarks" / "results").glob("*-cuda-*.json"))
KERNELS = ("radix", "radix_cutlass", "radix_filter", "sgl_fused")
#: Backends that run only with a hint: ranked on the cells of ``topk bench --hint`` runs.
HINTED = ("gvr",)


def _cells():
    for path in RESULTS:
        data = json.loads(path.read_text())
        hinted = data["meta"].get("hint") is not None
        for cell in data["results"]:
            if sum(name in cell["times_us"] for name in KERNELS) >= 2:  # a choice to check
                yield pytest.param(cell, hinted, id=f"{path.stem}:{cell['shape']}")


@pytest.mark.parametrize("cell, hinted", list(_cells()))
def test_best_score_is_fastest_measured(cell, hinted):
    problem = Problem(rows=cell["rows"], n=cell["n"], k=cell["k"], dtype=cell["dtype"], device="cuda",
                      capability=(9, 0), next_n=cell["next_n"], has_hint=hinted)
    scores = {}
    for name in KERNELS + (HINTED if hinted else ()):
        entry = registry.get(name)
        if entry is None or entry.backend is None or entry.backend.supports(problem) is not None:
            continue
        scores[name] = entry.backend.score(problem)
    times = {n: t for n, t in cell["times_us"].items() if n in scores}
    assert len(times) >= 2
    chosen = max(scores, key=scores.get)
    fastest = min(times, key=times.get)
    # A pick within 3% of the fastest is a tie at this measurement's noise.
    assert times[chosen] <= times[fastest] * 1.03, (chosen, times)


def _transform_cells():
    for path in RESULTS:
        for cell in json.loads(path.read_text())["results"]:
            times = cell["times_us"]
            for short, transform in (("page", "page_table"), ("ragged", "ragged")):
                composed, fused = times.get(f"auto:{short}"), times.get(f"sgl_fused:{short}")
                # auto composed in that run where its time differs from the fused call's: both are measured
                if composed and fused and abs(composed - fused) > 0.03 * fused:
                    yield pytest.param(cell, transform, composed, fused, id=f"{path.stem}:{cell['shape']}:{short}")


@pytest.mark.parametrize("cell, transform, composed, fused", list(_transform_cells()))
def test_compose_or_fuse_is_the_faster_measured(cell, transform, composed, fused):
    """``topk_core.sgl`` composes (best plain selection + a torch transform pass) or runs the fused
    transform; on every committed cell where both were timed it takes the faster, within 5%."""
    from topk_core.sgl import compose_faster

    common = dict(rows=cell["rows"], n=cell["n"], k=cell["k"], dtype=cell["dtype"], device="cuda", capability=(9, 0))
    plain, with_t = Problem(**common), Problem(**common, transform=transform)

    def best(problem):
        scores = [0.0]
        for name in KERNELS:
            entry = registry.get(name)
            if entry is not None and entry.backend is not None and entry.backend.supports(problem) is None:
                scores.append(entry.backend.score(problem))
        return max(scores)

    picked = composed if compose_faster(best(plain), best(with_t), transform, cell["rows"], cell["n"], cell["k"]) \
        else fused
    assert picked <= min(composed, fused) * 1.05, (picked, composed, fused)
