"""The benchmark's candidates on CPU with the reference backend: the SGL candidate on windows of a wider buffer
(``SglTransform(windows=...)``), results window columns checked against the inputs' rows; and ``--hint``: every
input set's ``pre_idx`` reaches the top_k_varlen candidates, and a backend that needs one runs only with it."""

import json
import sys
import types

import pytest
import torch

from topk_core import registry
from topk_core.bench.candidates import FlashInferVarlen, Ours, SglTransform, make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.run import run_grid
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


class NeedsHint:
    """The reference's answers from a backend that refuses problems without a hint (as gvr does); records the
    hints it is given. It outranks the reference, so auto picks it whenever a hint is passed."""

    name = "needs_hint_bench"
    protocol = 1

    def __init__(self):
        self.hints = []

    def environment(self):
        return None

    def supports(self, problem):
        return None if problem.has_hint else "needs a pre_idx hint"

    def score(self, problem):
        return 1.0

    def run(self, problem, call):
        self.hints.append(call.pre_idx)
        registry.get("reference").backend.run(problem, call)


@pytest.fixture
def needs_hint():
    backend = NeedsHint()
    registry.register(backend)
    yield backend
    registry.entries(refresh=True)


def test_make_inputs_hints():
    shape = Shape(6, 500, k=40, next_n=2)
    assert make_inputs(shape, 2, "cpu").pre_idx is None
    inputs = make_inputs(shape, 2, "cpu", hint="previous")
    assert [tuple(h.shape) for h in inputs.pre_idx] == [(3, 40)] * 2
    assert all(h.dtype == torch.int32 and h.is_contiguous() for h in inputs.pre_idx)
    assert not torch.equal(inputs.pre_idx[0], inputs.pre_idx[1])  # each input set its own hint
    assert inputs.hint(1)["pre_idx"] is inputs.pre_idx[1] and make_inputs(shape, 1, "cpu").hint(0) == {}


def test_backend_that_needs_a_hint_runs_only_with_hints(needs_hint):
    """Without hints it is refused with its reason (and auto does not pick it); with them it and auto run,
    given each input set's own hint, and both are checked and timed."""
    name = needs_hint.name
    shapes = [Shape(4, 600, k=40)]
    plain = run_grid(shapes, [Ours("auto"), Ours(name)], "cpu", None)[0]
    assert plain.notes == {name: "needs a pre_idx hint"} and set(plain.times) == {"auto"}
    assert needs_hint.hints == []
    hinted = run_grid(shapes, [Ours("auto"), Ours(name)], "cpu", None, hint="previous")[0]
    assert hinted.notes == {} and set(hinted.times) == {"auto", name}
    assert needs_hint.hints and all(h is not None and tuple(h.shape) == (4, 40) for h in needs_hint.hints)
    assert len({h.data_ptr() for h in needs_hint.hints}) == 2  # the two rotating input sets' hints


def test_flashinfer_varlen_gets_the_hint(monkeypatch):
    """The FlashInfer peer is given ``pre_idx`` only when the inputs carry hints (stub module on CPU)."""
    seen = []
    stub = types.SimpleNamespace(top_k_varlen=lambda *args, **kw: seen.append(kw))
    monkeypatch.setitem(sys.modules, "flashinfer", stub)
    shape = Shape(2, 300, k=16)
    for hint in (None, "previous"):
        inputs = make_inputs(shape, 2, "cpu", hint=hint)
        FlashInferVarlen().prepare(shape, inputs).step(1)
        assert ("pre_idx" in seen[-1]) == (hint is not None)
    assert seen[-1]["pre_idx"] is inputs.pre_idx[1]


@pytest.mark.parametrize("flags,noise,suffix", [([], None, ""), (["--hint"], 0.05, "-hint"),
                                                 (["--hint", "0.3"], 0.3, "-hint0p3")])
def test_cli_bench_records_hints(flags, noise, suffix, tmp_path, capsys):
    from topk_core.__main__ import main

    assert main(["bench", "--grid", "cpu", "--limit", "1", "--replays", "2", "--out", str(tmp_path)] + flags) == 0
    assert "reference" in capsys.readouterr().out
    (path,) = tmp_path.glob("*.json")
    meta = json.loads(path.read_text())["meta"]
    assert meta["hint"] == ("previous" if flags else None) and meta["hint_noise"] == noise
    assert path.stem.endswith("cpu" + suffix)  # a hinted run never overwrites a plain one, nor one of other noise


