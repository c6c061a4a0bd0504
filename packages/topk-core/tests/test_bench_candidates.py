"""The benchmark's SGL candidate on windows of a wider buffer (``SglTransform(windows=...)``), on CPU with the
reference backend: results are window columns, checked against the inputs' rows."""

import pytest
import torch

from topk_core.bench.candidates import SglTransform, make_inputs
from topk_core.bench.grids import Shape
from topk_core.testing import check_topk


def _windows(inputs, shape, starts):
    """Each input's rows placed at ``starts`` in buffers 4 columns wider, noise around them."""
    cols = starts[:, None].long() + torch.arange(shape.n)[None, :]
    return [torch.randn(shape.rows, shape.n + 4).scatter(1, cols, x) for x in inputs.logits]


@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_sgl_candidate_reads_row_windows(transform):
    shape = Shape(5, 600, k=40)
    inputs = make_inputs(shape, 2, "cpu")
    starts = torch.tensor([1, 3, 2, 0, 1], dtype=torch.int32)
    windows = (_windows(inputs, shape, starts), starts)
    prep = SglTransform("reference", transform, windows).prepare(shape, inputs)
    for i in range(2):
        prep.step(i)
        check_topk(inputs.logits[i], inputs.seq_lens[i], shape.k, prep.result(i))
    # the same buffers read from the wrong starts select other keys
    wrong = SglTransform("reference", transform, (windows[0], (starts + 1) % 4)).prepare(shape, inputs)
    wrong.step(0)
    with pytest.raises(AssertionError):
        check_topk(inputs.logits[0], inputs.seq_lens[0], shape.k, wrong.result(0))


def test_sgl_candidate_on_another_transforms_kernel(monkeypatch):
    """``pick_as``: the calls run inside the backend's ``kernel_as(transform)`` context; a backend without one is
    not timed, with the reason."""
    from topk_core.bench import candidates

    shape = Shape(3, 500, k=30)
    inputs = make_inputs(shape, 2, "cpu")
    assert isinstance(SglTransform("reference", "none", pick_as="page_table").prepare(shape, inputs), str)
    entered = []

    class Chooser:
        def __init__(self, transform):
            self.transform = transform

        def __enter__(self):
            entered.append(self.transform)

        def __exit__(self, *exc):
            entered.append("exit")

    monkeypatch.setattr(candidates, "kernel_as", lambda backend: Chooser if backend == "reference" else None)
    cand = SglTransform("reference", "none", pick_as="page_table")
    assert cand.name == "reference:v2@page"
    prep = cand.prepare(shape, inputs)
    prep.step(1)
    assert entered == ["page_table", "exit"]
    check_topk(inputs.logits[1], inputs.seq_lens[1], shape.k, prep.result(1))
