"""CuTe DSL device helpers shared by the CuTe DSL backends (radix, radix_filter, radix_cutlass).

Importing this module imports ``cutlass``: only kernel modules should import it,
lazily, never a plugin. The helpers follow ``topk_core.keys`` (their pure-torch
twins) bit for bit:

- ``order_key(bits, dtype)``: the order-preserving unsigned key of a logit given
  as its raw bits (read the logits through an int32/int16 view so values can be
  copied back bit-exactly). NaN of either sign maps to the top key, ``-0.0`` to
  ``+0.0``'s key. Keys lie in ``[0, 2**bits - 1]`` as ``Uint32``.
- ``valid_length(seq_len, t, next_n, compress_ratio, n)``: the spec's
  ``clamp((seq_len - next_n + t + 1) // compress_ratio, 0, n)`` without overflow
  for any int32 ``seq_len`` and without unsigned reinterpretation.


Building blocks of the one-CTA-per-row radix kernels (radix_cutlass, radix_filter):

- ``warp_inclusive_sum(x, lane)``: inclusive prefix sum over a warp.
- ``warp_append(take, counter_ptr, lane)``: warp-aggregated ``atomicAdd(counter, 1)``.
- ``warp_reserve(count, counter_ptr, lane)``: the same for per-lane counts (one atomic per warp
  for a whole tile of a thread's elements).
- ``find_bin(...)``: block scan of a shared-memory histogram from the top bin down.
- ``RowTopK``: base class with the host entry (one CTA per row); its kernels call
  ``alloc_row_buffers``, ``row_views`` and ``write_short_row`` for the shared
  prologue (buffers, row views, rows with ``L <= k``).

Never name a variable or argument ``pred`` in DSL code: CuTe DSL 4.8.1 names the
condition of every dynamic ``if`` ``pred``, which shadows it inside the branch.

Stable names (other packages import them): ``KEY_BITS``, ``NAN_EXP_MASK``,
``NEG_INF_BITS``, ``order_key``, ``order_key_f32``, ``order_key_f16``,
``order_key_bf16``, ``valid_length``, ``st_shared_if``.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int16, Int32, Int64, Uint32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T as mlir_t
from cutlass.memory import SmemAllocator

#: Key width per dtype name.
KEY_BITS = {"float32": 32, "bfloat16": 16, "float16": 16}
#: Exponent mask (sign bit cleared) of +inf: |bits| above it is a NaN.
NAN_EXP_MASK = {"float32": 0x7F800000, "bfloat16": 0x7F80, "float16": 0x7C00}
#: Raw bits of -inf (the padding value), as the signed integer the int view holds.
NEG_INF_BITS = {"float32": -0x00800000, "bfloat16": -0x0080, "float16": -0x0400}
#: Signed integer type of the raw-bits view the kernels read the logits through.
RAW_TYPE = {"float32": Int32, "bfloat16": Int16, "float16": Int16}

#: Control block of the row kernels: ``CTL_WORDS`` Int32 words of shared memory. Slots
#: 0-2 are the kernel's own counters; ``find_bin`` writes its answer to ``BIN``/``KREM``
#: and the warp partial sums to ``[WSUM, WSUM + warps)``.
CTL_WORDS = 64
BIN, KREM = 3, 4
WSUM = 32


@cute.jit
def _order_key(bits: Int32, width: cutlass.Constexpr, inf_bits: cutlass.Constexpr) -> Uint32:
    full = (1 << width) - 1
    sign = 1 << (width - 1)
    u = Uint32(bits) & Uint32(full)
    key = u | Uint32(sign)
    if (u & Uint32(sign)) != Uint32(0):
        key = u ^ Uint32(full)
    if u == Uint32(sign):  # -0.0 ranks as +0.0
        key = Uint32(sign)
    if (u & Uint32(full ^ sign)) > Uint32(inf_bits):  # any NaN: top key
        key = Uint32(full)
    return key


@cute.jit
def order_key_f32(bits: Int32) -> Uint32:
    """Key of a float32 given as its int32 bits."""
    return _order_key(bits, 32, 0x7F800000)


@cute.jit
def order_key_f16(bits: Int32) -> Uint32:
    """Key of a float16 given as its bits (int16 sign-extended or not)."""
    return _order_key(bits, 16, 0x7C00)


@cute.jit
def order_key_bf16(bits: Int32) -> Uint32:
    """Key of a bfloat16 given as its bits (int16 sign-extended or not)."""
    return _order_key(bits, 16, 0x7F80)


@cute.jit
def order_key(bits: Int32, dtype: cutlass.Constexpr) -> Uint32:
    """Key of a logit of ``dtype`` ("float32" | "bfloat16" | "float16") from its raw bits."""
    return _order_key(bits, KEY_BITS[dtype], NAN_EXP_MASK[dtype])


@cute.jit
def order_key_f32_fadd(bits, nan_on_input: cutlass.Constexpr = False) -> Uint32:
    """``order_key_f32`` from ``x + 0.0`` and a sign flip: the add turns -0.0 into +0.0, so the flip needs
    no -0 case. NaN: by default the add's canonical NaN 0x7FFFFFFF (top key; 3 instructions, radix_filter);
    ``nan_on_input`` tests the input for NaN and selects the top key itself (5 instructions, radix), not
    relying on the add's NaN. Both were checked on the H200 with NaNs of every sign and payload."""
    if cutlass.const_expr(nan_on_input):
        return Uint32(llvm.inline_asm(
            mlir_t.i32(), [Uint32(bits).ir_value()],
            "{\n\t.reg .f32 f;\n\t.reg .b32 r, s;\n\t.reg .pred p;\n\t"
            "mov.b32 f, $1;\n\tsetp.nan.f32 p, f, f;\n\tadd.rn.f32 f, f, 0f00000000;\n\tmov.b32 r, f;\n\t"
            "shr.s32 s, r, 31;\n\tor.b32 s, s, 0x80000000;\n\txor.b32 r, r, s;\n\t"
            "selp.b32 $0, 0xFFFFFFFF, r, p;\n\t}",
            "=r,r", has_side_effects=False, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT))
    y = Int32(llvm.inline_asm(
        mlir_t.i32(), [Int32(bits).ir_value()],
        "{\n\t.reg .f32 f;\n\tmov.b32 f, $1;\n\tadd.rn.f32 f, f, 0f00000000;\n\tmov.b32 $0, f;\n\t}",
        "=r,r", has_side_effects=False, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT))
    return Uint32(y ^ ((y >> Int32(31)) | Int32(-0x80000000)))


