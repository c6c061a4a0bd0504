"""The resident path (``resident.py``: one program per row, the row in registers), forced through ``launch``.

Under TRITON_INTERPRET=1 on CPU, or compiled on a GPU (then in the GPU suite too). Each case compares against
the exact answer with ``check_topk`` (transforms inverted first).

| case                               | forces                                                  |
|------------------------------------|---------------------------------------------------------|
| conformance kit (interpreter)      | every kit case through the resident path                |
| kinds x dtypes x 1 / 2 bits a step | ties resolved to the last key bit, plateaus, early stop |
| interpolation after moment probes  | the model's probes clamped into the bracket, any row    |
| the same, slots from a second read | the re-read's ranks equal the one-pass placement's      |
| one scan (exactly k at the bound)  | the one-scan placement, and the packed one on plateaus  |
| all-equal / NaN / +-inf rows       | the k-th key a plateau: ties fill the remaining slots   |
| row_starts, values, next_n         | windows clamped; values read back from the row          |
| page table (cu_seqlens_q), ragged  | the transform at the store                              |
| GPU sizes (8K and 32K rows)        | the shipped widths: 8 and 32 warps, 32 keys per thread  |
"""

import os
from dataclasses import replace

import pytest
import torch

from topk_core.testing import (
    PAGE_STRIDE,
    BackendConformance,
    Claims,
    TransformConformance,
    check_topk,
    clamped_windows,
    local_columns,
    make_logits,
    paged_requests,
    ragged_decode_rows,
    random_page_tables,
)
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device

pytestmark = [*TRITON_MARKS, pytest.mark.filterwarnings("ignore:Conversion of an array with ndim:DeprecationWarning")]


