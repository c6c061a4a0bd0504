"""The torch custom op under torch.compile, the workspace rules, sgl checks and the CLI."""

import pytest
import torch

import topk_core
from topk_core import sgl, workspace
from topk_core.__main__ import main
from topk_core.testing import check_topk, make_logits, make_seq_lens


def test_torch_compile_fullgraph_traces_the_op():
    logits = make_logits("randn", 6, 200, seed=3)
    lens = make_seq_lens(3, 200, next_n=2, seed=3)

    @torch.compile(fullgraph=True, backend="eager")
    def f(x, s):
        idx, vals = topk_core.top_k_varlen(x * 2.0, s, 16, next_n=2, return_values=True)
        return idx, vals

    idx, vals = f(logits, lens)
    check_topk(logits * 2.0, lens, 16, idx, vals, next_n=2)


def test_op_fake_shapes():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(5, 100)
        s = torch.empty(5, dtype=torch.int32)
        idx, vals = torch.ops.topk.top_k_varlen(x, s, 7, None, 1, 1, False, "auto", True)
    assert idx.shape == (5, 7) and idx.dtype == torch.int32 and vals.shape == (5, 0)


def test_scratch_is_zeroed_reused_and_released():
    dev = torch.device("cpu")
    a = workspace.scratch("t", dev, 64)
    assert a.numel() == 64 and not a.any()
    assert workspace.scratch("t", dev, 32).data_ptr() == a.data_ptr()
    ws = {}
    b = workspace.scratch("t", dev, 16, ws)
    assert ws["t"] is b and b.data_ptr() != a.data_ptr()
    assert workspace.release_resources("cpu") >= 64


