"""Dev probe: how fast can ONE SM stream a row from HBM? (Triton row sums, no shared memory.)

Each program sums one slice of a 512 KB fp32 row; `per_row` programs split a row. Prints the
time per launch (CUDA-graph replay of 20 launches, rotating over 8 inputs so L2 misses) and
the bytes per µs per program. Usage (device): python3 shared/device/probe_sm_bw.py
"""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, n, per_row: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = pid // per_row
    part = pid % per_row
    span = n // per_row
    base = x_ptr + row.to(tl.int64) * n + part * span
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, span, BLOCK):
        acc += tl.load(base + off + tl.arange(0, BLOCK))
    tl.store(out_ptr + pid, tl.sum(acc))


def time_us(fn, reps=20):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        fn(0)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, stream=s):
            for i in range(reps):
                fn(i)
    torch.cuda.synchronize()
    best = 1e9
    for _ in range(5):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        torch.cuda.synchronize()
        best = min(best, a.elapsed_time(b) * 1000 / reps)
    return best


def main():
    n = 128 * 1024
    for rows, per_row, warps, block in [(32, 1, 32, 32768), (32, 1, 32, 8192), (32, 1, 8, 8192), (32, 1, 32, 65536),
                                        (132, 1, 32, 32768), (32, 2, 32, 32768), (32, 4, 32, 16384),
                                        (128, 1, 32, 32768), (1, 1, 32, 32768), (1, 8, 32, 16384)]:
        xs = [torch.randn(rows, n, device="cuda") for _ in range(8)]
        out = torch.empty(rows * per_row, device="cuda")

        def fn(i, xs=xs, out=out, rows=rows, per_row=per_row, block=block, warps=warps):
            row_sum[(rows * per_row,)](xs[i % 8], out, n, per_row=per_row, BLOCK=block, num_warps=warps)

        us = time_us(fn)
        kb = n * 4 / per_row / 1024
        print(f"rows {rows:4d} x {per_row} programs, {warps:2d} warps, block {block:6d}: {us:7.2f} us, "
              f"{kb:.0f} KB per program -> {kb * 1.024 / us:6.1f} GB/s per program, "
              f"total {rows * n * 4 / us / 1e3:7.1f} GB/s", flush=True)
        del xs


if __name__ == "__main__":
    main()