#: Order key of +inf (float32): thresholds above it select NaNs alone (see ``f32_key_floor``).
F32_INF_KEY = 0xFF800000


@cute.jit
def f32_key_floor(t: Uint32) -> Int32:
    """Float32 bits ``f`` with ``order_key(x) >= t  <=>  not (x < f)`` for every float32 ``x``
    (NaN included: an unordered compare is true), for any key ``t <= F32_INF_KEY``.

    The inverse of the order key. Keys below -inf's (``< 0x007FFFFF``) give a negative NaN, which
    keeps everything, as it should. Above ``F32_INF_KEY`` no such ``f`` exists (only NaNs rank
    there): callers must not use it there.
    """
    return Int32(cutlass.select_((t & Uint32(0x80000000)) != Uint32(0), t ^ Uint32(0x80000000), t ^ Uint32(0xFFFFFFFF)))


@cute.jit
def f32_bit_if_not_below(bits: Int32, floor_bits: Int32, bit: Int32) -> Int32:
    """``bit`` if the float32 with raw ``bits`` is not below the float32 ``floor_bits`` (NaN is
    not below), else 0: one unordered float compare and a select instead of an order key."""
    return Int32(llvm.inline_asm(
        mlir_t.i32(), [bits.ir_value(), floor_bits.ir_value(), bit.ir_value()],
        "{\n\t.reg .pred p;\n\tsetp.geu.f32 p, $1, $2;\n\tselp.b32 $0, $3, 0, p;\n\t}",
        "=r,r,r,r", has_side_effects=False, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT))


