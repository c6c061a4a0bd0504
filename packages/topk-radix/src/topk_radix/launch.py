"""Host side of the ``radix`` backend: geometry, compile cache, launch.

``run`` takes the register kernel (``regs.py``) wherever ``checks.reg_geometry``
gives a geometry (decode shapes), else the shared-memory kernel (``kernel.py``).
Nothing here reads device data: the launch depends on static facts (dtype, N,
rows, k, options, the logits pointer's alignment and row stride) only, so it is
CUDA-graph capturable. The kernel needs no global scratch at all.
"""

from __future__ import annotations

import torch

from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call, Problem

from . import __about__, checks

#: kernel.py's variant flags (all part of the compile key). Defaults are the version measured
#: fastest on the H200 (NOTES.md, 2026-11-29). static_slices + aggregate together measured
#: 10-45% slower; prefix_offsets compiles but has not run on a GPU yet.
VARIANT = {"static_slices": False, "aggregate": False, "prefix_offsets": False}
#: Compile-time raw-bits element type per dtype name.
_RAW = {"float32": "Uint32", "bfloat16": "Uint16", "float16": "Uint16"}
_FAKE_ADDRESS = 1 << 20  # any 16-byte-aligned address: compile never dereferences it


#: Dev only: regs.py's variant flags for every launch (None: ``checks.reg_variant`` picks them).
#: gather: candidate buffer (keys) that passes 1.. run from after pass 0, in every CTA of a
#: cluster (0 = off; C=1 ignores it); warp_emit: one output-offset atomic per warp instead of a
#: CTA scan; early: no more passes once the threshold bin holds exactly the keys still needed;
#: fkey: one bound per slot, float32 keys from a float add; emit1: the emit compares bin edges,
#: one branch per key, ties apart; nozero: pass 0 counts key 0 without a branch (all lean.py; not
#: measured yet, off unless forced here).
REG_VARIANT: dict | None = None

#: Dev only: ("regs", C, T, E) or ("smem",) forces a kernel/geometry; STAMPS, an int64 CUDA
#: tensor of rows*C*regs.STAMPS words, makes the regs kernel record per-phase clocks there.
FORCE: tuple | None = None
STAMPS = None
#: Dev only: False keeps every row in the cluster kernel (rows past its wave then run after it, not beside it).
SIDE = True


def _arch_tag() -> str:
    import os

    return os.environ.get("CUTE_DSL_ARCH", "native")


def vec_for(logits: torch.Tensor, dtype: str) -> int:
    """16-byte copies when every row start is 16-byte aligned, else the scalar path."""
    vec = checks.vector_width(dtype)
    if logits.shape[1] >= vec and logits.data_ptr() % 16 == 0 and (logits.stride(0) % vec == 0 or logits.shape[0] <= 1):
        return vec
    return 1


def kernel_key(dtype: str, cluster: int, capacity: int, threads: int, vec: int, return_values: bool,
               variant: tuple = ()):
    import cutlass

    return ("topk_radix.cluster", __about__.__version__, getattr(cutlass, "__version__", "?"), _arch_tag(),
            dtype, cluster, capacity, threads, vec, bool(return_values), tuple(variant))


def compile_kernel(dtype: str, cluster: int, capacity: int, threads: int, vec: int, return_values: bool,
                   variant: tuple = (), options: str = ""):
    """Compile one variant from placeholder pointers (works on CPU with CUTE_DSL_ARCH=sm_90a).

    ``variant``: ``(name, bool)`` pairs of ``VARIANT`` flags (missing ones take the defaults).
    """
    import cutlass
    import cutlass.cute as cute
    from cutlass import Int32, Int64
    from cutlass.cute.runtime import make_fake_stream, make_ptr

    from .kernel import ClusterRadixTopK

    raw = getattr(cutlass, _RAW[dtype])
    itemsize = 4 if dtype == "float32" else 2
    gmem = cute.AddressSpace.gmem
    flags = {**VARIANT, **dict(variant)}
    op = ClusterRadixTopK(dtype, cluster, capacity, threads, vec, return_values, **flags)
    args = (make_ptr(raw, _FAKE_ADDRESS, gmem, assumed_align=16 if vec > 1 else itemsize),
            Int64(1), Int32(1), make_ptr(Int32, _FAKE_ADDRESS, gmem, assumed_align=4),
            Int32(1), Int32(1), Int32(1), Int32(1),
            make_ptr(Int32, _FAKE_ADDRESS, gmem, assumed_align=4),
            make_ptr(raw, _FAKE_ADDRESS, gmem, assumed_align=itemsize),
            make_fake_stream())
    return cute.compile(op, *args, options=options)


