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


#: Split path (split.py): a row is cut into S chunks when rows are few. Stage 1 costs about
#: one chunk (W = N/S columns, all chunks in parallel) and stage 2 about S*k candidates in
#: one CTA, so S ~ sqrt(N/k) balances them. Measured on the H200 (NOTES.md, 2026-11-29):
#: best with rows*S <= 128 CTAs (1x128K: S=8 23.6 us vs 37.2 one CTA; 32x128K: S=4 29.8 vs
#: 49.0; 64x128K: S=2 39.5 vs 49.6), no gain at N <= 32K or at >= 128 rows.
SPLIT_MAX_CTAS = 128
SPLIT_MAX_CHUNKS = 32
SPLIT_MIN_N = 65536
#: Narrower chunks do not repay the second launch (tests lower both to reach the path on small rows).
SPLIT_MIN_WIDTH = 16384
#: (threads, first-digit bits) of the chunk and merge kernels (13 bits: chunks and candidate
#: rows reach 64K keys; 11 bits cost 1.3-2.7x there and gain nothing at 16K).
CHUNK_PLAN = (1024, 13)
MERGE_PLAN = (1024, 13)


def split_plan(rows: int, n: int, k: int, load_balance: bool = True) -> tuple[int, int]:
    """(chunks S, chunk width W) for a shape, from static facts only; S == 1: no split.

    W is a multiple of 8 elements, so every chunk starts 16-byte aligned when the row does.
    """
    if not load_balance or rows <= 0 or k <= 0 or n < SPLIT_MIN_N:
        return 1, n
    chunks = 1
    while (chunks * 2 <= SPLIT_MAX_CHUNKS and rows * chunks * 2 <= SPLIT_MAX_CTAS
           and (chunks * 2) ** 2 * k <= n and chunks * 2 * SPLIT_MIN_WIDTH <= n):
        chunks *= 2
    if chunks == 1:
        return 1, n
    width = -(-n // chunks)
    width = -(-width // 8) * 8
    return chunks, width


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


def compiled_split(dtype: str, with_values: bool, vec: bool, arch: str):
    """The split path's two kernels, one build per dtype, values flag and alignment."""
    import cutlass

    key = ("radix_cutlass", "SplitRadixTopK", 1, dtype, with_values, vec, CHUNK_PLAN, MERGE_PLAN, CAND,
           UNROLL, UNROLL1, arch, getattr(cutlass, "__version__", "?"))
    return compile_cached(key, lambda: build_split(dtype, with_values, vec))


def split_variants(dtypes=DTYPES):
    """Every (dtype, with_values, vec) of the split path."""
    return [(d, w, v) for d in dtypes for w in (False, True) for v in (False, True)]


def build_split(dtype: str, with_values: bool, vec: bool = True, options: str = ""):
    """Compile both split kernels from placeholder pointers (works on CPU with CUTE_DSL_ARCH set)."""
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr

    from topk_core.kernels.cute_common import RAW_TYPE

    from .split import ChunkTopK, MergeTopK, SplitRadixTopK

    common = dict(cand=CAND, unroll=UNROLL, unroll1=UNROLL1, vec=vec)
    chunk = ChunkTopK(dtype, False, threads=CHUNK_PLAN[0], first_bits=CHUNK_PLAN[1], **common)
    merge = MergeTopK(dtype, with_values, threads=MERGE_PLAN[0], first_bits=MERGE_PLAN[1], **common)
    elem = RAW_TYPE[dtype]

    def ptr(t):
        return make_ptr(t, 16, cute.AddressSpace.gmem, assumed_align=t.width // 8)

    one = cutlass.Int32(1)
    i32 = cutlass.Int32
    return cute.compile(SplitRadixTopK(chunk, merge), ptr(elem), ptr(i32), ptr(i32), ptr(i32), ptr(i32), ptr(elem),
                        one, one, one, one, one, one, one, one, one, cuda.CUstream(0), options=options)


def launch_split(call: Call, chunks: int, width: int) -> None:
    """Run the split path: scratch of rows x cstride candidate keys and columns (no zeroing needed)."""
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr

    from topk_core.kernels.cute_common import RAW_TYPE
    from topk_core.workspace import launch_sequence, scratch

    logits = call.logits
    rows, n = logits.shape
    dtype = DTYPE_NAME[logits.dtype]
    k = call.top_k
    cstride = -(-(chunks * k) // 4) * 4  # 16-byte aligned candidate rows
    vec = logits.data_ptr() % 16 == 0 and (logits.stride(0) * logits.element_size()) % 16 == 0
    fn = compiled_split(dtype, call.values is not None, vec, _arch(logits.device))
    buf = scratch("radix_cutlass.split", logits.device, 8 * rows * cstride, call.workspace)
    keys = buf[: 4 * rows * cstride]
    cols = buf[4 * rows * cstride: 8 * rows * cstride]
    elem = RAW_TYPE[dtype]
    align = logits.element_size()

    def ptr(t, tensor, a):
        return make_ptr(t, tensor.data_ptr(), cute.AddressSpace.gmem, assumed_align=a)

    i32 = cutlass.Int32
    values = call.values if call.values is not None else logits  # never written without values
    stream = cuda.CUstream(torch.cuda.current_stream(logits.device).cuda_stream)
    with launch_sequence:  # the merge kernel reads what the chunk kernel wrote to the scratch: no launches between
        fn(ptr(elem, logits, align), ptr(i32, call.seq_lens, 4), ptr(i32, keys, 16), ptr(i32, cols, 16),
           ptr(i32, call.indices, 4), ptr(elem, values, align), rows, n, logits.stride(0), k, call.next_n,
           call.compress_ratio, width, chunks, cstride, stream)


def launch(call: Call) -> None:
    logits = call.logits
    rows, n = logits.shape
    if rows == 0:
        return
    chunks, width = split_plan(rows, n, call.top_k, call.load_balance)
    if chunks > 1:
        launch_split(call, chunks, width)
        return
    dtype = DTYPE_NAME[logits.dtype]
    with_values = call.values is not None
    # 16-byte vector loads need every row start 16-byte aligned (a host fact, no sync).
    vec = logits.data_ptr() % 16 == 0 and (logits.stride(0) * logits.element_size()) % 16 == 0
    threads, first_bits = plan(rows, n)
    fn = compiled(dtype, with_values, threads, vec, first_bits, _arch(logits.device))
    launch_row_topk(fn, call)
