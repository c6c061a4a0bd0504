"""Host side of radix_cutlass: compile cache and launch. No host sync: graph-capturable."""

from __future__ import annotations

import torch

from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call

_INT_VIEW = {torch.float32: torch.int32, torch.bfloat16: torch.int16, torch.float16: torch.int16}
_NAME = {torch.float32: "float32", torch.bfloat16: "bfloat16", torch.float16: "float16"}
#: Candidate-buffer entries, vectors in flight per thread (pass 0, pass 1), first-digit bits.
CAND, UNROLL, UNROLL1, FIRST_BITS = 4096, 4, 2, 13
#: Few rows get 1024 threads per CTA (one CTA per SM anyway); many short rows get 512 so
#: several CTAs share an SM. Measured 2026-11-29 (NOTES.md): 1024 wins up to 128 rows and
#: for 512x128K; 512 wins for 4096x8K and 1024x64K.
BIG_BLOCK_MAX_ROWS = 264
BIG_BLOCK_MIN_N = 131072


def threads_for(rows: int, n: int = 0) -> int:
    return 1024 if rows <= BIG_BLOCK_MAX_ROWS or n >= BIG_BLOCK_MIN_N else 512


def _arch(device: torch.device) -> str:
    major, minor = torch.cuda.get_device_capability(device)
    return f"sm_{major}{minor}"


def compiled(dtype: str, with_values: bool, threads: int, vec: bool, arch: str):
    """One build per code-shaping fact; it serves every rows, N, k, next_n and ratio."""
    import cutlass

    key = ("radix_cutlass", "RadixTopK", 3, dtype, with_values, threads, vec, CAND, UNROLL, UNROLL1,
           FIRST_BITS, arch, getattr(cutlass, "__version__", "?"))
    return compile_cached(key, lambda: build(dtype, with_values, threads, vec))


def variants():
    """Every (dtype, with_values, threads, vec) the launcher can pick."""
    return [(d, w, t, v) for d in _NAME.values() for w in (False, True) for t in (512, 1024) for v in (False, True)]


def build(dtype: str, with_values: bool, threads: int = 512, vec: bool = True, options: str = ""):
    """Compile the kernel from placeholder pointers (works on CPU with CUTE_DSL_ARCH set)."""
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr

    from .kernel import RadixTopK

    elem = cutlass.Int32 if dtype == "float32" else cutlass.Int16
    op = RadixTopK(dtype, with_values, threads=threads, cand=CAND, unroll=UNROLL, unroll1=UNROLL1, vec=vec,
                   first_bits=FIRST_BITS)

    def ptr(t):
        return make_ptr(t, 16, cute.AddressSpace.gmem, assumed_align=t.width // 8)

    one = cutlass.Int32(1)
    return cute.compile(op, ptr(elem), ptr(cutlass.Int32), ptr(cutlass.Int32), ptr(elem),
                        one, one, one, one, one, one, cuda.CUstream(0), options=options)


def launch(call: Call) -> None:
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr

    logits = call.logits
    rows, n = logits.shape
    if rows == 0:
        return
    dtype = _NAME[logits.dtype]
    with_values = call.values is not None
    # 16-byte vector loads need every row start 16-byte aligned (a host fact, no sync).
    vec = logits.data_ptr() % 16 == 0 and (logits.stride(0) * logits.element_size()) % 16 == 0
    fn = compiled(dtype, with_values, threads_for(rows, n), vec, _arch(logits.device))
    elem = cutlass.Int32 if dtype == "float32" else cutlass.Int16
    align = logits.element_size()

    def ptr(t, tensor, a):
        return make_ptr(t, tensor.data_ptr(), cute.AddressSpace.gmem, assumed_align=a)

    values = call.values if with_values else logits
    stream = cuda.CUstream(torch.cuda.current_stream(logits.device).cuda_stream)
    fn(ptr(elem, logits, align), ptr(cutlass.Int32, call.seq_lens, 4), ptr(cutlass.Int32, call.indices, 4),
       ptr(elem, values, align), rows, n, logits.stride(0), call.top_k, call.next_n,
       call.compress_ratio, stream)
