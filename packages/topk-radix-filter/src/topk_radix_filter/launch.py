"""Host side of radix_filter: compile cache and launch. No host sync: graph-capturable.

The kernel needs no global scratch (histogram and candidates live in shared
memory), so there is no workspace to manage and two streams never share state.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch

from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call

_NAME = {torch.float32: "float32", torch.bfloat16: "bfloat16", torch.float16: "float16"}


@dataclass(frozen=True)
class Variant:
    """Everything besides dtype/values that changes the generated code."""

    threads: int = 512
    cand: int = 4096
    unroll: int = 16
    agg: str = "uniform"
    prune: bool = True
    reverse: bool = True


#: The variant run() launches. Not yet chosen by measurement (NOTES.md): 16 loads in
#: flight per thread because 128 rows give one CTA per SM, which must then keep 32 KB
#: in flight by itself; ptxas gives 40 registers either way (3 CTAs per SM).
DEFAULT = Variant()


def _arch(device: torch.device) -> str:
    major, minor = torch.cuda.get_device_capability(device)
    return f"sm_{major}{minor}" + ("a" if major == 9 else "")


def compiled(dtype: str, with_values: bool, arch: str, variant: Variant = DEFAULT):
    """One build per (dtype, with_values, arch, variant); it serves every rows, N, k, next_n, ratio."""
    import cutlass

    key = ("radix_filter", "RadixFilter", 1, dtype, with_values, arch, tuple(sorted(asdict(variant).items())),
           getattr(cutlass, "__version__", "?"))
    return compile_cached(key, lambda: build(dtype, with_values, variant))


def build(dtype: str, with_values: bool, variant: Variant = DEFAULT, options: str = ""):
    """Compile from placeholder pointers (works without a GPU when CUTE_DSL_ARCH is set)."""
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr

    from .kernel import RadixFilter

    elem = cutlass.Int32 if dtype == "float32" else cutlass.Int16
    op = RadixFilter(dtype, with_values, **asdict(variant))

    def ptr(t):
        return make_ptr(t, 16, cute.AddressSpace.gmem, assumed_align=t.width // 8)

    one = cutlass.Int32(1)
    return cute.compile(op, ptr(elem), ptr(cutlass.Int32), ptr(cutlass.Int32), ptr(elem),
                        one, one, one, one, one, one, cuda.CUstream(0), options=options)


def launch(call: Call, variant: Variant = DEFAULT) -> None:
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
    fn = compiled(dtype, with_values, _arch(logits.device), variant)
    elem = cutlass.Int32 if dtype == "float32" else cutlass.Int16
    align = logits.element_size()

    def ptr(t, tensor, a):
        return make_ptr(t, tensor.data_ptr(), cute.AddressSpace.gmem, assumed_align=a)

    values = call.values if with_values else logits  # never written without values
    stream = cuda.CUstream(torch.cuda.current_stream(logits.device).cuda_stream)
    fn(ptr(elem, logits, align), ptr(cutlass.Int32, call.seq_lens, 4), ptr(cutlass.Int32, call.indices, 4),
       ptr(elem, values, align), rows, n, logits.stride(0), call.top_k, call.next_n,
       call.compress_ratio, stream)
