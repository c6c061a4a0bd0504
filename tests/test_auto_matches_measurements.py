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


def _best_score(problem):
    """The best kernel backend's score on ``problem`` (0 where none runs it)."""
    scores = [0.0]
    for name in KERNELS:
        entry = registry.get(name)
        if entry is not None and entry.backend is not None and entry.backend.supports(problem) is None:
            scores.append(entry.backend.score(problem))
    return max(scores)


def _check_compose_pick(rows, n, k, dtype, transform, composed, fused):
    """``compose_faster`` on the best scores picks, of the two measured times, one within 5% of the faster."""
    from topk_core.sgl import compose_faster

    common = dict(rows=rows, n=n, k=k, dtype=dtype, device="cuda", capability=(9, 0))
    plain, with_t = Problem(**common), Problem(**common, transform=transform)
    picked = composed if compose_faster(_best_score(plain), _best_score(with_t), transform, rows, n, k) else fused
    assert picked <= min(composed, fused) * 1.05, (picked, composed, fused)


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
    """``topk_core.sgl`` composes (best plain selection + a transform pass: torch ops in runs before topk-core 0.2.7,
    the Triton pass since) or runs the fused transform; on every committed cell where both were timed it takes the
    faster, within 5%."""
    _check_compose_pick(cell["rows"], cell["n"], cell["k"], cell["dtype"], transform, composed, fused)


def _compose_bench_cells():
    """Cells of ``shared/device/compose_bench.py`` runs (from session 54; older ``-compose-`` files are other runs),
    each transform."""
    root = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
    for path in sorted(root.glob("**/*-compose-*.json")):
        for cell in json.loads(path.read_text()).get("cells", ()):
            for short, transform in (("page", "page_table"), ("ragged", "ragged")):
                times = cell["times"]
                composed, fused = times.get(f"auto:{short}[tpass]"), times.get(f"auto:{short}[fused]")
                if composed and fused:
                    name = f"{path.stem}:{cell['cell']}:{short}"
                    yield pytest.param(cell["cell"], transform, composed, fused, id=name)


@pytest.mark.parametrize("label, transform, composed, fused", list(_compose_bench_cells()))
def test_compose_model_takes_the_faster_pass_run(label, transform, composed, fused):
    """On every cell of the committed compose_bench runs, ``compose_faster`` (with each backend's scores) picks the
    faster of the fused call and the plain selection plus the Triton pass, within 5%."""
    rows, n = (int(v) for v in label.split()[0].replace("K", "").split("x"))
    k = int(label.split("k=")[1]) if "k=" in label else 2048
    _check_compose_pick(rows, n * 1024, k, "bfloat16" if "bf16" in label else "float32", transform, composed, fused)