@cute.jit
def st_shared_if(flag: Int32, ptr: cute.Pointer, val: Int32):
    """``*ptr = val`` (a 32-bit shared-memory word) when ``flag`` is nonzero, as one predicated store."""
    llvm.inline_asm(
        None, [flag.ir_value(), Int32(ptr.toint()).ir_value(), val.ir_value()],
        "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $0, 0;\n\t@p st.shared.b32 [$1], $2;\n\t}",
        "r,r,r,~{memory}", has_side_effects=True, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT)


@cute.jit
def valid_length(seq_len: Int32, t: Int32, next_n: Int32, compress_ratio: Int32, n: Int32) -> Int32:
    """``clamp((seq_len - next_n + t + 1) // compress_ratio, 0, n)`` for ``0 <= t < next_n``."""
    lag = next_n - t - 1  # >= 0 and small: comparing first cannot overflow
    length = Int32(0)
    if seq_len > lag:
        length = (seq_len - lag) // compress_ratio  # positive numerator: floor == trunc
        if length > n:
            length = n
    return length


# ---------------------------------------------------------------------- warp helpers
@cute.jit
def warp_inclusive_sum(x: Int32, lane: Int32) -> Int32:
    """Inclusive prefix sum of ``x`` over the lanes of a warp (the whole warp calls it).

    Branch-free: each step selects instead of branching, so the warp never diverges.
    """
    incl = x
    for sh in cutlass.range_constexpr(5):
        y = cute.arch.shuffle_sync_up(incl, 1 << sh)
        incl = incl + Int32(cutlass.select_(lane >= (1 << sh), y, Int32(0)))
    return incl


@cute.jit
def warp_append(take, counter_ptr, lane: Int32) -> Int32:
    """Warp-aggregated ``atomicAdd(counter, 1)`` for lanes with ``take``; the whole warp calls it.

    Returns each taking lane's slot: the counter's old value plus the number of
    taking lanes below it.
    """
    ball = Uint32(cute.arch.vote_ballot_sync(take))
    base = Int32(0)
    if (lane == 0) & (ball != Uint32(0)):
        base = cute.arch.atomic_add(counter_ptr, Int32(cute.arch.popc(ball)))
    base = cute.arch.shuffle_sync(base, 0)
    return base + Int32(cute.arch.popc(ball & Uint32(cute.arch.lanemask_lt())))


@cute.jit
def warp_count(take, d: Int32, hist, lane: Int32):
    """``hist[d] += 1`` for lanes with ``take``; the whole warp calls it. When every taking lane has the same
    ``d`` (a tie plateau puts almost every key in one bin), one atomic adds them all: 32 same-address atomics
    per instruction would serialise. Otherwise one atomic per lane. Ballot, shuffle and vote only: session 46
    measured ``match.any`` slower on short plateau rows."""
    ball = Uint32(cute.arch.vote_ballot_sync(take))
    if ball != Uint32(0):  # uniform across the warp
        leader = Int32(cute.arch.popc((ball & (Uint32(0) - ball)) - Uint32(1)))  # the lowest taking lane
        d0 = cute.arch.shuffle_sync(d, leader)
        if cute.arch.vote_all_sync((not take) or d == d0):
            if lane == leader:
                cute.arch.atomic_add((hist.iterator + d).llvm_ptr, Int32(cute.arch.popc(ball)))
        else:
            if take:
                cute.arch.atomic_add((hist.iterator + d).llvm_ptr, Int32(1))