def test_hint_noise_moves_the_hint():
    """More noise, a hint further from the rows' own top k (the bench's ``--hint NOISE``)."""
    from topk_core.testing import make_hint

    x = torch.randn(4, 4000, generator=torch.Generator().manual_seed(3))
    lens = torch.full((4,), 4000, dtype=torch.int32)
    exact = make_hint(x, lens, 200, mode="exact")

    def kept(noise):
        hint = make_hint(x, lens, 200, mode="previous", noise=noise, seed=1)
        return sum(len(set(a.tolist()) & set(b.tolist())) for a, b in zip(hint, exact))

    assert kept(0.0) > kept(0.05) > kept(0.5)
    with pytest.raises(ValueError, match="noise"):
        make_hint(x, lens, 200, noise=-1.0)


def test_make_inputs_kind():
    """``--kind``: each input set its own rows of the kind, every row's k-th value on the plateau (0.0) for
    "plateau"; randn rows unchanged by the option; an unknown kind refused before any row is drawn."""
    shape = Shape(5, 3000, k=64)
    assert all(torch.equal(a, b) for a, b in zip(make_inputs(shape, 2, "cpu").logits,
                                                  make_inputs(shape, 2, "cpu", kind="randn").logits))
    inputs = make_inputs(shape, 2, "cpu", kind="plateau")
    assert not torch.equal(inputs.logits[0], inputs.logits[1])
    for x, lens in zip(inputs.logits, inputs.lengths):
        for row, n in zip(x, lens.tolist()):
            assert torch.topk(row[:n], shape.k).values[-1].item() == 0.0  # the k-th sits on the plateau
    with pytest.raises(ValueError, match="kind: expected one of"):
        make_inputs(shape, 1, "cpu", kind="gaussian")


@pytest.mark.parametrize("kind,suffix", [("plateau", "-plateau"), ("int_ties", "-int_ties")])
def test_cli_bench_records_kind(kind, suffix, tmp_path, capsys):
    from topk_core.__main__ import main

    argv = ["bench", "--grid", "cpu", "--limit", "1", "--replays", "2", "--out", str(tmp_path), "--kind", kind]
    assert main(argv) == 0
    assert f"{kind} rows" in capsys.readouterr().out
    (path,) = tmp_path.glob("*.json")
    assert json.loads(path.read_text())["meta"]["kind"] == kind
    assert path.stem.endswith("cpu" + suffix)  # never overwrites the randn table


class _Flaky:
    """A candidate that answers like the reference, then breaks input set ``bad_set`` from call ``from_call`` on
    (counted over every step call: the eager pass makes the first ``count`` of them)."""

    kind = "ours"

    def __init__(self, name, bad_set, from_call):
        self.name, self.bad_set, self.from_call = name, bad_set, from_call

    def prepare(self, shape, inputs):
        from topk_core import top_k_varlen
        from topk_core.bench.candidates import Prepared

        outs, calls = {}, [0]

        def step(i):
            idx, _ = top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, backend="reference")
            if i == self.bad_set and calls[0] >= self.from_call:
                idx = idx.clone()
                idx[0, 0] = idx[0, 1]  # a repeated index
            calls[0] += 1
            outs[i] = idx

        return Prepared(step, lambda i: outs[i])


def test_every_input_set_checked_before_and_after_timing():
    """Set 1 wrong from the start (the check used to read set 0 only), and a path wrong only in the timed passes:
    both are WRONG, with no time; a correct candidate keeps its time and its samples' spread."""
    shapes = [Shape(3, 400, k=20)]
    row = run_grid(shapes, [_Flaky("set1", 1, 0), _Flaky("timed", 0, 2), _Flaky("fine", 9, 0)], "cpu", None)[0]
    assert set(row.times) == {"fine"}
    assert row.notes["set1"].startswith("WRONG: eager, input set 1")
    assert row.notes["timed"].startswith("WRONG: after the timed replays, input set 0")
    s = row.spreads["fine"]
    assert s["min"] <= s["q1"] <= s["median"] == row.times["fine"] <= s["q3"] <= s["max"] and s["n"] == 3
    assert row.rotations == 2 and row.set_bytes == 3 * 400 * 4


