"""Host side shared by the one-CTA-per-row CuTe DSL backends (radix_cutlass, radix_filter).

Their kernels (``cute_common.RowTopK`` subclasses) take the same arguments: the
logits, seq_lens, indices and values as pointers (logits and values as raw bits,
``cute_common.RAW_TYPE``), then rows, N, the row stride, k, next_n, compress_ratio
and the stream. ``compile_row_topk`` builds one from placeholders and
``launch_row_topk`` runs a build on a call.

cutlass is imported inside the functions only: importing this module stays cheap,
but only kernel/launch modules should import it anyway.
"""

from __future__ import annotations

import torch

from topk_core.protocol import Call

#: Logits dtype -> the dtype name the kernels are specialised on.
DTYPE_NAME = {torch.float32: "float32", torch.bfloat16: "bfloat16", torch.float16: "float16"}


def _raw_type(dtype: str):
    from .cute_common import RAW_TYPE

    return RAW_TYPE[dtype]


def compile_row_topk(op, dtype: str, options: str = "", entry=None, extra: tuple[str, ...] = ()):
    """``cute.compile`` a row kernel from placeholder pointers (works on CPU with CUTE_DSL_ARCH set).
    ``entry``: a host function of ``op`` other than ``op`` itself, whose arguments are ``op``'s followed by
    ``extra`` ("i32*": an int32 pointer, "i32": an int32) before the stream."""
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr

    elem = _raw_type(dtype)

    def ptr(t):
        return make_ptr(t, 16, cute.AddressSpace.gmem, assumed_align=t.width // 8)

    one = cutlass.Int32(1)
    more = [ptr(cutlass.Int32) if kind == "i32*" else one for kind in extra]
    return cute.compile(entry or op, ptr(elem), ptr(cutlass.Int32), ptr(cutlass.Int32), ptr(elem),
                        one, one, one, one, one, one, *more, cuda.CUstream(0), options=options)


def launch_row_topk(fn, call: Call, extra: tuple = ()) -> None:
    """Run a compiled row kernel on ``call`` on the current stream (no host sync). ``extra``: the arguments a
    ``compile_row_topk(..., extra=...)`` build takes after ``call``'s (int32 tensors as pointers, ints)."""
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr

    logits = call.logits
    rows, n = logits.shape
    elem = _raw_type(DTYPE_NAME[logits.dtype])
    align = logits.element_size()

    def ptr(t, tensor, a):
        return make_ptr(t, tensor.data_ptr(), cute.AddressSpace.gmem, assumed_align=a)

    values = call.values if call.values is not None else logits  # never written without values
    stream = cuda.CUstream(torch.cuda.current_stream(logits.device).cuda_stream)
    more = [ptr(cutlass.Int32, a, 4) if isinstance(a, torch.Tensor) else a for a in extra]
    fn(ptr(elem, logits, align), ptr(cutlass.Int32, call.seq_lens, 4), ptr(cutlass.Int32, call.indices, 4),
       ptr(elem, values, align), rows, n, logits.stride(0), call.top_k, call.next_n,
       call.compress_ratio, *more, stream)
