"""Dev only (H200): how fast can a kernel that only reads each row's valid columns once go, on the radix_filter
floor cells? A Triton program per row (or G programs per row) loads its columns with 16-byte loads and keeps a
max, nothing else: the time a one-CTA-per-row (or G-CTA) top-K kernel cannot beat. Timed like ``topk bench``
(CUDA-graph replay over rotating inputs, seq_lens uniform in [N/2, N]).
Usage: python3 shared/device/read_floor.py"""

import torch
import triton
import triton.language as tl

from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph


@triton.jit
def _row_max(x_ptr, lens_ptr, out_ptr, n, G: tl.constexpr, BLOCK: tl.constexpr):
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
    tl.store(out_ptr + b * G + g, tl.max(acc, axis=0))


def main():
    with torch.cuda.stream(torch.cuda.Stream()):  # graphs are captured off the default stream
        _cells()


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
