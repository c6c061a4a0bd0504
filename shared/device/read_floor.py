"""Dev only (H200): how fast can a kernel that only reads each row's valid columns once go, on the radix_filter
floor cells? A Triton program per row (or G programs per row) loads its columns with 16-byte loads and keeps a
max, nothing else: the time a one-CTA-per-row (or G-CTA) top-K kernel cannot beat. Timed like ``topk bench``
(CUDA-graph replay over rotating inputs, seq_lens uniform in [N/2, N]).
Session 20: ``sgl`` in argv times issue 6's cells instead, each program also writing its row's k = 2048 output slots
(what a one-launch top-K must at least do), one program of 8 or 16 warps per row and 2-8 per row.
Usage: python3 shared/device/read_floor.py [sgl]"""

import sys

import torch
import triton
import triton.language as tl

from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph


@triton.jit
def _slice_max(x_ptr, lens_ptr, n, G: tl.constexpr, BLOCK: tl.constexpr):
    """Program (b, g): the max of row b's g-th of G slices of its valid columns (16-byte loads, one pass)."""
    b = tl.program_id(0)
    g = tl.program_id(1)
    L = tl.load(lens_ptr + b)
    per = tl.cdiv(tl.cdiv(L, G), BLOCK) * BLOCK
    lo = g * per
    hi = tl.minimum(lo + per, L)
    row = x_ptr + b.to(tl.int64) * n
    acc = tl.full([BLOCK], float("-inf"), tl.float32)
    for c in range(lo, hi, BLOCK):
        i = tl.multiple_of(c, BLOCK) + tl.arange(0, BLOCK)
        acc = tl.maximum(acc, tl.load(row + i, mask=i < hi, other=float("-inf")))
    return tl.max(acc, axis=0)


@triton.jit
def _row_max(x_ptr, lens_ptr, out_ptr, n, G: tl.constexpr, BLOCK: tl.constexpr):
    tl.store(out_ptr + tl.program_id(0) * G + tl.program_id(1), _slice_max(x_ptr, lens_ptr, n, G, BLOCK))


@triton.jit
def _row_read_write(x_ptr, lens_ptr, out_ptr, n, k, G: tl.constexpr, BLOCK: tl.constexpr, KB: tl.constexpr):
    """``_row_max``, then the row's k output slots written (program g of G writes its share), each slot depending on
    the max so that the stores wait for the loads as a top-K's do."""
    b = tl.program_id(0)
    g = tl.program_id(1)
    m = (_slice_max(x_ptr, lens_ptr, n, G, BLOCK) > 1e30).to(tl.int32)
    kper = tl.cdiv(k, G)
    for c in range(g * kper, tl.minimum(g * kper + kper, k), KB):
        j = c + tl.arange(0, KB)
        tl.store(out_ptr + b.to(tl.int64) * k + j, j + m, mask=j < tl.minimum(g * kper + kper, k))


def main():
    with torch.cuda.stream(torch.cuda.Stream()):  # graphs are captured off the default stream
        if "sgl" in sys.argv:
            _sgl_cells()
        else:
            _cells()


def _sgl_cells():
    K = 1024
    for shape in (Shape(1, 8 * K), Shape(8, 32 * K), Shape(32, 128 * K), Shape(128, 32 * K), Shape(128, 128 * K),
                  Shape(512, 128 * K), Shape(4096, 8 * K), Shape(1024, 64 * K)):
        count = rotations(shape.nbytes)
        inputs = make_inputs(shape, count, "cuda")
        out = torch.empty(shape.rows, shape.k, dtype=torch.int32, device="cuda")
        for g, warps in ((1, 4), (1, 8), (1, 16), (2, 8), (4, 8), (8, 8)):
            block = 32 * warps * 8

            def step(i, g=g, warps=warps, block=block, shape=shape, inputs=inputs, out=out):
                _row_read_write[(shape.rows, g)](inputs.logits[i], inputs.lengths[i], out, shape.n, shape.k, G=g,
                                                 BLOCK=block, KB=32 * warps * 4, num_warps=warps)

            for i in range(count):
                step(i)
            torch.cuda.synchronize()
            us = time_graph(step, count, 20)
            print(f"{shape.label:>10} G={g} warps={warps}: read + write k {us:.2f} us", flush=True)


def _cells():
    K = 1024
    for shape in (Shape(128, 32 * K), Shape(32, 128 * K), Shape(4096, 8 * K)):
        count = rotations(shape.nbytes)
        inputs = make_inputs(shape, count, "cuda")
        for g, warps, block in ((1, 32, 8192), (1, 16, 4096), (2, 16, 4096), (4, 16, 4096), (8, 16, 4096),
                                (1, 4, 1024)):
            out = torch.empty(shape.rows * g, device="cuda")

            def step(i, g=g, warps=warps, block=block, out=out, shape=shape, inputs=inputs):
                _row_max[(shape.rows, g)](inputs.logits[i], inputs.lengths[i], out, shape.n, G=g, BLOCK=block,
                                          num_warps=warps)

            for i in range(count):
                step(i)
            torch.cuda.synchronize()
            us = time_graph(step, count, 20)
            mb = sum(int(x.sum()) for x in inputs.lengths) * 4 / count / 1e6
            print(f"{shape.label:>10} G={g} warps={warps} block={block}: {us:.2f} us ({mb / us:.2f} TB/s of valid "
                  f"columns; {mb:.1f} MB)", flush=True)


if __name__ == "__main__":
    main()
