"""topk_core.kernels.cute_common matches its pure-torch twins in topk_core.keys, bit for bit (GPU)."""

import pytest
import torch

pytest.importorskip("cutlass")
pytestmark = [pytest.mark.gpu]

from topk_core.keys import order_keys, valid_lengths  # noqa: E402


def _build():
    import cutlass
    import cutlass.cute as cute
    from cutlass import Int32

    from topk_core.kernels.cute_common import order_key, valid_length

    @cute.kernel
    def keys_kernel(gx: cute.Tensor, gk: cute.Tensor, n: Int32, dtype: cutlass.Constexpr):
        tid, _, _ = cute.arch.thread_idx()
        bid, _, _ = cute.arch.block_idx()
        i = bid * 256 + tid
        if i < n:
            gk[i] = Int32(order_key(Int32(gx[i]), dtype))

    @cute.kernel
    def len_kernel(gs: cute.Tensor, gl: cute.Tensor, m: Int32, next_n: Int32, cr: Int32, width: Int32):
        tid, _, _ = cute.arch.thread_idx()
        bid, _, _ = cute.arch.block_idx()
        r = bid * 256 + tid
        if r < m:
            req = r // next_n
            gl[r] = valid_length(gs[req], r - req * next_n, next_n, cr, width)

    @cute.jit
    def keys(gx: cute.Tensor, gk: cute.Tensor, n: Int32, dtype: cutlass.Constexpr):
        keys_kernel(gx, gk, n, dtype).launch(grid=[(n + 255) // 256, 1, 1], block=[256, 1, 1])

    @cute.jit
    def lens(gs: cute.Tensor, gl: cute.Tensor, m: Int32, next_n: Int32, cr: Int32, width: Int32):
        len_kernel(gs, gl, m, next_n, cr, width).launch(grid=[(m + 255) // 256, 1, 1], block=[256, 1, 1])

    return keys, lens


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
def test_order_key_matches_torch(dtype):
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from cutlass.cute.runtime import from_dlpack

    keys, _ = _build()
    if dtype == "float32":
        g = torch.Generator().manual_seed(0)
        bits = torch.randint(-(1 << 31), (1 << 31) - 1, (1 << 20,), generator=g, dtype=torch.int32)
        special = torch.tensor([0, -(1 << 31), 0x7F800000, -0x00800000, 0x7FC00000, -0x00400000, 1, -1,
                                0x7F800001, 0x7FFFFFFF], dtype=torch.int32)
        bits = torch.cat([special, bits]).cuda()
        x = bits.view(torch.float32)
    else:
        bits = torch.arange(-(1 << 15), 1 << 15, dtype=torch.int32).to(torch.int16).cuda()
        x = bits.view(getattr(torch, dtype))
    out = torch.empty(bits.numel(), dtype=torch.int32, device="cuda")
    keys(from_dlpack(bits), from_dlpack(out), bits.numel(), dtype)
    torch.cuda.synchronize()
    want = order_keys(x)
    got = out.to(torch.int64) & ((1 << 32) - 1)
    assert torch.equal(got, want)


def test_valid_length_matches_torch():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from cutlass.cute.runtime import from_dlpack

    _, lens = _build()
    edge = [0, 1, 2, 3, 5, 999, 1000, 1001, 4003, -1, -2, -7, (1 << 31) - 1, -(1 << 31), 1 << 30]
    for next_n in (1, 2, 4):
        for cr in (1, 3, 4):
            seq = torch.tensor(edge * next_n, dtype=torch.int32).cuda()
            rows = seq.numel() * next_n
            out = torch.empty(rows, dtype=torch.int32, device="cuda")
            lens(from_dlpack(seq), from_dlpack(out), rows, next_n, cr, 1000)
            torch.cuda.synchronize()
            assert torch.equal(out.to(torch.int64), valid_lengths(seq, rows, 1000, next_n, cr)), (next_n, cr)
