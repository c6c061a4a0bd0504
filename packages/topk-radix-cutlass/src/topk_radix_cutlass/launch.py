"""Host side of radix_cutlass: compile cache and launch. No host sync: graph-capturable."""

from __future__ import annotations

import torch
from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call

_INT_VIEW = {torch.float32: torch.int32, torch.bfloat16: torch.int16, torch.float16: torch.int16}
_NAME = {torch.float32: "float32", torch.bfloat16: "bfloat16", torch.float16: "float16"}
#: Block shape: threads per CTA, candidate-buffer entries, loads in flight per thread.
THREADS, CAND, UNROLL = 512, 4096, 4


def _arch(device: torch.device) -> str:
    major, minor = torch.cuda.get_device_capability(device)
    return f"sm_{major}{minor}"


def compiled(dtype: str, with_values: bool, arch: str):
    """One build per (dtype, with_values, arch): it serves every rows, N, k, next_n, ratio."""
    import cutlass

    key = ("radix_cutlass", "RadixTopK", 1, dtype, with_values, THREADS, CAND, UNROLL, arch,
           getattr(cutlass, "__version__", "?"))
    return compile_cached(key, lambda: build(dtype, with_values))


def build(dtype: str, with_values: bool, options: str = ""):
    """Compile the kernel from placeholder pointers (works on CPU with CUTE_DSL_ARCH set)."""
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr

    from .kernel import RadixTopK

    elem = cutlass.Int32 if dtype == "float32" else cutlass.Int16
    op = RadixTopK(dtype, with_values, threads=THREADS, cand=CAND, unroll=UNROLL)

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
    fn = compiled(dtype, with_values, _arch(logits.device))
    elem = cutlass.Int32 if dtype == "float32" else cutlass.Int16
    align = logits.element_size()

    def ptr(t, tensor, a):
        return make_ptr(t, tensor.data_ptr(), cute.AddressSpace.gmem, assumed_align=a)

    values = call.values if with_values else logits
    stream = cuda.CUstream(torch.cuda.current_stream(logits.device).cuda_stream)
    fn(ptr(elem, logits, align), ptr(cutlass.Int32, call.seq_lens, 4), ptr(cutlass.Int32, call.indices, 4),
       ptr(elem, values, align), rows, n, logits.stride(0), call.top_k, call.next_n,
       call.compress_ratio, stream)
