"""Host side of radix_cutlass: compile cache and launch. No host sync: graph-capturable."""

from __future__ import annotations

import torch

from topk_core.kernels.cute_launch import DTYPE_NAME, compile_row_topk, launch_row_topk
from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call

#: Candidate-buffer entries and vectors in flight per thread (pass 0, pass 1).
CAND, UNROLL, UNROLL1 = 4096, 4, 2
#: Measured 2026-11-29 on the H200 (NOTES.md):
#: - 1024 threads win up to 128 rows (one CTA per SM anyway) and for 512x128K; 512 threads
#:   win for many shorter rows (4096x8K, 1024x64K), where several CTAs share an SM.
#: - a 13-bit first digit (32 KiB histogram) wins from N = 32K up (fewer shared-memory
#:   atomic conflicts, narrower candidate bin); 11 bits win below (less to clear and scan,
#:   more CTAs per SM).
BIG_BLOCK_MAX_ROWS = 264
BIG_BLOCK_MIN_N = 131072
WIDE_DIGIT_MIN_N = 32768


def plan(rows: int, n: int) -> tuple[int, int]:
    """(threads per CTA, first-digit bits) for a shape: static facts only."""
    threads = 1024 if rows <= BIG_BLOCK_MAX_ROWS or n >= BIG_BLOCK_MIN_N else 512
    first_bits = 13 if n >= WIDE_DIGIT_MIN_N else 11
    return threads, first_bits


def _arch(device: torch.device) -> str:
    major, minor = torch.cuda.get_device_capability(device)
    return f"sm_{major}{minor}"


def compiled(dtype: str, with_values: bool, threads: int, vec: bool, first_bits: int, arch: str):
    """One build per code-shaping fact; it serves every rows, N, k, next_n and ratio."""
    import cutlass

    key = ("radix_cutlass", "RadixTopK", 4, dtype, with_values, threads, vec, first_bits, CAND, UNROLL,
           UNROLL1, arch, getattr(cutlass, "__version__", "?"))
    return compile_cached(key, lambda: build(dtype, with_values, threads, vec, first_bits))


DTYPES = ("float32", "bfloat16", "float16")


def variants(dtypes=DTYPES):
    """Every (dtype, with_values, threads, vec, first_bits) the launcher can pick."""
    return [(d, w, t, v, f) for d in dtypes for w in (False, True) for t in (512, 1024) for v in (False, True)
            for f in (11, 13)]


def build(dtype: str, with_values: bool, threads: int = 512, vec: bool = True, first_bits: int = 13,
          options: str = ""):
    """Compile the kernel from placeholder pointers (works on CPU with CUTE_DSL_ARCH set)."""
    from .kernel import RadixTopK

    op = RadixTopK(dtype, with_values, threads=threads, cand=CAND, unroll=UNROLL, unroll1=UNROLL1, vec=vec,
                   first_bits=first_bits)
    return compile_row_topk(op, dtype, options)


def launch(call: Call) -> None:
    logits = call.logits
    rows, n = logits.shape
    if rows == 0:
        return
    dtype = DTYPE_NAME[logits.dtype]
    with_values = call.values is not None
    # 16-byte vector loads need every row start 16-byte aligned (a host fact, no sync).
    vec = logits.data_ptr() % 16 == 0 and (logits.stride(0) * logits.element_size()) % 16 == 0
    threads, first_bits = plan(rows, n)
    fn = compiled(dtype, with_values, threads, vec, first_bits, _arch(logits.device))
    launch_row_topk(fn, call)
