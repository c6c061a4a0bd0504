"""Every bad argument gets a ValueError naming it, before anything runs."""

import warnings

import pytest
import torch

from topk_core import BackendNotSupportedError, top_k_varlen

ROWS, N, K = 4, 64, 8


def good():
    return torch.randn(ROWS, N), torch.full((ROWS,), N, dtype=torch.int32)


@pytest.mark.parametrize(
    "change, argument",
    [
        (dict(logits=torch.randn(ROWS, N, 2)), "logits"),
        (dict(logits=torch.randint(0, 5, (ROWS, N))), "logits"),
        (dict(logits=torch.randn(N, ROWS).t()), "logits"),
        (dict(logits=[[1.0]]), "logits"),
        (dict(seq_lens=torch.full((ROWS,), N, dtype=torch.int64)), "seq_lens"),
        (dict(seq_lens=torch.full((ROWS + 1,), N, dtype=torch.int32)), "seq_lens"),
        (dict(seq_lens=torch.full((ROWS, 1), N, dtype=torch.int32)), "seq_lens"),
        (dict(top_k=0), "top_k"),
        (dict(top_k=2.0), "top_k"),
        (dict(top_k=True), "top_k"),
        (dict(next_n=0), "next_n"),
        (dict(next_n=3), "logits"),  # 4 rows not divisible by 3
        (dict(compress_ratio=0), "compress_ratio"),
        (dict(out_indices=torch.empty(ROWS, K, dtype=torch.int64)), "out_indices"),
        (dict(out_indices=torch.empty(ROWS, K + 1, dtype=torch.int32)), "out_indices"),
        (dict(out_indices=torch.empty(K, ROWS, dtype=torch.int32).t()), "out_indices"),
        (dict(out_indices=torch.empty(ROWS * K + 1, dtype=torch.int32)[1:]), "out_indices"),
        (dict(return_values=True, out_values=torch.empty(ROWS, K, dtype=torch.float16)), "out_values"),
        (dict(return_values=True, out_values=torch.empty(ROWS, K - 1)), "out_values"),
        (dict(top_k=1 << 31), "top_k"),  # past int32: refused before the outputs are allocated
        (dict(next_n=1 << 40), "next_n"),
        (dict(compress_ratio=1 << 80), "compress_ratio"),
        (dict(return_values=1), "return_values"),
        (dict(load_balance="no"), "load_balance"),
        (dict(load_balance=1), "load_balance"),
        (dict(workspace=[]), "workspace"),
        (dict(backend="nope"), "backend"),
        (dict(backend=3), "backend"),
    ],
)
def test_bad_argument_raises_value_error_naming_it(change, argument):
    logits, seq_lens = good()
    kwargs = dict(logits=logits, seq_lens=seq_lens, top_k=K)
    kwargs.update(change)
    with pytest.raises(ValueError, match=rf"^{argument}: expected"
                       if argument != "backend" or change["backend"] == 3 else r"^backend: unknown"):
        top_k_varlen(**kwargs)


def test_unknown_backend_lists_installed():
    logits, seq_lens = good()
    with pytest.raises(ValueError, match=r"Installed: .*reference"):
        top_k_varlen(logits, seq_lens, K, backend="nope")


def test_one_d_out_buffer_is_viewed_in_place():
    logits, seq_lens = good()
    flat = torch.empty(ROWS * K, dtype=torch.int32)
    idx, _ = top_k_varlen(logits, seq_lens, K, out_indices=flat)
    assert idx.shape == (ROWS, K) and idx.data_ptr() == flat.data_ptr()
    assert torch.equal(flat.view(ROWS, K), idx)


@pytest.mark.parametrize(
    "hint",
    [torch.zeros(ROWS, K, dtype=torch.int64), torch.zeros(ROWS + 1, K, dtype=torch.int32), "x",
     torch.zeros(K, ROWS, dtype=torch.int32).t()],
)
def test_bad_hint_is_discarded_with_warning(hint):
    logits, seq_lens = good()
    with pytest.warns(RuntimeWarning, match="pre_idx discarded"):
        idx, _ = top_k_varlen(logits, seq_lens, K, pre_idx=hint)
    ref, _ = top_k_varlen(logits, seq_lens, K)
    assert torch.equal(torch.sort(idx).values, torch.sort(ref).values)


def test_good_hint_gives_no_warning():
    logits, seq_lens = good()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        top_k_varlen(logits, seq_lens, K, pre_idx=torch.zeros(ROWS, K, dtype=torch.int32))