def compile_regs(dtype: str, cluster: int, threads: int, elems: int, vec: int, return_values: bool,
                 stamps: bool = False, options: str = "", gather: int = 0, warp_emit: bool = False,
                 early: bool = False, fkey: bool = False, emit1: bool = False, nozero: bool = False,
                 preclear: bool = False, upscan: bool = False, emitb: bool = False, spare: bool = False,
                 push0: bool = False, relaxed_exit: bool = False):
    """Compile the register-resident kernel (``regs.py``) from placeholder pointers (CPU-safe)."""
    import cutlass
    import cutlass.cute as cute
    from cutlass import Int32, Int64
    from cutlass.cute.runtime import make_fake_stream, make_ptr

    from .regs import ClusterRegTopK

    raw = getattr(cutlass, _RAW[dtype])
    itemsize = 4 if dtype == "float32" else 2
    gmem = cute.AddressSpace.gmem
    op = ClusterRegTopK(dtype, cluster, threads, elems, vec, return_values, stamps, gather, warp_emit, early,
                        fkey, emit1, nozero, preclear, upscan, emitb, spare, push0, relaxed_exit)
    args = (make_ptr(raw, _FAKE_ADDRESS, gmem, assumed_align=16 if vec > 1 else itemsize),
            Int64(1), Int32(1), make_ptr(Int32, _FAKE_ADDRESS, gmem, assumed_align=4),
            Int32(1), Int32(1), Int32(1), Int32(1),
            make_ptr(Int32, _FAKE_ADDRESS, gmem, assumed_align=4),
            make_ptr(raw, _FAKE_ADDRESS, gmem, assumed_align=itemsize),
            make_ptr(Int64, _FAKE_ADDRESS, gmem, assumed_align=8),
            make_fake_stream())
    return cute.compile(op, *args, options=options)


def get_regs(dtype: str, cluster: int, threads: int, elems: int, vec: int, return_values: bool,
             stamps: bool = False, variant: dict | None = None):
    variant = variant or {}
    gather = int(variant.get("gather", 0)) if cluster > 1 else 0
    warp_emit = bool(variant.get("warp_emit", False))
    early = bool(variant.get("early", False))
    fkey = bool(variant.get("fkey", False))
    emit1 = bool(variant.get("emit1", False))
    nozero = bool(variant.get("nozero", False))
    preclear = bool(variant.get("preclear", False))
    upscan = bool(variant.get("upscan", False))
    emitb = bool(variant.get("emitb", False)) and emit1 and elems <= 16  # as regs.py: no build of its own
    spare = bool(variant.get("spare", False)) and cluster > 1
    push0 = bool(variant.get("push0", False)) and cluster > 1
    relaxed_exit = bool(variant.get("relaxed_exit", False)) and cluster > 1
    flags = (("regs", elems, stamps), ("gather", gather), ("warp_emit", warp_emit), ("early", early))
    if fkey or emit1 or nozero:  # the shipped kernels keep their keys
        flags += (("fkey", fkey), ("emit1", emit1), ("nozero", nozero))
    flags += (("preclear", True),) if preclear else ()
    flags += (("upscan", True),) if upscan else ()
    flags += (("emitb", True),) if emitb else ()
    flags += (("spare", True),) if spare else ()
    flags += (("push0", True),) if push0 else ()
    flags += (("relaxed_exit", True),) if relaxed_exit else ()
    key = kernel_key(dtype, cluster, threads * elems, threads, vec, return_values, flags)
    return compile_cached(key, lambda: compile_regs(dtype, cluster, threads, elems, vec, return_values, stamps,
                                                    gather=gather, warp_emit=warp_emit, early=early, fkey=fkey,
                                                    emit1=emit1, nozero=nozero, preclear=preclear,
                                                    upscan=upscan, emitb=emitb, spare=spare, push0=push0,
                                                    relaxed_exit=relaxed_exit))