def _fit(n: int, elem_bytes: int = 4, **mode):
    """The shipped config for ``elem_bytes`` logits (``mode`` replaced) on the fewest warps (1-32) whose threads
    hold a row of ``n`` columns at <= 32 keys each."""
    from topk_sgl_fused.launch import resident_config, resident_row

    return replace(resident_config(elem_bytes), warps=max(1, min(32, resident_row(n) // 1024)), **mode)


#: The k-th key's searches and the two placements: interpolation (float32's default), bisection (16-bit's; 1 and
#: 2 bits a step), the re-read placement with each; interpolation after two probes from the row's moments (session 22).
MODES = ({"secant": True}, {"secant": False}, {"secant": False, "sbits": 2}, {"secant": False, "reread": True},
         {"secant": True, "reread": True}, {"secant": True, "guess": True},
         {"secant": True, "guess": True, "one_scan": True})


def _run(logits, seq_lens, k, config=None, **fields):
    from topk_core.testing import poisoned_call
    from topk_sgl_fused import launch

    call = poisoned_call(logits, seq_lens, k, **fields)
    launch.launch(call, config=config or _fit(logits.shape[1]))
    return call.indices, call.values


@pytest.mark.parametrize("kind", ["randn", "sorted", "int_ties", "plateau", "nan"])
def test_kinds(kind):
    dev = triton_device()
    k = 40
    lens = torch.tensor([700, 41, 40, 555], dtype=torch.int32, device=dev)
    for dtype in (torch.float32, torch.bfloat16, torch.float16) if kind in ("randn", "int_ties") else (torch.float32,):
        x = make_logits(kind, 4, 700, dtype, dev, seed=3, k=k)
        # both searches everywhere; the unshipped options (2 bits a step, the re-read) on float32 randn and on the
        # special rows below
        for mode in MODES if dtype == torch.float32 and kind == "randn" else MODES[:2]:
            idx, vals = _run(x, lens, k, _fit(700, x.element_size(), **mode))
            check_topk(x, lens, k, idx, vals)


@pytest.mark.parametrize("transform", ["none", "page_table", "ragged"])
def test_one_scan(transform):
    """``one_scan``: searches that end with exactly k keys at or above the bound (randn, NaN rows) take the one-scan
    placement, those ending on a plateau (integer ties, a plateau at the threshold) the packed one; every transform,
    with values."""
    dev = triton_device()
    k, n = 40, 700
    lens = torch.tensor([700, 41, 600, 555, 39], dtype=torch.int32, device=dev)
    config = _fit(n, secant=True, guess=True, one_scan=True)
    for kind in ("randn", "int_ties", "plateau", "nan"):
        x = make_logits(kind, 5, n, torch.float32, dev, seed=31, k=k)
        fields, offsets, inv = {}, None, None
        if transform == "page_table":
            table, inv = random_page_tables(5, n, seed=32)
            fields = dict(page_table=table.to(dev))
        elif transform == "ragged":
            offsets = torch.arange(5, dtype=torch.int32, device=dev) * 1000 + 3
            fields = dict(index_offsets=offsets)
        idx, vals = _run(x, lens, k, config, transform=transform, **fields)
        if transform == "page_table":
            idx = local_columns(idx.cpu().long(), inv, torch.arange(5)).to(torch.int32).to(dev)
        elif transform == "ragged":
            idx = torch.where(idx >= 0, idx - offsets[:, None], idx)
        check_topk(x, lens, k, idx, vals)


def test_all_equal_and_special_rows():
    dev = triton_device()
    x = torch.full((5, 500), -0.0, device=dev)
    x[1] = 0.0
    x[2, ::2] = float("nan")
    x[3] = float("-inf")
    x[3, ::7] = float("inf")
    x[4] = -1.0
    x[4, 13] = float("-nan")
    lens = torch.tensor([500, 499, 480, 500, 500], dtype=torch.int32, device=dev)
    for k in (1, 37, 499):
        for mode in MODES:
            idx, vals = _run(x, lens, k, _fit(500, **mode))
            check_topk(x, lens, k, idx, vals)


def test_row_starts_and_k_edges():
    x, starts, lens = clamped_windows(triton_device())
    for k in (1, 30, 276):
        idx, vals = _run(x, lens, k, row_starts=starts)
        check_topk(x, lens, k, idx, vals, row_starts=starts)


def test_page_table_with_empty_requests():
    k = 20
    x, lens, cu, table, req = paged_requests(triton_device())  # requests 0, 2, 3 are empty
    idx, vals = _run(x, lens, k, transform="page_table", page_table=table, cu_seqlens_q=cu)
    local = torch.where(idx >= 0, idx - PAGE_STRIDE * req[:, None].to(idx.dtype), idx)
    check_topk(x, lens, k, local.to(torch.int32), vals)


def test_ragged_with_next_n_and_compress():
    x, lens, offsets, next_n, cr, k = ragged_decode_rows(triton_device())
    idx, vals = _run(x, lens, k, transform="ragged", index_offsets=offsets, next_n=next_n, compress_ratio=cr)
    local = torch.where(idx >= 0, idx - offsets[:, None], idx)
    check_topk(x, lens, k, local.to(torch.int32), vals, next_n=next_n, compress_ratio=cr)


def test_widths_refused():
    """More than 32 keys per thread, or fewer than one 16-byte run: a ValueError before any launch."""
    from topk_sgl_fused.launch import ResidentConfig, resident_constexprs

    with pytest.raises(ValueError, match="cannot hold rows of 9000"):
        resident_constexprs(ResidentConfig(8), 9000, 32, 0, False)
    with pytest.raises(ValueError, match="cannot hold rows of 600"):
        resident_constexprs(ResidentConfig(16), 600, 32, 0, False)
    assert resident_constexprs(ResidentConfig(8), 8192, 32, 0, False)["A"] == 8
    assert resident_constexprs(ResidentConfig(32), 32768, 16, 0, False)["A"] == 4


@pytest.mark.parametrize("shape", [(24, 8192, 8, {}), (24, 8192, 8, {"secant": True}),
                                   (24, 8192, 8, {"secant": True, "guess": True}),
                                   (24, 8192, 8, {"reread": True}), (6, 32768, 32, {"reread": True}),
                                   (3, 20000, 32, {"reread": True}), (5, 16384, 16, {"reread": True}),
                                   (4, 16384, 16, {"reread": True, "secant": True}),
                                   (5, 16384, 16, {"secant": True, "guess": True}),
                                   (3, 12000, 16, {"secant": True, "guess": True}),
                                   (6, 8192, 8, {"secant": True, "guess": True, "dtype": torch.bfloat16}),
                                   (6, 6000, 8, {"secant": True, "guess": True, "dtype": torch.float16}),
                                   (24, 8192, 16, {"secant": True, "guess": True}),
                                   (7, 5000, 16, {"secant": True, "guess": True}),
                                   (24, 8192, 16, {"secant": True, "guess": True, "one_scan": True})],
                         ids=["8K", "8K-secant", "8K-guess", "8K-reread", "32K-reread", "20K-reread", "16K-reread",
                              "16K-both", "16K-guess", "12K-guess", "8K-bf16-guess", "6K-fp16-guess",
                              "8K-16w-guess", "5K-16w-guess", "8K-16w-one-scan"])
@pytest.mark.parametrize("transform", ["none", "page_table"])
def test_gpu_sizes(shape, transform):
    """The GPU widths at their row sizes (the shipped ones: 8K and 16K float32, 8K 16-bit, all by interpolation
    from the moments' guess): NaN, a plateau around the threshold, one tight cluster, a row shorter than k; the
    page table through a random table."""
    from topk_sgl_fused.launch import ResidentConfig, interpreting

    if interpreting():
        pytest.skip("GPU sizes")
    rows, n, warps, mode = shape
    mode = dict(mode)
    dtype = mode.pop("dtype", torch.float32)
    dev = triton_device()
    x = make_logits("randn", rows, n, dtype, dev, seed=17)
    x[0, ::101] = float("nan")
    x[-1, : n // 3] = 0.5
    x[2] = 1.0 + 1e-3 * x[2]
    lens = torch.randint(n // 2, n + 1, (rows,), dtype=torch.int32, device=dev)
    lens[1] = 1000  # shorter than k: the fill
    config = ResidentConfig(warps, **mode)
    if transform == "none":
        idx, vals = _run(x, lens, 2048, config)
        check_topk(x, lens, 2048, idx, vals)
        return
    table, inv = random_page_tables(rows, n, seed=19)
    idx, vals = _run(x, lens, 2048, config, transform="page_table", page_table=table.to(dev))
    idx = idx.cpu().long()
    local = local_columns(idx, inv, torch.arange(rows))
    assert (local[idx >= 0] >= 0).all()
    check_topk(x, lens, 2048, local.to(torch.int32).to(dev), vals)


@pytest.mark.interpreter
@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET", "") in ("", "0"), reason="needs TRITON_INTERPRET=1")
class TestResidentInterpreter(BackendConformance, TransformConformance):
    """The conformance kit with every call on the resident path (the fewest warps that hold the row)."""

    backend = "sgl_fused"
    device = "cpu"
    scale = "small"
    claims = Claims(transforms=("page_table", "ragged"), row_starts=True)

    @pytest.fixture(autouse=True)
    def _force_resident(self, monkeypatch):
        from topk_sgl_fused import launch

        monkeypatch.setattr(launch, "pick_warp", lambda rows, n, k, sms, t="none", elem_bytes=4: _fit(n, elem_bytes))