def test_explicit_backend_that_refuses_raises_with_reason(monkeypatch):
    from topk_core import registry

    class Picky:
        name, protocol = "picky", 1

        def environment(self):
            return None

        def supports(self, p):
            return "only k=2048"

        def score(self, p):
            return 99.0

        def run(self, p, c):
            raise AssertionError("must not run")

    registry.register(Picky())
    try:
        logits, seq_lens = good()
        with pytest.raises(BackendNotSupportedError, match="only k=2048"):
            top_k_varlen(logits, seq_lens, K, backend="picky")
        # auto skips it and falls back to the reference
        idx, _ = top_k_varlen(logits, seq_lens, K)
        assert idx.shape == (ROWS, K)
    finally:
        registry.entries(refresh=True)


def test_strided_index_vectors_reach_backends_with_unit_stride(monkeypatch):
    """The kernels read seq_lens, row_starts and ragged offsets from their base pointer, so a strided 1-D view
    (which validation accepts) must reach a backend as a unit-stride copy with the same values."""
    import topk_core.api as api
    import topk_core.sgl as sgl
    from topk_core.testing import check_topk, make_logits, make_seq_lens

    seen = []
    real_dispatch, real_run_on = api.dispatch, api.run_on

    def spy(problem, call, backend):
        seen.append(call)
        return real_dispatch(problem, call, backend)

    def spy_run_on(name, problem, call):
        seen.append(call)
        return real_run_on(name, problem, call)

    monkeypatch.setattr(api, "run_on", spy_run_on)
    monkeypatch.setattr(sgl, "dispatch", spy)
    rows, n, k = 4, 300, 16
    logits = make_logits("randn", rows, n, torch.float32, "cpu", seed=3, k=k)
    lens = make_seq_lens(2 * rows, n, seed=3, mode="mixed")[::2]
    assert not lens.is_contiguous()
    idx, _ = top_k_varlen(logits, lens, k, backend="reference")
    check_topk(logits, lens, k, idx)
    assert seen[-1].seq_lens.is_contiguous() and torch.equal(seen[-1].seq_lens, lens)

    starts = torch.arange(2 * rows, dtype=torch.int32)[::2] % 7
    win = torch.full((2 * rows,), 200, dtype=torch.int32)[::2]
    offsets = torch.arange(2 * rows, dtype=torch.int32)[::2] * 1000
    out = sgl.fast_topk_transform_ragged_fused(logits, win, offsets, k, starts, backend="reference")
    call = seen[-1]
    for name, t in (("seq_lens", win), ("row_starts", starts), ("index_offsets", offsets)):
        assert getattr(call, name).is_contiguous() and torch.equal(getattr(call, name), t), name
    local = sgl.fast_topk_v2(logits, win.contiguous(), k, starts.contiguous(), backend="reference")
    assert torch.equal(out, torch.where(local >= 0, local + offsets[:, None], local))


def test_type_names_say_where_a_type_comes_from():
    """numpy's bool is not Python's: the message says which it got."""
    np = pytest.importorskip("numpy")
    logits, seq_lens = good()
    with pytest.raises(ValueError, match=r"^return_values: expected a bool, got numpy\.bool"):
        top_k_varlen(logits, seq_lens, K, return_values=np.bool_(True))
    with pytest.raises(ValueError, match=r"^top_k: expected an int >= 1, got numpy\.int64"):
        top_k_varlen(logits, seq_lens, np.int64(K))


def test_forced_backend_named_in_message(monkeypatch):
    logits, seq_lens = good()
    monkeypatch.setenv("TOPK_BACKEND", "nope")
    with pytest.raises(ValueError, match=r"^backend \(auto, replaced by TOPK_BACKEND\): unknown backend 'nope'"):
        top_k_varlen(logits, seq_lens, K)
    with pytest.raises(ValueError, match=r"^backend: unknown backend 'other'"):  # an explicit name wins
        top_k_varlen(logits, seq_lens, K, backend="other")


def test_backend_resolved_before_outputs_are_allocated(monkeypatch):
    """A backend refusal (here an unknown name) comes before the [rows, top_k] outputs exist: a huge top_k does not
    turn it into an allocation failure."""
    logits, seq_lens = good()
    with pytest.raises(ValueError, match=r"^backend: unknown"):
        top_k_varlen(logits, seq_lens, (1 << 31) - 1, backend="nope")


@pytest.mark.parametrize("facts, argument", [(dict(top_k=0), "top_k"), (dict(top_k=True), "top_k"),
                                             (dict(next_n=0), "next_n"), (dict(compress_ratio=1 << 40),
                                                                          "compress_ratio"),
                                             (dict(return_values="yes"), "return_values")])
def test_explain_checks_its_arguments(facts, argument):
    from topk_core import explain

    logits, seq_lens = good()
    top_k = facts.pop("top_k", K)
    with pytest.raises(ValueError, match=rf"^{argument}: expected"):
        explain(logits, seq_lens, top_k, **facts)
