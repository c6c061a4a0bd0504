"""``make_hint``: the ``pre_idx`` generator of the kit (exact, previous step, random, empty), and the suite's
``hint`` attribute (every case passes one, refusals included)."""

import pytest
import torch

from topk_core import registry
from topk_core.keys import valid_lengths
from topk_core.testing import HINT_MODES, BackendConformance, Claims, check_topk, make_hint, make_logits, make_seq_lens


def _inputs(rows=8, n=500, dtype=torch.float32, kind="randn", next_n=1, compress_ratio=1, mode="full", seed=1):
    x = make_logits(kind, rows, n, dtype, seed=seed, k=32)
    s = make_seq_lens(rows // next_n, n, next_n=next_n, compress_ratio=compress_ratio, seed=seed, mode=mode)
    return x, s


@pytest.mark.parametrize("mode", HINT_MODES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_shape_dtype_device(mode, dtype):
    x, s = _inputs(rows=6, dtype=dtype, next_n=3, compress_ratio=2, mode="mixed")
    h = make_hint(x, s, 40, next_n=3, compress_ratio=2, mode=mode, seed=2)
    assert h.dtype == torch.int32 and tuple(h.shape) == (2, 40) and h.is_contiguous()
    assert h.device == x.device and h.data_ptr() % 16 == 0
    assert bool(((h >= -1) & (h < 500 + 5)).all())


@pytest.mark.parametrize("kind", ["randn", "int_ties", "plateau", "nan", "inf", "huge", "zeros_denormals"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_exact_is_the_top_k(kind, dtype):
    """next_n 1: the exact hint is itself a correct answer (ties, NaN and -0 by the library's order)."""
    x, s = _inputs(kind=kind, dtype=dtype, mode="mixed")
    for k in (1, 32, 600):
        check_topk(x, s, k, make_hint(x, s, k, mode="exact"))


def test_exact_uses_each_requests_first_row():
    x, s = _inputs(rows=12, n=300, next_n=3, compress_ratio=4, mode="uniform", kind="nan")
    h = make_hint(x, s, 16, next_n=3, compress_ratio=4, mode="exact")
    lengths = valid_lengths(s, 12, 300, 3, 4)[::3].to(torch.int32)
    check_topk(x[::3], lengths, 16, h)
    x, s = _inputs(rows=12, n=300, next_n=3, compress_ratio=4, mode="uniform")
    h = make_hint(x, s, 16, next_n=3, compress_ratio=4, mode="exact")
    lengths = valid_lengths(s, 12, 300, 3, 4)[::3]
    assert h[:, 0].tolist() == [int(x[3 * i, :length].argmax()) for i, length in enumerate(lengths)]  # argmax first


def test_exact_pads_short_rows():
    x = make_logits("randn", 3, 50)
    s = torch.tensor([0, 5, 50], dtype=torch.int32)
    h = make_hint(x, s, 8, mode="exact")
    assert h[0].tolist() == [-1] * 8
    assert sorted(h[1, :5].tolist()) == list(range(5)) and h[1, 5:].tolist() == [-1] * 3


def test_previous_is_close_and_corrupted():
    """Mostly the exact top-k, with -1, out-of-range and duplicated entries in about 1% of each row."""
    n, k = 4000, 512
    x, s = _inputs(rows=6, n=n, mode="full")
    exact = make_hint(x, s, k, mode="exact")
    prev = make_hint(x, s, k, mode="previous", seed=3)
    lengths = valid_lengths(s, 6, n)
    for r in range(6):
        row = prev[r].tolist()
        overlap = len(set(row) & set(exact[r].tolist()))
        assert k * 0.8 < overlap < k, overlap  # close to the answer, not equal to it
        assert row.count(-1) >= 1  # these rows are long: a clean hint holds no -1
        assert any(i >= lengths[r] for i in row)
        assert len(set(row) - {-1}) < k - row.count(-1)  # a repeated index
        assert sum(i == -1 or i >= lengths[r] for i in row) + k - len(set(row)) <= 3 * round(k / 100)


def test_previous_corrupts_small_k_and_keeps_non_finite():
    x, s = _inputs(rows=4, n=300, kind="nan")
    for k in (8, 20):
        prev, exact = make_hint(x, s, k, mode="previous"), make_hint(x, s, k, mode="exact")
        assert bool((prev != exact).any(dim=1).all())  # at least one corrupted entry per row
    # k < 8 is never corrupted, and the NaNs the noise leaves alone rank first in both
    prev, exact = make_hint(x, s, 4, mode="previous"), make_hint(x, s, 4, mode="exact")
    assert torch.equal(prev.sort(dim=1).values, exact.sort(dim=1).values)


@pytest.mark.parametrize("mode", HINT_MODES)
def test_deterministic(mode):
    x, s = _inputs(kind="int_ties", mode="mixed")
    first = make_hint(x, s, 64, mode=mode, seed=5)
    assert torch.equal(first, make_hint(x, s, 64, mode=mode, seed=5))
    if mode in ("previous", "random"):
        assert not torch.equal(first, make_hint(x, s, 64, mode=mode, seed=6))


def test_random_and_empty():
    x, s = _inputs()
    old = torch.randint(-1, 505, (8, 16), generator=torch.Generator().manual_seed(7), dtype=torch.int32)
    assert torch.equal(make_hint(x, s, 16, mode="random", seed=7), old)  # what hint=True always drew
    assert make_hint(x, s, 16, mode="empty").eq(-1).all()


def test_degenerate_shapes():
    x, s = _inputs(rows=4, n=300)
    assert make_hint(x[:0], s[:0], 9).shape == (0, 9)
    assert make_hint(x[:, :0], s, 9, mode="exact").eq(-1).all()
    prev = make_hint(x[:, :0], s, 9)  # corrupted entries are out of range of an empty row
    assert bool(((prev >= -1) & (prev < 5)).all())


def test_bad_mode():
    x, s = _inputs()
    with pytest.raises(ValueError, match="mode: expected one of"):
        make_hint(x, s, 8, mode="previos")


class NeedsHint:
    """The reference's answers, but it refuses problems without a hint (as gvr does) and k above 64."""

    name = "needs_hint_test"
    protocol = 1
    seen: list = []  # every problem asked about

    def environment(self):
        return None

    def supports(self, problem):
        self.seen.append(problem)
        if not problem.has_hint:
            return "needs pre_idx"
        return "k above 64" if problem.k > 64 else None

    def score(self, problem):
        return -1.0

    def run(self, problem, call):
        assert call.pre_idx is not None
        registry.get("reference").backend.run(problem, call)


@pytest.fixture
def needs_hint():
    registry.register(NeedsHint())
    yield NeedsHint.name
    registry.entries(refresh=True)


def test_suite_hint_attribute_reaches_every_case(needs_hint):
    class Suite(BackendConformance):
        backend = needs_hint
        device = "cpu"
        scale = "small"
        claims = Claims(max_k=64)

    with pytest.raises(AssertionError, match="needs pre_idx"):
        Suite().run_case(4, 200, 16)  # the default claims cover it, and it refuses without a hint
    Suite.hint = "previous"
    assert Suite().run_case(4, 200, 16) == "ok"
    assert Suite().run_case(4, 200, 16, hint=True) == "ok"
    NeedsHint.seen.clear()
    assert Suite().run_case(4, 200, 100) == "refused"
    assert NeedsHint.seen and all(p.has_hint for p in NeedsHint.seen)  # the refusal is checked with the hint
    with pytest.raises(ValueError, match="mode"):
        Suite().run_case(4, 200, 16, hint="bogus")