@cute.jit
def warp_reserve(count: Int32, counter_ptr, lane: Int32) -> Int32:
    """Warp-aggregated ``atomicAdd(counter, count)`` with one atomic per warp; the whole warp calls it.

    Returns each lane's first slot: the counter's old value plus the counts of the lanes below.
    """
    incl = warp_inclusive_sum(count, lane)
    base = Int32(0)
    if (lane == 31) & (incl != 0):  # lane 31's inclusive sum is the warp's total
        base = cute.arch.atomic_add(counter_ptr, incl)
    return cute.arch.shuffle_sync(base, 31) + incl - count


# ---------------------------------------------------------------------- block helpers
@cute.jit
def _bin_sum(hist, nbins: cutlass.Constexpr, per: cutlass.Constexpr, hi: Int32) -> Int32:
    """``sum(hist[hi - per:hi])``: 16-byte loads when ``per`` is a multiple of 4.

    Thread ``t``'s bins start ``per`` words after thread ``t - 1``'s: scalar loads at that
    stride conflict ``min(per, 32)``-way on the banks, 16-byte loads 2-way at most.
    """
    s = Int32(0)
    if cutlass.const_expr(per % 4 == 0):
        quads = cute.make_tensor(hist.iterator, cute.make_layout((4, nbins // 4), stride=(1, 4)))
        first = (hi - per) // 4
        for q in cutlass.range_constexpr(per // 4):
            v = quads[None, first + q].load()
            for e in cutlass.range_constexpr(4):
                s += Int32(v[e])
    else:
        for q in cutlass.range_constexpr(per):
            s += hist[hi - 1 - q]
    return s


@cute.jit
def find_bin(hist, nbins: cutlass.Constexpr, krem: Int32, ctl, tid: Int32, threads: cutlass.Constexpr):
    """The bin ``b`` with ``sum(hist[b+1:]) < krem <= sum(hist[b:])``, and ``krem - sum(hist[b+1:])``.

    Every thread of the block calls it, after a barrier that publishes ``hist``; it
    ends with one. Thread ``t`` sums its ``max(1, nbins // threads)`` bins from the
    top down; a warp scan gives the count above its bins within the warp, and every
    warp scans the warp sums in ``ctl[WSUM:]`` itself (one load per lane, no serial
    loop), so two barriers in all. The thread whose bins straddle ``krem`` writes the
    answer to ``ctl[BIN]``/``ctl[KREM]``. The caller guarantees at least ``krem`` keys.
    """
    per = max(1, nbins // threads)
    hi = nbins - tid * per  # this thread's bins are [hi - per, hi), walked downwards
    s = Int32(0)
    if cutlass.const_expr(nbins >= threads):
        s = _bin_sum(hist, nbins, per, hi)
    else:
        if hi > 0:
            s = hist[hi - 1]
    lane = tid % 32
    warp = tid // 32
    incl = warp_inclusive_sum(s, lane)
    if lane == 31:
        ctl[WSUM + warp] = incl
    cute.arch.sync_threads()
    part = Int32(cutlass.select_(lane < Int32(threads // 32), ctl[WSUM + lane], Int32(0)))
    wincl = warp_inclusive_sum(part, lane)
    excl = cute.arch.shuffle_sync(wincl - part, warp) + incl - s
    if (excl < krem) & (krem <= excl + s):
        acc = excl
        done = Int32(0)
        for q in cutlass.range_constexpr(per):
            h = hist[hi - 1 - q]
            if (done == 0) & (acc + h >= krem):
                ctl[BIN] = hi - 1 - q
                ctl[KREM] = krem - acc
                done = Int32(1)
            acc += h
    cute.arch.sync_threads()
    return ctl[BIN], ctl[KREM]


# ---------------------------------------------------------------------- one CTA per row
@cute.jit
def alloc_row_buffers(bins: cutlass.Constexpr, cand: cutlass.Constexpr):
    """Shared memory of a row kernel: histogram, candidate keys and columns, control block."""
    smem = SmemAllocator()
    hist = smem.allocate_tensor(Int32, cute.make_layout(bins), byte_alignment=16)
    ckey = smem.allocate_tensor(Uint32, cute.make_layout(cand), byte_alignment=16)
    cidx = smem.allocate_tensor(Int32, cute.make_layout(cand), byte_alignment=16)
    ctl = smem.allocate_tensor(Int32, cute.make_layout(CTL_WORDS), byte_alignment=16)
    return hist, ckey, cidx, ctl


@cute.jit
def row_length(seq_ptr: cute.Pointer, row: Int32, n: Int32, next_n: Int32, compress_ratio: Int32,
               unitdiv: cutlass.Constexpr = False) -> Int32:
    """The valid length of ``row``: its request's ``seq_lens`` entry through ``valid_length``.

    ``unitdiv``: next_n == compress_ratio == 1 (the common decode call) skips both integer divisions
    (~60 instructions per thread; a uniform branch)."""
    length = Int32(0)
    if cutlass.const_expr(unitdiv):
        if (next_n == Int32(1)) & (compress_ratio == Int32(1)):
            seq = cute.make_tensor(seq_ptr + row, cute.make_layout(1))
            length = cutlass.min(cutlass.max(seq[0], Int32(0)), n)
        else:
            length = _row_length_divided(seq_ptr, row, n, next_n, compress_ratio)
    else:
        length = _row_length_divided(seq_ptr, row, n, next_n, compress_ratio)
    return length


@cute.jit
def _row_length_divided(seq_ptr: cute.Pointer, row: Int32, n: Int32, next_n: Int32, compress_ratio: Int32) -> Int32:
    req = row // next_n
    seq = cute.make_tensor(seq_ptr + req, cute.make_layout(1))
    return valid_length(seq[0], row - req * next_n, next_n, compress_ratio, n)


@cute.jit
def row_views(x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer, val_ptr: cute.Pointer,
              row: Int32, n: Int32, stride: Int32, k: Int32, next_n: Int32, compress_ratio: Int32,
              unitdiv: cutlass.Constexpr = False):
    """``(length, logits row, index row, value row)`` of ``row``; ``length`` is its valid length."""
    length = row_length(seq_ptr, row, n, next_n, compress_ratio, unitdiv)
    xr = cute.make_tensor(x_ptr + Int64(row) * Int64(stride), cute.make_layout(n))
    ir = cute.make_tensor(idx_ptr + Int64(row) * Int64(k), cute.make_layout(k))
    vr = cute.make_tensor(val_ptr + Int64(row) * Int64(k), cute.make_layout(k))
    return length, xr, ir, vr


@cute.jit
def write_short_row(xr, ir, vr, length: Int32, k: Int32, tid: Int32, threads: cutlass.Constexpr,
                    with_values: cutlass.Constexpr, dtype: cutlass.Constexpr):
    """A row with ``length <= k``: every valid column, then ``-1`` (values: their bits, then -inf)."""
    for j in cutlass.range(tid, k, threads):
        col = Int32(-1)
        if j < length:
            col = j
        ir[j] = col
        if cutlass.const_expr(with_values):
            bits = Int32(NEG_INF_BITS[dtype])
            if j < length:
                bits = Int32(xr[j])
            vr[j] = RAW_TYPE[dtype](bits)


class RowTopK:
    """Base of the one-CTA-per-row kernels: subclasses set ``threads`` and define ``kernel``.

    ``kernel(x_ptr, seq_ptr, idx_ptr, val_ptr, n, stride, k, next_n, compress_ratio)``
    reads the logits as raw bits (``RAW_TYPE``) and writes ``k`` indices (and values)
    per row; ``topk_core.kernels.cute_launch`` compiles and launches it.
    """

    threads: int

    @cute.jit
    def __call__(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer,
                 val_ptr: cute.Pointer, rows: Int32, n: Int32, stride: Int32, k: Int32,
                 next_n: Int32, compress_ratio: Int32, stream):
        self.kernel(x_ptr, seq_ptr, idx_ptr, val_ptr, n, stride, k, next_n, compress_ratio).launch(
            grid=[rows, 1, 1], block=[self.threads, 1, 1], stream=stream)
