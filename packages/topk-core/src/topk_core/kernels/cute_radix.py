"""The one-CTA radix selection shared by the CuTe DSL backends (radix_cutlass, radix_filter).

What ``RadixTopK`` computes: for row ``r`` with ``L = valid_length(seq_lens[r // next_n], ...)``
it writes the indices (and raw-bit values) of the ``k`` largest order-preserving
keys of ``logits[r, :L]``; rows with ``L <= k`` get ``0..L-1`` then ``-1``/-inf.

How (``_select``): pass 0 reads the row once and histograms the top 11 or 13 key bits
in shared memory; a block scan finds the bin holding the k-th key. Pass 1 reads the
row again: keys above that bin go straight to the output, keys inside it go to a
shared-memory candidate buffer while the next digit is histogrammed. The remaining
digits are resolved on the candidates (or, when a plateau overflows the buffer, by
streaming the row again). The last step writes every key above the threshold key and
then fills the remaining slots with keys equal to it.

Subclasses change where a row comes from (``kernel``), how an element maps to its
order key (``_key``) and where a selected key goes (``_emit``): radix_cutlass's split
path (chunks, then a merge of candidate keys) and radix_filter's sampled filter.

Limits: only sm_80+ features (no TMA, no clusters); any k >= 1 and any N < 2**31.
Logits come in as an int32/int16 view so values are copied back bit for bit.
Importing this module imports cutlass: import it from kernel modules only.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Int64, Uint32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T as mlir_t

from .cute_common import (
    F32_INF_KEY,
    KEY_BITS,
    RAW_TYPE,
    RowTopK,
    alloc_row_buffers,
    f32_bit_if_not_below,
    f32_key_floor,
    find_bin,
    order_key,
    order_key_f32_fadd,
    row_views,
    warp_append,
    warp_count,
    warp_inclusive_sum,
    write_short_row,
)


def digits(bits: int, first: int) -> tuple[tuple[int, int], ...]:
    """(shift, width) of each radix digit from the top of a ``bits``-wide key.

    The first digit is the widest: more bins spread pass 0's shared-memory atomics
    and narrow the candidate bin. fp32 splits the rest in two, 16-bit keys in one.
    """
    rest = bits - first
    if bits == 16:
        return ((rest, first), (0, rest))
    second = (rest + 1) // 2
    return ((rest, first), (rest - second, second), (0, rest - second))

# This kernel's slots of the control block in shared memory (cute_common: BIN, KREM, WSUM).
GT, EQ, CAND = 0, 1, 2


def _asm(args: list, text: list, constraints: str) -> Int32:
    """One inline PTX block (with side effects) of ``text`` lines over ``args``."""
    body = "{\n\t" + "\n\t".join(text) + "\n\t}"
    out = llvm.inline_asm(mlir_t.i32(), [a.ir_value() for a in args], body,
                          constraints + ",~{memory}", has_side_effects=True, is_align_stack=False,
                          asm_dialect=llvm.AsmDialect.AD_ATT)
    return Int32(out)


@cute.jit
def emit_if_bit(mask: Uint32, bit: cutlass.Constexpr, pos: Int32, col: Int32, ir_ptr: cute.Pointer, vbits: Int32,
                vr_ptr: cute.Pointer, vbytes: cutlass.Constexpr) -> Int32:
    """``pstore1``: column ``col`` (and, ``vbytes`` > 0, the low ``vbytes`` of ``vbits``) to output slot ``pos``
    when ``bit`` of ``mask`` is set; returns ``pos`` plus that bit. One predicate, no branch."""
    text = [".reg .pred p;", ".reg .b32 t;", ".reg .b64 a;", ".reg .b16 h;", f"and.b32 t, $1, {1 << bit};",
            "setp.ne.b32 p, t, 0;", "mul.wide.s32 a, $0, 4;", "add.s64 a, a, $4;", "@p st.global.b32 [a], $3;"]
    args = [Int32(mask), pos, col, Int64(ir_ptr.toint())]
    cons = "=r,r,0,r,l"  # pos is read and written in place
    if cutlass.const_expr(vbytes > 0):
        text += [f"mul.wide.s32 a, $0, {vbytes};", "add.s64 a, a, $5;"]
        text += ["@p st.global.b32 [a], $6;"] if vbytes == 4 else ["cvt.u16.u32 h, $6;", "@p st.global.b16 [a], h;"]
        args += [Int64(vr_ptr.toint()), vbits]
        cons += ",l,r"
    text += ["@p add.s32 $0, $0, 1;"]
    return _asm(args, text, cons)


@cute.jit
def st_shared_zero4(ptr: cute.Pointer):
    """Four zero words at the 16-byte aligned shared address ``ptr``: one ``st.shared.v4``."""
    llvm.inline_asm(None, [Int32(ptr.toint()).ir_value(), Int32(0).ir_value()],
                    "st.shared.v4.b32 [$0], {$1, $1, $1, $1};", "r,r,~{memory}", has_side_effects=True,
                    is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT)


_SCAN_UP = [".reg .pred p;", ".reg .b32 r;"] + [
    line for sh in range(5) for line in (f"shfl.sync.up.b32 r|p, $0, {1 << sh}, 0, -1;", "@p add.s32 $0, $0, r;")]


@cute.jit
def warp_incl_sum_up(x: Int32) -> Int32:
    """Inclusive prefix sum over a warp in five ``shfl.up`` steps whose out-of-range predicate guards the
    add (two instructions a step, no lane compares); the whole warp calls it."""
    return _asm([x], _SCAN_UP, "=r,0")


@cute.jit
def keep_if_bit(mask: Uint32, bit: cutlass.Constexpr, pos: Int32, cap: cutlass.Constexpr, raw: Int32, col: Int32,
                ckey_ptr: cute.Pointer) -> Int32:
    """``pstore1``: raw bits and column to candidate slot ``pos`` (of ``cap``; the columns lie ``cap`` words
    after the keys) when ``bit`` of ``mask`` is set and ``pos < cap``; returns ``pos`` plus that bit."""
    text = [".reg .pred p, q;", ".reg .b32 t, a;", f"and.b32 t, $1, {1 << bit};", "setp.ne.b32 q, t, 0;",
            f"setp.lt.and.s32 p, $0, {cap}, q;", "shl.b32 a, $0, 2;", "add.u32 a, a, $5;",
            "@p st.shared.b32 [a], $3;", f"@p st.shared.b32 [a+{4 * cap}], $4;", "@q add.s32 $0, $0, 1;"]
    return _asm([Int32(mask), pos, raw, col, Int32(ckey_ptr.toint())], text, "=r,r,0,r,r,r")


class RadixTopK(RowTopK):
    """Compile-time specialisation: dtype, whether values are written, block shape."""

    #: The rows ``_select`` reads are logits (raw float bits); a subclass that reads order keys
    #: (split.MergeTopK) sets False, which turns the float compares (``fcmp``) off.
    reads_logits = True
    #: Vectors in flight per thread where the overflow path streams the row (``_count_row_digit``, the gather):
    #: more would hold registers every variant pays for, on a path only plateaus take.
    row_unroll = 1

    def __init__(self, dtype: str, with_values: bool, threads: int = 512, cand: int = 4096, unroll: int = 4,
                 unroll1: int = 2, vec: bool = True, first_bits: int = 11, fcmp: bool = True,
                 fastkey: bool = False, pstore1: bool = False, early: bool = False, vclear: bool = False,
                 unitdiv: bool = False):
        self.dtype = dtype
        # vclear: histogram clears as one 16-byte shared store per thread and step, unrolled
        self.vclear = vclear
        # unitdiv: rows of next_n == compress_ratio == 1 find their length without integer divisions
        self.unitdiv = unitdiv
        # early: _refine stops once the threshold's bin holds exactly the keys still needed (then every
        # key of that bin is taken: no further digit to resolve)
        self.early = early
        # fastkey (float32): order keys as x + 0.0 and a sign flip (order_key_f32_fadd), 3 instructions
        self.fastkey = fastkey and dtype == "float32"
        # pstore1: pass 1 writes its selected columns and raw candidate bits by predicated stores (no
        # branch per key: with k a third of a short row most keys are written); the candidates' next
        # digit is histogrammed after the pass (``_key_candidates``)
        self.pstore1 = pstore1
        # fcmp (float32 rows read as logits): pass 1 classifies each element by two float
        # compares against the bin's edges instead of building its order key.
        self.fcmp = fcmp and dtype == "float32"
        self.unroll1 = unroll1
        self.with_values = with_values
        self.threads = threads
        self.cand = cand
        self.unroll = unroll
        self.bits = KEY_BITS[dtype]
        self.digits = digits(self.bits, first_bits)
        # Every digit's histogram reuses the first one's buffer (session 15: first_bits=10 on fp32 gave an 11-bit
        # second digit, which overran it and repeated indices).
        assert all(w <= first_bits for _, w in self.digits), f"first_bits={first_bits}: a later digit is wider"
        # vclear zeroes whole quads of bins: a digit of under 2 bits (a 16-bit key with first_bits 15) would clear
        # nothing (session 43's review; no planned variant comes near it)
        assert not vclear or all(w >= 2 for _, w in self.digits), f"vclear needs digits of 2+ bits: {self.digits}"
        self.bins = 1 << first_bits  # histogram size: the first digit is the widest
        self.elem = RAW_TYPE[dtype]  # raw type of the logits (and of written values)
        self.raw = self.elem  # raw type of the rows _select reads (split.MergeTopK reads keys)
        self.vec = (16 * 8 // self.raw.width) if vec else 1  # elements per 16-byte load

    # ------------------------------------------------------------------ hooks
    @cute.jit
    def _key(self, bits: Int32) -> Uint32:
        """The order key of one element of the rows ``_select`` reads."""
        if cutlass.const_expr(self.fastkey):
            return order_key_f32_fadd(bits)
        return order_key(bits, self.dtype)

    @cute.jit
    def _emit(self, out, pos: Int32, col: Int32, bits: Int32, key: Uint32, have_bits: cutlass.Constexpr):
        """Write selected column ``col`` (raw ``bits`` when ``have_bits``, and ``key``) to slot ``pos``.

        ``out`` = (index row, value row, logits row).
        """
        ir, vr, xr = out
        ir[pos] = col
        if cutlass.const_expr(self.with_values):
            if cutlass.const_expr(not have_bits):
                bits = Int32(xr[col])
            vr[pos] = self.elem(bits)

    # ------------------------------------------------------------------ device
    @cute.jit
    def _find_bin(self, hist, nbins: cutlass.Constexpr, krem: Int32, ctl, tid: Int32):
        """``cute_common.find_bin`` over this block (a hook: dev builds wrap it with clock stamps)."""
        return find_bin(hist, nbins, krem, ctl, tid, self.threads)

    @cute.jit
    def _clear(self, hist, tid: Int32, nbins: cutlass.Constexpr = None):
        """Zero the first ``nbins`` bins (default all): a later digit's histogram uses fewer."""
        nb = self.bins if nbins is None else nbins
        if cutlass.const_expr(self.vclear):
            quads = nb // 4  # every histogram here is a power of two >= 1024 bins, 16-byte aligned
            for q in cutlass.range_constexpr((quads + self.threads - 1) // self.threads):
                if cutlass.const_expr((q + 1) * self.threads <= quads):
                    st_shared_zero4(hist.iterator + (q * self.threads + tid) * 4)
                else:
                    if q * self.threads + tid < quads:
                        st_shared_zero4(hist.iterator + (q * self.threads + tid) * 4)
        else:
            for j in cutlass.range(tid, nb, self.threads):
                hist[j] = Int32(0)

    @cute.jit
    def _reset(self, hist, ctl, tid: Int32, nbins: cutlass.Constexpr = None):
        """Zero the first ``nbins`` bins (default all) and the output/tie/candidate counters, then a barrier."""
        self._clear(hist, tid, nbins)
        if tid == 0:
            ctl[GT] = Int32(0)
            ctl[EQ] = Int32(0)
            ctl[CAND] = Int32(0)
        cute.arch.sync_threads()

    @cute.jit
    def _refine(self, from_cand: cutlass.Constexpr, xr, out, hist, ckey, cidx, ctl, count: Int32,
                b0: Int32, krem: Int32, k: Int32, tid: Int32, rv=None):
        """Resolve the digits after the first on a source (candidates or the row), then gather.

        From the row (the candidates overflowed: a plateau), ``rv`` is ``_vectors``' view of it.
        ``early``: once a digit's bin holds exactly the ``krem`` keys still needed, the lower digits are
        not resolved: the gather compares keys on the digits found (``tsh``) and takes that whole bin."""
        T = self.threads
        lane = tid % 32
        sh0 = self.digits[0][0]
        pref = Uint32(b0) << sh0
        live = Int32(1)
        tsh = Uint32(0)
        for p in cutlass.range_constexpr(1, len(self.digits)):
            sh, width = self.digits[p]
            if cutlass.const_expr(not self.early):
                b, krem = self._find_bin(hist, 1 << width, krem, ctl, tid)
                pref = pref | (Uint32(b) << sh)
                if cutlass.const_expr(p + 1 < len(self.digits)):
                    self._refine_pass(from_cand, xr, hist, ckey, count, pref, p, tid, rv)
            else:
                b = Int32(0)
                if live != Int32(0):  # uniform: every thread reads the same find_bin answer
                    b, krem = self._find_bin(hist, 1 << width, krem, ctl, tid)
                    pref = pref | (Uint32(b) << sh)
                    if cutlass.const_expr(p + 1 < len(self.digits)):
                        full = Int32(cutlass.select_(hist[b] == krem, Int32(1), Int32(0)))
                        cute.arch.sync_threads()  # every thread has read hist[b] before the next digit clears it
                        if full != Int32(0):
                            live = Int32(0)
                            tsh = Uint32(sh)
                        else:
                            self._refine_pass(from_cand, xr, hist, ckey, count, pref, p, tid, rv)
        # Gather: keys above the threshold whose first digit is b0 (those above b0 are written),
        # then krem keys equal to it.
        thr = pref
        if cutlass.const_expr(self.early):
            thr = pref >> tsh
        gt_ptr = (ctl.iterator + GT).llvm_ptr
        eq_ptr = (ctl.iterator + EQ).llvm_ptr
        base_eq = k - krem
        if cutlass.const_expr(from_cand):
            for start in cutlass.range(0, count, T):
                j = start + tid
                key = Uint32(0)
                col = Int32(-1)
                if j < count:
                    key = ckey[j]
                    col = cidx[j]
                self._gather_key(j < count, key, col, Int32(0), b0, thr, tsh, out, gt_ptr, eq_ptr, base_eq, krem,
                                 lane, False)
        elif cutlass.const_expr(self.with_values):  # one column a step: vectors here cost SHORT_MANY 8 registers
            for start in cutlass.range(0, count, T):
                if not self._slots_filled(ctl, k, krem):
                    self._gather_column(xr, start + tid, count, b0, thr, tsh, out, gt_ptr, eq_ptr, base_eq, krem, lane)
        else:  # the row by 16-byte loads
            xv, nv, tail = rv
            U, V = self.row_unroll, self.vec
            for start in cutlass.range(0, nv, T * U):
                if not self._slots_filled(ctl, k, krem):
                    vs = self._load_vectors(xv, start, nv, tid, U)
                    for u in cutlass.range_constexpr(U):
                        jv = start + u * T + tid
                        for e in cutlass.range_constexpr(V):
                            bits = Int32(vs[u][e])
                            self._gather_key(jv < nv, self._key(bits), jv * V + e, bits, b0, thr, tsh, out, gt_ptr,
                                             eq_ptr, base_eq, krem, lane, True)
            if cutlass.const_expr(V > 1):
                self._gather_column(xr, tail + tid, count, b0, thr, tsh, out, gt_ptr, eq_ptr, base_eq, krem, lane)

    @cute.jit
    def _gather_column(self, xr, j: Int32, count: Int32, b0: Int32, thr: Uint32, tsh: Uint32, out, gt_ptr, eq_ptr,
                       base_eq: Int32, krem: Int32, lane: Int32):
        """``_gather_key`` for row column ``j`` (one scalar load; past ``count`` the lane only joins the warp)."""
        bits = self._column_bits(xr, j, count)
        self._gather_key(j < count, self._key(bits), j, bits, b0, thr, tsh, out, gt_ptr, eq_ptr, base_eq, krem, lane,
                         True)

    @cute.jit
    def _column_bits(self, xr, j: Int32, count: Int32) -> Int32:
        """Row column ``j``'s raw bits, 0 past ``count`` (where a lane of a warp-wide step only joins in)."""
        bits = Int32(0)
        if j < count:
            bits = Int32(xr[j])
        return bits

    @cute.jit
    def _slots_filled(self, ctl, k: Int32, krem: Int32):
        """Whether the gather from the row has every slot taken: ``k - krem`` keys above the threshold (those
        above bin b0 came from pass 1) and ``krem`` equal to it. The counters only grow, so a stale read only
        delays the exit. On a tie plateau the equal keys fill their slots early in the row and the rest of it is
        not read. The vote makes the answer the warp's (its lanes' reads may land apart): the gather's warp
        collectives need every lane."""
        return cute.arch.vote_all_sync((ctl[GT] >= k - krem) & (ctl[EQ] >= krem))

    @cute.jit
    def _gather_key(self, valid, key: Uint32, col: Int32, bits: Int32, b0: Int32, thr: Uint32, tsh: Uint32, out,
                    gt_ptr, eq_ptr, base_eq: Int32, krem: Int32, lane: Int32, have_bits: cutlass.Constexpr):
        """``_refine``'s gather step for one key (the whole warp calls it): keys of first digit ``b0`` above
        the threshold ``thr`` (compared from bit ``tsh`` with ``early``) and up to ``krem`` equal to it."""
        sh0 = self.digits[0][0]
        inside = valid and (key >> sh0) == Uint32(b0)
        above = inside and key > thr
        equal = inside and key == thr
        if cutlass.const_expr(self.early):
            above = inside and (key >> tsh) > thr
            equal = inside and (key >> tsh) == thr
        self._emit_ranked(above, equal, col, bits, key, out, gt_ptr, eq_ptr, base_eq, krem, lane, have_bits)

    @cute.jit
    def _refine_pass(self, from_cand: cutlass.Constexpr, xr, hist, ckey, count: Int32, pref: Uint32,
                     p: cutlass.Constexpr, tid: Int32, rv=None):
        """Histogram digit ``p + 1`` of the source's keys whose digits up to ``p`` are ``pref``'s."""
        sh = self.digits[p][0]
        nsh, nwidth = self.digits[p + 1]
        self._clear(hist, tid, 1 << nwidth)
        cute.arch.sync_threads()
        if cutlass.const_expr(from_cand):
            for j in cutlass.range(tid, count, self.threads):
                key = ckey[j]
                if (key >> sh) == (pref >> sh):
                    d = (key >> nsh) & Uint32((1 << nwidth) - 1)
                    cute.arch.atomic_add((hist.iterator + Int32(d)).llvm_ptr, Int32(1))
        else:
            self._count_row_digit(rv, xr, count, pref, p, hist, tid)
        cute.arch.sync_threads()

    @cute.jit
    def _count_row_digit(self, rv, xr, length: Int32, pref: Uint32, p: cutlass.Constexpr, hist, tid: Int32):
        """From the row (``rv``: ``_vectors``' view, the candidates having overflowed): histogram digit ``p + 1``
        of the keys whose digits up to ``p`` are ``pref``'s, by 16-byte loads and one atomic per distinct
        bin and warp (on a plateau almost every key of the row lands in one bin)."""
        T, U, V = self.threads, self.row_unroll, self.vec
        lane = tid % 32
        sh = self.digits[p][0]
        nsh, nwidth = self.digits[p + 1]
        xv, nv, tail = rv
        for start in cutlass.range(0, nv, T * U):
            vs = self._load_vectors(xv, start, nv, tid, U)
            for u in cutlass.range_constexpr(U):
                ok = start + u * T + tid < nv
                for e in cutlass.range_constexpr(V):
                    key = self._key(Int32(vs[u][e]))
                    warp_count(ok and (key >> sh) == (pref >> sh), Int32((key >> nsh) & Uint32((1 << nwidth) - 1)),
                               hist, lane)
        if cutlass.const_expr(V > 1):
            j = tail + tid
            key = self._key(self._column_bits(xr, j, length))
            warp_count(j < length and (key >> sh) == (pref >> sh), Int32((key >> nsh) & Uint32((1 << nwidth) - 1)),
                       hist, lane)

    @cute.jit
    def _emit_ranked(self, above, equal, col: Int32, bits: Int32, key: Uint32, out, gt_ptr, eq_ptr, base_eq: Int32,
                     krem: Int32, lane: Int32, have_bits: cutlass.Constexpr):
        """The last pass's step for one key (the whole warp calls it): above the threshold key to the
        next output slot (counter ``gt_ptr``), equal to it to one of the ``krem`` tie slots from
        ``base_eq`` (counter ``eq_ptr``)."""
        pos = warp_append(above, gt_ptr, lane)
        if above:
            self._emit(out, pos, col, bits, key, have_bits)
        slot = warp_append(equal, eq_ptr, lane)
        if equal and slot < krem:
            self._emit(out, base_eq + slot, col, bits, key, have_bits)

    @cute.jit
    def _select_or_keep(self, bits: Int32, col: Int32, valid, b0: Int32, out, hist, ckey, cidx, ctl,
                        lane: Int32):
        """Pass-1 step for one column (the scalar tail); the whole warp calls it (``valid`` masks it)."""
        sh0 = self.digits[0][0]
        sh1, w1 = self.digits[1]
        key = self._key(bits)
        d0 = Int32(key >> sh0)
        above = valid and d0 > b0
        inside = valid and d0 == b0
        pos = warp_append(above, (ctl.iterator + GT).llvm_ptr, lane)
        if above:
            self._emit(out, pos, col, bits, key, True)
        slot = warp_append(inside, (ctl.iterator + CAND).llvm_ptr, lane)
        if inside:
            if cutlass.const_expr(self.pstore1):  # raw bits, as the tiles store them
                if slot < self.cand:
                    ckey[slot] = Uint32(bits)
                    cidx[slot] = col
            else:
                d1 = (key >> sh1) & Uint32((1 << w1) - 1)
                cute.arch.atomic_add((hist.iterator + Int32(d1)).llvm_ptr, Int32(1))
                if slot < self.cand:
                    ckey[slot] = key
                    cidx[slot] = col

    @cute.jit
    def _select_or_keep_tile(self, vs: list, start: Int32, nv: Int32, b0: Int32, out, hist, ckey, cidx, ctl,
                             tid: Int32, lane: Int32):
        """Pass-1 step for a thread's tile of vectors ``vs``: count, reserve, then write.

        The keys above bin b0 and inside it are marked in two bit masks (no branch per key);
        one warp scan of the packed counts (above in the low 16 bits, inside in the high 16)
        and two atomics per warp reserve the output and candidate slots; only the marked keys
        are written (their keys recomputed from the raw bits still held in ``vs``).
        """
        T, C, V = self.threads, self.cand, self.vec
        sh0 = self.digits[0][0]
        sh1, w1 = self.digits[1]
        n_tile = len(vs) * V
        assert n_tile <= 32, "one bit per key of the tile"
        # every element out of its vector first: a value first extracted inside a branch could not
        # be used after it
        raws = [Int32(vs[u][e]) for u in range(len(vs)) for e in range(V)]
        amask = Uint32(0)
        imask = Uint32(0)
        lo = Uint32(b0) << sh0
        hi = lo + Uint32(1 << sh0)  # 0 when b0 is the top bin (nothing above it)
        use_f = Int32(0)
        if cutlass.const_expr(self.fcmp and self.reads_logits):
            # both edges must be floats (hi == 0: b0 is the top bin; above F32_INF_KEY: NaNs alone)
            use_f = Int32(cutlass.select_((hi != Uint32(0)) & (hi <= Uint32(F32_INF_KEY)), Int32(1), Int32(0)))
        if use_f != Int32(0):
            flo = f32_key_floor(lo)
            fhi = f32_key_floor(hi)
            for u in cutlass.range_constexpr(len(vs)):
                a = Int32(0)
                i = Int32(0)
                for e in cutlass.range_constexpr(V):
                    bit = Int32(1 << (u * V + e))
                    a = a | f32_bit_if_not_below(raws[u * V + e], fhi, bit)
                    i = i | f32_bit_if_not_below(raws[u * V + e], flo, bit)
                ok = start + u * T + tid < nv
                amask = amask | Uint32(cutlass.select_(ok, Uint32(a), Uint32(0)))
                imask = imask | Uint32(cutlass.select_(ok, Uint32(i ^ a), Uint32(0)))
        else:
            for u in cutlass.range_constexpr(len(vs)):
                ok = start + u * T + tid < nv
                for e in cutlass.range_constexpr(V):
                    d0 = Int32(self._key(raws[u * V + e]) >> sh0)
                    bit = Uint32(1 << (u * V + e))
                    amask = amask | Uint32(cutlass.select_(ok & (d0 > b0), bit, Uint32(0)))
                    imask = imask | Uint32(cutlass.select_(ok & (d0 == b0), bit, Uint32(0)))
        na = Int32(cute.arch.popc(amask))
        ni = Int32(cute.arch.popc(imask))
        packed = na | (ni << 16)
        incl = Int32(0)
        if cutlass.const_expr(self.pstore1):
            incl = warp_incl_sum_up(packed)
        else:
            incl = warp_inclusive_sum(packed, lane)
        gbase = Int32(0)
        cbase = Int32(0)
        if (lane == 31) & (incl != 0):
            gbase = cute.arch.atomic_add((ctl.iterator + GT).llvm_ptr, incl & Int32(0xFFFF))
            cbase = cute.arch.atomic_add((ctl.iterator + CAND).llvm_ptr, incl >> 16)
        ex = incl - packed
        apos = cute.arch.shuffle_sync(gbase, 31) + (ex & Int32(0xFFFF))
        cpos = cute.arch.shuffle_sync(cbase, 31) + (ex >> 16)
        if cutlass.const_expr(self.pstore1):
            self._write_tile_predicated(raws, start, amask, imask, apos, cpos, out, ckey, cidx, tid, len(vs))
        else:
            if (amask | imask) != Uint32(0):
                for u in cutlass.range_constexpr(len(vs)):
                    jv = start + u * T + tid
                    for e in cutlass.range_constexpr(V):
                        bit = Uint32(1 << (u * V + e))
                        if ((amask | imask) & bit) != Uint32(0):
                            bits = raws[u * V + e]
                            key = self._key(bits)
                            col = jv * V + e
                            if (amask & bit) != Uint32(0):
                                self._emit(out, apos, col, bits, key, True)
                                apos = apos + 1
                            else:
                                d1 = (key >> sh1) & Uint32((1 << w1) - 1)
                                cute.arch.atomic_add((hist.iterator + Int32(d1)).llvm_ptr, Int32(1))
                                if cpos < C:
                                    ckey[cpos] = key
                                    cidx[cpos] = col
                                cpos = cpos + 1

    @cute.jit
    def _write_tile_predicated(self, raws: list, start: Int32, amask: Uint32, imask: Uint32, apos: Int32, cpos: Int32,
                               out, ckey, cidx, tid: Int32, nvec: cutlass.Constexpr):
        """``pstore1``'s pass-1 writes: each key of the tile marked in ``amask`` to the output at ``apos``
        on, each marked in ``imask`` (its raw bits and column) to the candidates at ``cpos`` on (the
        columns ``cand`` words after the keys, as ``alloc_row_buffers`` lays them out)."""
        T, V = self.threads, self.vec
        ir, vr, _ = out
        vbytes = self.elem.width // 8 if self.with_values else 0
        for u in cutlass.range_constexpr(nvec):
            jv = start + u * T + tid
            for e in cutlass.range_constexpr(V):
                col = jv * V + e
                apos = emit_if_bit(amask, u * V + e, apos, col, ir.iterator, raws[u * V + e], vr.iterator, vbytes)
                cpos = keep_if_bit(imask, u * V + e, cpos, self.cand, raws[u * V + e], col, ckey.iterator)

    @cute.jit
    def _key_candidates(self, xr, length: Int32, ncand: Int32, b0: Int32, hist, ckey, tid: Int32, rv):
        """After ``pstore1``'s pass 1: the candidates' raw bits become keys and their next digit is
        histogrammed (from the row when the candidates overflowed the buffer)."""
        T = self.threads
        sh0 = self.digits[0][0]
        sh1, w1 = self.digits[1]
        if ncand <= Int32(self.cand):
            for j in cutlass.range(tid, ncand, T):
                key = self._key(Int32(ckey[j]))
                ckey[j] = key
                cute.arch.atomic_add((hist.iterator + Int32((key >> sh1) & Uint32((1 << w1) - 1))).llvm_ptr, Int32(1))
        else:
            self._count_row_digit(rv, xr, length, Uint32(b0) << sh0, 0, hist, tid)

    @cute.jit
    def _vectors(self, xstart: cute.Pointer, length: Int32):
        """The row as ``(vectors, count, tail start)``: ``self.vec``-wide vectors (16-byte loads when
        aligned) of ``[0, tail)``, and a scalar tail ``[tail, length)`` of fewer than ``self.vec``."""
        xbase = xstart
        if cutlass.const_expr(self.vec > 1):
            xbase = cute.make_ptr(self.raw, xstart.toint(), cute.AddressSpace.gmem, assumed_align=16)
        nv = length // self.vec
        xv = cute.make_tensor(xbase, cute.make_layout((self.vec, nv), stride=(1, self.vec)))
        return xv, nv, nv * self.vec

    @cute.jit
    def _load_vectors(self, xv, start: Int32, nv: Int32, tid: Int32, unroll: cutlass.Constexpr):
        """Thread ``tid``'s ``unroll`` vectors of the block step at ``start``, all loads issued first.

        Clamped to the last vector so every load stays in bounds; callers skip ``>= nv`` repeats.
        """
        vs = []
        for u in cutlass.range_constexpr(unroll):
            vs.append(xv[None, cutlass.min(start + u * self.threads + tid, nv - 1)].load())
        return vs

    @cute.jit
    def _select(self, xstart: cute.Pointer, length: Int32, k: Int32, out, hist, ckey, cidx, ctl, tid: Int32):
        """Top-``k`` (``k < length``) of the ``length`` elements from ``xstart`` (type ``self.raw``) into ``out``."""
        C = self.cand
        lane = tid % 32
        xr = cute.make_tensor(xstart, cute.make_layout(length))
        self._reset(hist, ctl, tid)
        V = self.vec
        xv, nv, tail = self._vectors(xstart, length)
        self._pass0(xv, nv, tail, xr, length, hist, tid)
        cute.arch.sync_threads()
        b0, krem = self._find_bin(hist, self.bins, k, ctl, tid)
        self._clear(hist, tid, 1 << self.digits[1][1])
        cute.arch.sync_threads()
        self._pass1(xv, nv, b0, out, hist, ckey, cidx, ctl, tid, lane)
        if cutlass.const_expr(V > 1):
            j = tail + tid
            bits = Int32(0)
            if j < length:
                bits = Int32(xr[j])
            self._select_or_keep(bits, j, j < length, b0, out, hist, ckey, cidx, ctl, lane)
        cute.arch.sync_threads()
        ncand = ctl[CAND]
        if cutlass.const_expr(self.pstore1):
            self._key_candidates(xr, length, ncand, b0, hist, ckey, tid, (xv, nv, tail))
            cute.arch.sync_threads()
        if ncand <= C:
            self._refine(True, xr, out, hist, ckey, cidx, ctl, ncand, b0, krem, k, tid)
        else:
            self._refine(False, xr, out, hist, ckey, cidx, ctl, length, b0, krem, k, tid, (xv, nv, tail))

    @cute.jit
    def _pass0(self, xv, nv: Int32, tail: Int32, xr, length: Int32, hist, tid: Int32):
        """Pass 0 of ``_select`` (hook): the histogram of the first digit over the row."""
        T, U, V = self.threads, self.unroll, self.vec
        sh0 = self.digits[0][0]
        for start in cutlass.range(0, nv, T * U):
            vs = self._load_vectors(xv, start, nv, tid, U)
            for u in cutlass.range_constexpr(U):
                if start + u * T + tid < nv:
                    for e in cutlass.range_constexpr(V):
                        key = self._key(Int32(vs[u][e]))
                        cute.arch.atomic_add((hist.iterator + Int32(key >> sh0)).llvm_ptr, Int32(1))
        if cutlass.const_expr(V > 1):
            if tail + tid < length:
                key = self._key(Int32(xr[tail + tid]))
                cute.arch.atomic_add((hist.iterator + Int32(key >> sh0)).llvm_ptr, Int32(1))

    @cute.jit
    def _pass1(self, xv, nv: Int32, b0: Int32, out, hist, ckey, cidx, ctl, tid: Int32, lane: Int32):
        """Pass 1 of ``_select`` over the whole vectors (hook): keys above bin b0 are selected, keys in it
        become candidates (the scalar tail follows in ``_select``)."""
        T, U1 = self.threads, self.unroll1
        for start in cutlass.range(0, nv, T * U1):
            vs = self._load_vectors(xv, start, nv, tid, U1)
            self._select_or_keep_tile(vs, start, nv, b0, out, hist, ckey, cidx, ctl, tid, lane)

    @cute.jit
    def _select_row(self, src, row: Int32, length: Int32, k: Int32, ir, vr, xr, hist, ckey, cidx, ctl, tid: Int32):
        """Select a row with ``length > k`` (hook): here from its logits, ``src = (x_ptr, stride)``."""
        x_ptr, stride = src
        self._select(x_ptr + Int64(row) * Int64(stride), length, k, (ir, vr, xr), hist, ckey, cidx, ctl, tid)

    @cute.jit
    def _row(self, src, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer, val_ptr: cute.Pointer,
             n: Int32, stride: Int32, k: Int32, next_n: Int32, compress_ratio: Int32):
        """The body of a one-CTA-per-row kernel: row ``block_idx.x`` (``_row_at``)."""
        tid, _, _ = cute.arch.thread_idx()
        row, _, _ = cute.arch.block_idx()
        self._row_at(src, row, tid, x_ptr, seq_ptr, idx_ptr, val_ptr, n, stride, k, next_n, compress_ratio)

    @cute.jit
    def _row_at(self, src, row: Int32, tid: Int32, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer,
                val_ptr: cute.Pointer, n: Int32, stride: Int32, k: Int32, next_n: Int32, compress_ratio: Int32):
        """Thread ``tid``'s part of row ``row``: rows with ``L <= k`` are copied, others go to ``_select_row``."""
        hist, ckey, cidx, ctl = alloc_row_buffers(self.bins, self.cand)
        length, xr, ir, vr = row_views(x_ptr, seq_ptr, idx_ptr, val_ptr, row, n, stride, k, next_n, compress_ratio,
                                       self.unitdiv)
        if length <= k:
            write_short_row(xr, ir, vr, length, k, tid, self.threads, self.with_values, self.dtype)
        else:
            self._select_row(src, row, length, k, ir, vr, xr, hist, ckey, cidx, ctl, tid)

    @cute.kernel
    def kernel(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer,
               val_ptr: cute.Pointer, n: Int32, stride: Int32, k: Int32, next_n: Int32,
               compress_ratio: Int32):
        self._row((x_ptr, stride), x_ptr, seq_ptr, idx_ptr, val_ptr, n, stride, k, next_n, compress_ratio)
