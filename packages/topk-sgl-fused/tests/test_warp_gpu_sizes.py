"""The warp path's shipped configs at the sizes they serve (GPU only; split from ``test_warp.py``).

Each config or pick is forced through ``launch`` on rows of its size with NaN, a plateau around the threshold, a
tight cluster that overflows the candidates, rows shorter than k; the page-table configs through a random table.
Each case compares against the exact answer with ``check_topk`` (transforms inverted first).
"""

import pytest
import torch

from topk_core.testing import check_topk, local_columns, make_logits, poisoned_call, random_page_tables
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device

pytestmark = TRITON_MARKS


@pytest.mark.parametrize("name", ["WARP_MANY_SMALL", "WARP_MANY_SMALL_PAGE", "WARP_FEW_LARGE", "WARP_FEW_LARGE_PAGE",
                                  "WARP_MID_LARGE", "WARP_MID_PAGE", "WARP_FEW_PAGE", "WARP_FEW_LONG",
                                  "WARP_FEW_LONG_PAGE", "WARP_MID_LARGE_MANY", "WARP_MID_LARGE_PAGE_MANY",
                                  "WARP_MID_LARGE_PAGE", "WARP_MID_LF", "WARP_MID_PAGE_LF", "WARP_MID_PAGE_MANY_LF",
                                  "WARP_MANY_LF"])
def test_sample_configs_gpu_sizes(name):
    """The shipped configs with a smaller (1024) or larger (4096, 8192) bracket sample or the select by
    interpolation, forced on rows of their size: NaN, a plateau around the threshold, rows shorter than k; the
    page-table twins through a random table."""
    from topk_sgl_fused import launch

    if launch.interpreting():
        pytest.skip("GPU sizes")
    config = getattr(launch, name)
    _check_gpu_sized(config, *_rows_of_its_size(config))


@pytest.mark.parametrize("rows", [150, 300, 1024, 4096])
@pytest.mark.parametrize("transform", ["none", "page_table"])
def test_narrow_bracket_gpu_sizes(rows, transform):
    """What ``pick_warp`` ships for 8K rows (the bracket on 12 key bits), forced on 8192-column rows: NaN, a
    plateau around the threshold, a row shorter than k; the page table through a random table."""
    from topk_sgl_fused import launch

    if launch.interpreting():
        pytest.skip("GPU sizes")
    config = launch.pick_warp(rows, 8192, 2048, 132, transform)
    assert config.bracket_bits == launch.WARP_NARROW_BRACKET_BITS
    _check_gpu_sized(config, 24, 8192)


@pytest.mark.parametrize("rows,n", [(128, 131072), (128, 32768), (512, 131072), (1024, 65536), (4096, 8192),
                                    (300, 20000)])
@pytest.mark.parametrize("transform", ["none", "page_table"])
def test_16bit_picks_gpu_sizes(rows, n, transform):
    """What ``pick_warp`` ships for 16-bit rows (session 31: float32's configs, below 16 warps with half the 16-byte
    runs per tile),
    forced on rows of their size in bfloat16 (float16 with the page table): NaN, a plateau around the threshold, a
    constant row (ties everywhere), a row shorter than k."""
    from topk_sgl_fused import launch

    if launch.interpreting():
        pytest.skip("GPU sizes")
    config = launch.pick_warp(rows, n, 2048, 132, transform, 2)
    assert isinstance(config, launch.WarpConfig) and config.a == (2 if config.warps == 16 else 1)
    dtype = torch.bfloat16 if transform == "none" else torch.float16
    _check_gpu_sized(config, *_rows_of_its_size(config), dtype)


@pytest.mark.parametrize("rows,n,k", [(300, 65536, 2048), (1024, 65536, 2048), (512, 131072, 4096)])
@pytest.mark.parametrize("transform", ["none", "page_table"])
def test_regions_picks_gpu_sizes(rows, n, k, transform):
    """What ``pick_warp`` ships for float32 rows of 2-12 per SM short for their k (session 53: candidates in regions
    per warp without all_cands, the page table's sure entries held through the select), forced on rows of that
    width: NaN, a plateau around the threshold, a cluster that overflows the candidates, a row shorter than k."""
    from topk_sgl_fused import launch

    if launch.interpreting():
        pytest.skip("GPU sizes")
    config = launch.pick_warp(rows, n, k, 132, transform)
    assert config.warp_regions and not config.all_cands and config.defer_sure == (transform == "page_table")
    _check_gpu_sized(config, 12, n, k=k)


def _rows_of_its_size(config):
    """``(rows, n)`` of the size a shipped config serves, by its warps (4: many short rows, 16: ~1 row per SM,
    8: 2-12 rows per SM)."""
    return {4: (40, 12000), 16: (6, 30000)}.get(config.warps, (12, 70000))


def _check_gpu_sized(config, rows, n, dtype=torch.float32, k=2048):
    """``config`` forced through the warp path on ``rows`` x ``n`` rows of the cases below, checked exact."""
    from topk_sgl_fused import launch

    dev = triton_device()
    x = make_logits("randn", rows, n, torch.float32, dev, seed=17)
    x[0, ::101] = float("nan")
    x[3, :: -(-n // (k - 148))] = float("nan")  # fewer NaNs than k but near it: sure keys at the top key (session 21)
    x[4, ::2] = float("nan")  # more NaNs than k: the exact path
    x[-1, : n // 3] = 0.5
    x[2] = 1.0 + 1e-3 * x[2]  # one tight cluster: a 12-bit bracket holds the whole row (the candidates overflow)
    x = x.to(dtype)  # 16-bit: the cluster rounds to one value
    lens = torch.randint(n // 2, n + 1, (rows,), dtype=torch.int32, device=dev)
    lens[1] = 1000  # shorter than k: the fill
    if not (config.late or config.page_stream or config.page_early):
        call = poisoned_call(x, lens, k)
        launch.launch(call, config=config)
        check_topk(x, lens, k, call.indices, call.values)
        return
    table, inv = random_page_tables(rows, n, seed=19)
    # no values with the page stream: it would fall back to the late pass
    call = poisoned_call(x, lens, k, values=not config.page_stream, transform="page_table",
                         page_table=table.to(dev))
    launch.launch(call, config=config)
    idx, vals = call.indices.cpu().long(), call.values
    local = local_columns(idx, inv, torch.arange(rows))
    assert (local[idx >= 0] >= 0).all()
    check_topk(x, lens, k, local.to(torch.int32).to(dev), vals)