@pytest.mark.gpu
def test_scratch_finds_one_buffer_under_both_cuda_spellings():
    """``cuda`` and ``cuda:N`` (what a tensor's ``.device`` says) are one device: one buffer, not two (session 44:
    radix_filter's order test read a fresh zeroed buffer under ``cuda`` beside the kernel's under ``cuda:0``)."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    here = torch.device("cuda", torch.cuda.current_device())
    a = workspace.scratch("spelling", here, 128)
    assert workspace.scratch("spelling", torch.device("cuda"), 128).data_ptr() == a.data_ptr()
    assert workspace.scratch("spelling", "cuda", 64).data_ptr() == a.data_ptr()
    workspace.release_resources(here)


@pytest.mark.parametrize("caller_owned", [False, True])
def test_grown_scratch_keeps_the_old_buffer_until_released(caller_owned, monkeypatch):
    """A graph captured before a buffer grew still writes to the old one: it must stay allocated until
    ``release_resources`` (freed, the allocator could hand its memory to another tensor). A capture is simulated
    on CPU: the buffer is handed out once while ``capturing`` says so."""
    import gc
    import weakref

    dev = torch.device("cpu")
    workspace.release_resources("cpu")
    ws = {} if caller_owned else None
    small = workspace.scratch("grow", dev, 64, ws)
    monkeypatch.setattr(workspace, "capturing", lambda device: True)
    assert workspace.scratch("grow", dev, 64, ws).data_ptr() == small.data_ptr()  # "captured"
    monkeypatch.setattr(workspace, "capturing", lambda device: False)
    gone = weakref.ref(small)
    del small
    big = workspace.scratch("grow", dev, 4096, ws)
    gc.collect()
    assert big.numel() == 4096 and gone() is not None, "the replaced buffer was freed"
    assert workspace.release_resources("cpu") >= 64 + (0 if caller_owned else 4096)
    gc.collect()
    assert gone() is None, "release_resources keeps the replaced buffer"


@pytest.mark.parametrize("caller_owned", [False, True])
def test_grown_scratch_no_capture_saw_is_dropped(caller_owned):
    """An eager batch that grows a row at a time keeps one buffer, not one per size (session 43's audit measured
    2.1 GiB retained for gvr's scratch over rows 1-128 at 128K columns), and sizes past 4 KB go up by powers of two."""
    import gc
    import weakref

    dev = torch.device("cpu")
    workspace.release_resources("cpu")
    ws = {} if caller_owned else None
    refs = []
    for rows in range(1, 40):
        buf = workspace.scratch("ramp", dev, 1000 * rows, ws)
        assert buf.numel() >= 1000 * rows and (buf.numel() <= 4096 or buf.numel() & (buf.numel() - 1) == 0)
        refs.append(weakref.ref(buf))
        del buf
    gc.collect()
    assert len({id(r()) for r in refs if r() is not None}) == 1, "replaced buffers no capture saw were kept"
    assert workspace._retired.get("cpu", []) == []


def test_no_capture_never_waits_on_a_missing_buffer(monkeypatch):
    """During a capture a missing or too small buffer raises (it would come from the graph's pool)."""
    dev = torch.device("cpu")
    workspace.release_resources("cpu")
    workspace.scratch("cap", dev, 64)
    monkeypatch.setattr(workspace, "capturing", lambda device: True)
    with pytest.raises(RuntimeError, match="run one eager call"):
        workspace.scratch("cap", dev, 1 << 20)
    with pytest.raises(RuntimeError, match="run one eager call"):
        workspace.scratch("other", dev, 8)


def test_sgl_fast_topk_matches_torch():
    x = torch.randn(3, 50)
    v, i = sgl.fast_topk(x, 1, -1)
    assert torch.equal(v, x.max(-1, keepdim=True).values) and torch.equal(i, x.max(-1, keepdim=True).indices)
    v, i = sgl.fast_topk(x, 5, -1)
    assert torch.equal(i, torch.topk(x, 5, dim=-1).indices)
    v, i = sgl.fast_topk(x.to(torch.bfloat16), 3, 0)  # every row: the whole column
    assert i.dtype == torch.int64 and torch.equal(i, torch.topk(x.to(torch.bfloat16), 3, dim=0).indices)


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda s, lens: sgl.fast_topk_v2(s, lens.long(), 4), "lengths"),
        (lambda s, lens: sgl.fast_topk_v2(s, lens, 0), "topk"),
        (lambda s, lens: sgl.fast_topk_v2(s, lens, 4, row_starts=lens[:2]), "row_starts"),
        (lambda s, lens: sgl.fast_topk_transform_fused(s, lens, torch.zeros(4, 10, dtype=torch.int32), None, 4),
         "page_table_size_1"),
        (lambda s, lens: sgl.fast_topk_transform_fused(s, lens, torch.zeros(2, 64, dtype=torch.int32), None, 4),
         "cu_seqlens_q"),
        (lambda s, lens: sgl.fast_topk_transform_ragged_fused(s, lens, lens[:3], 4), "topk_indices_offset"),
        # a table of no rows has no request to translate through (cu_seqlens_q [0] has the right length)
        (lambda s, lens: sgl.fast_topk_transform_fused(s, lens, torch.zeros(0, 64, dtype=torch.int32),
                                                       torch.zeros(1, dtype=torch.int32), 4), "page_table_size_1"),
        (lambda s, lens: sgl.fast_topk_transform_fused(s, lens, torch.zeros(2, 64, dtype=torch.int32), [0, 1, 4], 4),
         "cu_seqlens_q"),
        (lambda s, lens: sgl.fast_topk(s, 0, -1), "topk"),
        (lambda s, lens: sgl.fast_topk(s, True, -1), "topk"),
        (lambda s, lens: sgl.fast_topk(s, 2.0, -1), "topk"),
        (lambda s, lens: sgl.fast_topk(s, 65, -1), "topk"),  # past the 64 columns
        (lambda s, lens: sgl.fast_topk(s, 5, 0), "topk"),  # past the 4 rows along dim 0
        (lambda s, lens: sgl.fast_topk(s, 2, 2), "dim"),
        (lambda s, lens: sgl.fast_topk(s.double(), 2, -1), "values"),
        (lambda s, lens: sgl.fast_topk(s[0], 2, -1), "values"),
        (lambda s, lens: sgl.fast_topk(None, 2, -1), "values"),
    ],
)
def test_sgl_bad_arguments(call, argument):
    score, lens = torch.randn(4, 64), torch.full((4,), 30, dtype=torch.int32)
    with pytest.raises(ValueError, match=rf"^{argument}: expected"):
        call(score, lens)


