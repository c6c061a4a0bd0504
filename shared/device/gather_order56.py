"""Dev (device): the page-table pass over the columns in the order our kernels emit them (session 56).

Session 56's gather_order55.py found the pass up to 48% cheaper on ascending columns than in torch.topk's score order
on an H100. This times the same pass (``apply_transform_pass``, page table) over the order radix_filter and sgl_fused
write their columns, and over those columns sorted; ``sort`` is torch.sort of the (rows, k) columns alone, the cost a
sort would add; ``tsortB`` is the pass with each program's B slots of radix_filter's order sorted in registers first.
Each order is also scored by ``asc``, the share of neighbouring slots in ascending order.
Usage: bash shared/device/run.sh python3 shared/device/gather_order56.py   (carry .carry/dsl)
"""

import torch
import triton
import triton.language as tl
from gather_order55 import checked_time, main, time_pass  # beside this file: the script's directory is on sys.path

import topk_core
from topk_core.bench.timing import rotations, time_graph

K = 2048
CELLS = ((1024, 65536), (512, 131072), (128, 131072), (4096, 8192), (128, 32768), (32, 131072))
BACKENDS = ("radix_filter", "sgl_fused", "radix")


@triton.jit
def _sorted_pass(local_ptr, out_ptr, k, table_ptr, table_stride, BLOCK: tl.constexpr):
    """The page-table pass with the program's slots sorted first (output in ascending column order)."""
    b = tl.program_id(0)
    slots = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    inside = slots < k
    base = b.to(tl.int64) * k
    local = tl.sort(tl.load(local_ptr + base + slots, mask=inside, other=0x7FFFFFFF))
    chosen = (local >= 0) & (local != 0x7FFFFFFF)
    mapped = tl.load(table_ptr + b.to(tl.int64) * table_stride + local, mask=chosen, other=-1)
    tl.store(out_ptr + base + slots, tl.where(chosen, mapped, -1), mask=inside)


def sorted_pass(local, out, table, block):
    rows, k = local.shape
    _sorted_pass[(rows, triton.cdiv(k, block))](local, out, k, table, table.stride(0), BLOCK=block, num_warps=4)


def emitted(rows: int, n: int, dev, seed: int) -> dict:
    g = torch.Generator(device=dev).manual_seed(seed)
    lens = torch.randint(n // 2, n + 1, (rows,), device=dev, generator=g, dtype=torch.int32)
    scores = torch.randn(rows, n, device=dev, generator=g)
    got = {"value": scores.masked_fill(torch.arange(n, device=dev)[None, :] >= lens[:, None], -float("inf"))
           .topk(K, dim=1).indices.to(torch.int32)}
    for name in BACKENDS:
        got[name] = topk_core.top_k_varlen(scores, lens, K, backend=name)[0].to(torch.int32)
    got["sorted"] = got["value"].sort(dim=1).values
    return {name: idx.contiguous() for name, idx in got.items()}


def ascending_share(idx: torch.Tensor) -> float:
    return (idx[:, 1:] > idx[:, :-1]).float().mean().item()


def cell_line(rows: int, n: int, dev) -> str:
    count = rotations(rows * n * 4)
    tables = [torch.randint(0, 2**30, (rows, n), dtype=torch.int32, device=dev) for _ in range(count)]
    sets = [emitted(rows, n, dev, seed) for seed in range(count)]
    for name in BACKENDS:  # the same columns as torch.topk's, whatever the order
        assert torch.equal(sets[0][name].sort(dim=1).values, sets[0]["sorted"]), f"{name}: wrong columns"
    outs = [torch.empty(rows, K, dtype=torch.int32, device=dev) for _ in range(count)]
    line = [f"{rows}x{n // 1024}K"]
    for name in sets[0]:
        line.append(f"{name} {time_pass(name, sets, tables, outs):.1f} (asc {ascending_share(sets[0][name]):.2f})")
    line.append(f"sort {time_graph(lambda i: sets[i]['radix_filter'].sort(dim=1), count, replays=10):.1f}")
    for block in (1024, 2048):  # radix_filter's order, sorted inside the pass (a set: compared sorted)
        def step(i, block=block):
            sorted_pass(sets[i]["radix_filter"], outs[i], tables[i], block)

        def check(i, block=block):
            want = tables[i].gather(1, sets[i]["radix_filter"].long()).sort(dim=1).values
            assert torch.equal(outs[i].sort(dim=1).values, want), f"tsort{block}: wrong output"
        line.append(f"tsort{block} {checked_time(step, count, check):.1f}")
    return " | ".join(line)


if __name__ == "__main__":
    main(CELLS, cell_line)
