"""Dev (device): does the order of a row's page-table gathers matter? (session 55; sgl_fused NOTES, session 37's
"untried: the k chosen entries gathered in an order good for DRAM").

Per cell (rows x n, k = 2048, seq_lens uniform in [n/2, n]): k distinct columns a row, in three orders: ``value``
(torch.topk's, by score: the columns' order is random), ``bucket`` (by column >> 10: 4 KB of table per bucket, random
within it) and ``sorted`` (ascending column). Times topk_core's Triton transform pass (``apply_transform_pass``,
page table, one table row a request) over rotating input sets, CUDA-graph replay, median of 10; every order's output
checked against ``torch.gather`` first.
Usage: bash shared/device/run.sh python3 shared/device/gather_order55.py
"""

import torch

from topk_core.bench.timing import rotations, time_graph
from topk_core.kernels.transform_pass import apply_transform_pass

K = 2048
CELLS = ((1024, 65536), (512, 131072), (128, 131072), (4096, 8192), (128, 32768))


def orders(rows: int, n: int, dev, seed: int) -> dict:
    g = torch.Generator(device=dev).manual_seed(seed)
    lens = torch.randint(n // 2, n + 1, (rows, 1), device=dev, generator=g)
    scores = torch.rand(rows, n, device=dev, generator=g)
    scores[torch.arange(n, device=dev)[None, :] >= lens] = -1.0  # past the row's length: never chosen
    value = scores.topk(K, dim=1).indices.to(torch.int32)
    bucket_key = (value >> 10).to(torch.int64) * K + torch.arange(K, device=dev)  # stable in value order
    bucket = value.gather(1, bucket_key.argsort(dim=1))
    return {"value": value.contiguous(), "bucket": bucket.contiguous(), "sorted": value.sort(dim=1).values.contiguous()}


def cell_line(rows: int, n: int, dev) -> str:
    """One cell's timings, every order checked first."""
    count = rotations(rows * n * 4)
    tables = [torch.randint(0, 2**30, (rows, n), dtype=torch.int32, device=dev) for _ in range(count)]
    sets = [orders(rows, n, dev, seed) for seed in range(count)]
    outs = [torch.empty(rows, K, dtype=torch.int32, device=dev) for _ in range(count)]
    line = [f"{rows}x{n // 1024}K"]
    for name in ("value", "bucket", "sorted"):
        line.append(f"{name} {time_pass(name, sets, tables, outs):.1f}")
    return " | ".join(line)


def checked_time(step, count: int, check) -> float:
    """µs of ``step(i)`` over the ``count`` input sets, run once eagerly and ``check(i)``-ed on every set first."""
    for i in range(count):
        step(i)
    torch.cuda.synchronize()
    for i in range(count):
        check(i)
    return time_graph(step, count, replays=10)


def time_pass(name: str, sets: list, tables: list, outs: list) -> float:
    """µs of the pass over order ``name`` of each input set, every output checked against torch.gather first."""
    def step(i):
        apply_transform_pass(sets[i][name], outs[i], "page_table", tables[i])

    def check(i):
        assert torch.equal(outs[i], tables[i].gather(1, sets[i][name].long())), f"{name}: wrong output"
    return checked_time(step, len(sets), check)


def main(cells=CELLS, line=cell_line) -> None:
    dev = torch.device("cuda")
    print(torch.cuda.get_device_name(dev), flush=True)
    with torch.cuda.stream(torch.cuda.Stream()):  # graph capture needs a side stream
        for rows, n in cells:
            print(line(rows, n, dev), flush=True)
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