def test_cli_info_explain_bench(capsys, tmp_path):
    assert main(["info"]) == 0
    assert "reference" in capsys.readouterr().out
    assert main(["explain", "--device", "cpu", "--rows", "8", "--n", "4096"]) == 0
    assert "-> " in capsys.readouterr().out
    assert main(["bench", "--grid", "cpu", "--limit", "1", "--out", str(tmp_path), "--replays", "2"]) == 0
    out = capsys.readouterr().out
    assert "reference" in out and "torch.topk" in out
    assert list(tmp_path.glob("*.json")) and list(tmp_path.glob("*.csv"))


def test_sgl_composes_when_a_plain_backend_outranks_fused_ones():
    """A fast backend without fused transforms selects; the transform runs as a torch pass."""
    from topk_core import registry
    from topk_core.reference import ReferenceBackend

    calls = []

    class PlainOnly(ReferenceBackend):
        name = "plain_only"

        def supports(self, p):
            return None if p.transform == "none" else "no fused transforms"

        def score(self, p):
            return 5.0

        def run(self, p, call):
            calls.append(call.transform)
            super().run(p, call)

    registry.register(PlainOnly())
    try:
        score, lens = torch.randn(4, 64), torch.tensor([10, 64, 0, 99], dtype=torch.int32)
        offsets = torch.tensor([100, 200, 300, 400], dtype=torch.int32)
        out = sgl.fast_topk_transform_ragged_fused(score, lens, offsets, 8)
        assert calls == ["none"]
        local = torch.where(out >= 0, out - offsets[:, None], out)
        check_topk(score, lens, 8, local.to(torch.int32))
        assert (out[2] == -1).all()
    finally:
        registry.entries(refresh=True)


def test_compose_faster_weighs_the_transform_pass():
    """Composing pays the transform pass: equal scores fuse, a plain backend far ahead composes, and an
    unusable side always loses; the pass grows with rows * k (and the page table with the table), so a plain
    selection must be further ahead on many rows. Times are the model's predictions on the dsa cells and, in the
    comments, what session 57 measured on an H200 (``shared/device/compose_bench.py``)."""
    from topk_core.sgl import TORCH_US, compose_faster

    def scores(rows, n, plain_us, fused_us):
        torch_us = TORCH_US[0] + TORCH_US[1] * rows * n
        return torch_us / plain_us, torch_us / fused_us

    for transform in ("page_table", "ragged"):
        assert not compose_faster(4.0, 4.0, transform, 128, 131072, 2048)
        assert compose_faster(16.0, 4.0, transform, 128, 131072, 2048)
        assert compose_faster(1.0, 0.0, transform, 1, 8192, 2048)
        assert not compose_faster(0.0, 1.0, transform, 1, 8192, 2048)
        # 1x8K: radix 5.4 µs against sgl_fused 9.6 composes (page table: 6.0 composed, 8.0 fused)
        assert compose_faster(*scores(1, 8192, 5.4, 9.6), transform, 1, 8192, 2048)
        assert not compose_faster(*scores(1, 8192, 5.4, 6.0), transform, 1, 8192, 2048)
    # 4096x8K: radix_filter 61.1 against sgl_fused 140.2 composes (112.1 composed, 155.8 fused); against 100 not
    assert compose_faster(*scores(4096, 8192, 61.1, 140.2), "page_table", 4096, 8192, 2048)
    assert not compose_faster(*scores(4096, 8192, 61.1, 100.0), "page_table", 4096, 8192, 2048)
    # the table's size: the same rows * k and times compose at 128x32K but not at 128x1M
    assert compose_faster(*scores(128, 32768, 11.0, 37.0), "page_table", 128, 32768, 2048)
    assert not compose_faster(*scores(128, 1 << 20, 11.0, 37.0), "page_table", 128, 1 << 20, 2048)
