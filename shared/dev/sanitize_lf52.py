"""Dev only: session 52's ordered picks once each through the public calls, for compute-sanitizer, every result
checked (so a clean but wrong run still fails): 1024x8K v2 and page table (three programs per SM first), 512x8K v2
(one), 2048x32K v2 (WARP_MANY_LF, six). Random lengths with empty and short rows, a plateau at the threshold.
``SET=53``: session 53's regions picks instead (rows short for their k at 2-12 per SM: 1024x64K and 300x64K v2 and
page table, 512x128K at k = 4096). ``SET=54``: the same configs on 16-bit rows (sgl_fused 0.27.7's picks; before
it ``shared/dev/patches/regions_16bit.patch``): bfloat16 1024x64K v2 and page table, 512x128K page table; float16
300x64K page table.
Usage: compute-sanitizer --tool memcheck python3 shared/dev/sanitize_lf52.py [racecheck: SHAPES=1024x8192] [SET=53]
"""

import os

import torch

from topk_core import sgl
from topk_core.testing import check_topk, local_columns, make_logits, random_page_tables
from topk_sgl_fused import launch

dev = torch.device("cuda")
K = 2048


def case(rows, n, page, seed, K=K, dtype=torch.float32):
    x = make_logits("randn", rows, n, dtype, dev, seed=seed)
    x[::5, : n // 4] = 0.25  # ties at the k-th value of many rows
    lens = torch.randint(0, n + 1, (rows,), generator=torch.Generator(dev).manual_seed(seed), device=dev).int()
    lens[:3] = torch.tensor([0, K - 1, n], dtype=torch.int32)
    config = launch.pick_warp(rows, n, K, launch.sm_count(dev), "page_table" if page else "none", x.element_size())
    assert config.longest_first, (rows, n, page, config)
    if page:
        cu = torch.arange(rows + 1, dtype=torch.int32, device=dev)
        table, inv = random_page_tables(rows, n, seed=seed)
        out = sgl.fast_topk_transform_fused(x, lens, table.to(dev), cu, K, backend="sgl_fused")
        idx = out.cpu().long()
        local = local_columns(idx, inv, torch.arange(rows))
        assert (local[idx >= 0] >= 0).all(), "an entry outside its row's table"
        out = local.to(torch.int32).to(dev)
    else:
        out = sgl.fast_topk_v2(x, lens, K, backend="sgl_fused")
    torch.cuda.synchronize()
    check_topk(x, lens, K, out)
    print(f"{rows}x{n} k={K} {str(dtype)[6:]} {'page' if page else 'v2'} first_wave {config.first_wave} regions "
          f"{config.warp_regions}: exact", flush=True)


def main():
    want = os.environ.get("SHAPES")
    cases = {"52": ((1024, 8192, False, 1, K), (1024, 8192, True, 2, K), (512, 8192, False, 3, K),
                    (2048, 32768, False, 4, K)),
             "53": ((1024, 65536, False, 5, K), (1024, 65536, True, 6, K), (300, 65536, True, 7, K),
                    (512, 131072, False, 8, 4096), (512, 131072, True, 9, 4096)),
             "54": ((1024, 65536, False, 10, K, torch.bfloat16), (1024, 65536, True, 11, K, torch.bfloat16),
                    (512, 131072, True, 12, K, torch.bfloat16), (300, 65536, True, 13, K, torch.float16))
             }[os.environ.get("SET", "52")]
    for rows, n, page, seed, k, *dtype in cases:
        if want is None or f"{rows}x{n}" in want.split(","):
            case(rows, n, page, seed, k, *dtype)


if __name__ == "__main__":
    main()