def get_kernel(dtype: str, cluster: int, capacity: int, threads: int, vec: int, return_values: bool):
    variant = tuple(sorted(VARIANT.items()))
    key = kernel_key(dtype, cluster, capacity, threads, vec, return_values, variant)
    return compile_cached(key, lambda: compile_kernel(dtype, cluster, capacity, threads, vec, return_values,
                                                      variant))


def _call_args(call: Call, dtype: str, vec: int) -> list:
    """The arguments both kernels take first (logits .. values); the stream goes last. ``call.seq_lens`` has
    unit stride: topk-core copies a strided view before dispatch (``validate.unit_stride``)."""
    import cutlass
    import cutlass.cute as cute
    from cutlass import Int32, Int64
    from cutlass.cute.runtime import make_ptr

    logits = call.logits
    raw = getattr(cutlass, _RAW[dtype])
    itemsize = logits.element_size()
    gmem = cute.AddressSpace.gmem
    values = call.values if call.values is not None else call.indices
    return [make_ptr(raw, logits.data_ptr(), gmem, assumed_align=16 if vec > 1 else itemsize),
            Int64(logits.stride(0)), Int32(logits.shape[1]),
            make_ptr(Int32, call.seq_lens.data_ptr(), gmem, assumed_align=4),
            Int32(call.next_n), Int32(call.compress_ratio), Int32(call.top_k), Int32(logits.shape[0]),
            make_ptr(Int32, call.indices.data_ptr(), gmem, assumed_align=4),
            make_ptr(raw, values.data_ptr(), gmem, assumed_align=itemsize)]


def _stream(logits: torch.Tensor):
    from cuda.bindings import driver as cuda

    return cuda.CUstream(torch.cuda.current_stream(logits.device).cuda_stream)


def run(problem: Problem, call: Call) -> None:
    logits = call.logits
    rows, n = logits.shape
    dtype = problem.dtype
    regs = FORCE[1:] if FORCE and FORCE[0] == "regs" else checks.reg_geometry(rows, n, dtype)
    if FORCE and FORCE[0] == "smem":
        regs = None
    if regs is not None:
        return _run_regs(problem, call, regs)
    geo = checks.geometry(rows, n, dtype)
    if geo is None:  # supports() refused this already; keep the invariant loud
        raise RuntimeError(f"radix: N={n} does not fit a cluster")
    cluster, capacity, threads = geo
    vec = vec_for(logits, dtype)
    fn = get_kernel(dtype, cluster, capacity, threads, vec, call.values is not None)
    fn(*_call_args(call, dtype, vec), _stream(logits))


def _run_regs(problem: Problem, call: Call, geo: tuple) -> None:
    """The register kernel; rows past the GPU's cluster wave go to ``side`` (beside it, not after it)."""
    wave = call.logits.shape[0]
    if SIDE and FORCE is None and STAMPS is None:
        from . import side

        wave = side.wave_rows(call, geo)
        if wave < call.logits.shape[0]:
            return side.run_split(call, wave, lambda sub: _launch_regs(problem, sub, geo))
    return _launch_regs(problem, call, geo)


def _launch_regs(problem: Problem, call: Call, geo: tuple) -> None:
    import cutlass.cute as cute
    from cutlass import Int64
    from cutlass.cute.runtime import make_ptr

    logits = call.logits
    dtype = problem.dtype
    cluster, threads, elems = geo
    vec = vec_for(logits, dtype)
    stamps = STAMPS is not None
    variant = REG_VARIANT
    if variant is None:
        variant = checks.reg_variant(logits.shape[0], dtype, geo, call.next_n)
    fn = get_regs(dtype, cluster, threads, elems, vec, call.values is not None, stamps, variant)
    # Never dereferenced without stamps: any 8-byte-aligned address will do.
    dbg = STAMPS.data_ptr() if stamps else call.indices.data_ptr() // 8 * 8
    fn(*_call_args(call, dtype, vec), make_ptr(Int64, dbg, cute.AddressSpace.gmem, assumed_align=8),
       _stream(logits))