def test_valid_floor_reads_the_valid_columns():
    from topk_core.bench.run import _valid_floor

    shape = Shape(4, 1000, k=20)
    inputs = make_inputs(shape, 3, "cpu")
    cols = sum(float(x.sum()) for x in inputs.lengths) / 3
    assert _valid_floor(shape, inputs, 2.0) == pytest.approx(cols * 4 / 2e3)
    assert 0.5 * shape.nbytes / 2e3 <= _valid_floor(shape, inputs, 2.0) <= shape.nbytes / 2e3
    assert _valid_floor(shape, inputs, None) is None


def test_bench_transforms_are_checked_through_their_inverse():
    """The page table permutes every row and the ragged offsets are nonzero, so a kernel that left the transform
    out would fail the check: its raw local columns do not invert to the right keys."""
    from topk_core.bench.candidates import bench_page_table, local_of_page

    shape = Shape(3, 700, k=25)
    inputs = make_inputs(shape, 2, "cpu")
    for transform in ("page_table", "ragged"):
        prep = SglTransform("reference", transform).prepare(shape, inputs)
        prep.step(0)
        check_topk(inputs.logits[0], inputs.seq_lens[0], shape.k, prep.result(0))
    table = bench_page_table(shape.rows, shape.n, "cpu")
    local = Ours("reference").prepare(shape, inputs)
    local.step(0)
    skipped = local.result(0)  # what a kernel that ignored the table would write
    with pytest.raises(AssertionError):
        check_topk(inputs.logits[0], inputs.seq_lens[0], shape.k, local_of_page(skipped, shape.n))
    assert (table != torch.arange(shape.n)).float().mean() > 0.99


def test_flashinfer_native_variants_set_the_algo_around_each_call(monkeypatch):
    """``fi.top_k[native]`` / ``fi.ragged[native]`` call FlashInfer with FLASHINFER_TOPK_ALGO=default (also under
    capture, where its own dispatch picks CUB on 128+ rows) and leave the environment as it was."""
    import os

    from topk_core.bench.candidates import FlashInferRagged, FlashInferTopk

    seen = []
    stub = types.SimpleNamespace(
        top_k=lambda x, k: seen.append(os.environ.get("FLASHINFER_TOPK_ALGO")) or (None, torch.zeros(1, k)),
        top_k_ragged_transform=lambda *a: seen.append(os.environ.get("FLASHINFER_TOPK_ALGO")))
    monkeypatch.setitem(sys.modules, "flashinfer", stub)
    monkeypatch.delenv("FLASHINFER_TOPK_ALGO", raising=False)
    shape = Shape(2, 300, k=16)
    inputs = make_inputs(shape, 2, "cpu")
    for cand in (FlashInferTopk(), FlashInferTopk("default"), FlashInferRagged(), FlashInferRagged("default")):
        cand.prepare(shape, inputs).step(0)
    assert seen == [None, "default", None, "default"]
    assert "FLASHINFER_TOPK_ALGO" not in os.environ
    assert [c.name for c in (FlashInferTopk("default"), FlashInferRagged("default"))] == ["fi.top_k[native]",
                                                                                          "fi.ragged[native]"]


def test_cli_bench_records_method_commit_and_spreads(tmp_path, monkeypatch):
    """The JSON says how it was timed (wall clock on CPU, not graphs), which tree ran (TOPK_COMMIT on a device copy
    without .git), and per cell the rotations, the set's bytes, both floors and each candidate's spread."""
    from topk_core.__main__ import main

    monkeypatch.setenv("TOPK_COMMIT", "abc123")
    assert main(["bench", "--grid", "cpu", "--limit", "1", "--out", str(tmp_path)]) == 0
    (path,) = tmp_path.glob("*.json")
    run = json.loads(path.read_text())
    assert run["meta"]["method"].startswith("wall clock") and run["meta"]["commit"] == "abc123"
    cell = run["results"][0]
    assert {"rotations", "set_bytes", "floor_valid_us", "spreads_us"} <= set(cell)
    assert set(cell["spreads_us"]) == set(cell["times_us"])
