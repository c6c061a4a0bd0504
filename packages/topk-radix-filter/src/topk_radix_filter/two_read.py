"""radix_filter's two-read path with ``sparse1`` (and ``rawbin``): the hooks ``_pass0``/``_pass1`` of
``RadixTopK._select``, as a mixin of ``sampled.SampledFilter`` (split out of sampled.py for size; ``self`` is that
filter, whose flags ``sparse1``, ``rawbin``, ``fcmp`` and helpers ``_raws``, ``_write_kept``, ``_key`` these use).

``sparse1``: pass 1 classifies a tile's keys into two masks (above bin b0, inside it) by float compares with the
bin's edges computed once per row, writes the keys above by predicated stores and the few inside by a loop over
their mask's bits; pass 0 skips the per-vector tests on whole steps. ``rawbin``: pass 0 counts the raw top bits of
``x + 0.0`` and permutes the bins into key order once per row (measured slower: off).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Uint32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T as mlir_t

from topk_core.kernels.cute_common import F32_INF_KEY, f32_key_floor
from topk_core.kernels.cute_radix import CAND, GT, RadixTopK, emit_if_bit, warp_incl_sum_up


@cute.jit
def f32_or_if_not_below(mask: Int32, bits: Int32, floor_bits: Int32, bit: cutlass.Constexpr) -> Int32:
    """``mask | bit`` if the float32 with raw ``bits`` is not below the float32 ``floor_bits`` (NaN is not below),
    else ``mask``: a compare and a predicated or (``f32_bit_if_not_below``'s select and add cost one more)."""
    return Int32(llvm.inline_asm(
        mlir_t.i32(), [mask.ir_value(), bits.ir_value(), floor_bits.ir_value()],
        f"{{\n\t.reg .pred p;\n\tsetp.geu.f32 p, $2, $3;\n\t@p or.b32 $0, $0, {1 << bit};\n\t}}",
        "=r,0,r,r", has_side_effects=False, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT))


@cute.jit
def _pinned(x: Int32) -> Int32:
    """``x`` through a side-effecting ``mov``: computed where it is written (the compiler would otherwise sink a
    per-row value into the loop that uses it and recompute it every iteration)."""
    return Int32(llvm.inline_asm(mlir_t.i32(), [Int32(x).ir_value()], "mov.b32 $0, $1;", "=r,r",
                                 has_side_effects=True, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT))


@cute.jit
def _raw_digit4(bits: Int32, sh: cutlass.Constexpr) -> Int32:
    """``rawbin``: the top bits of ``x + 0.0`` (-0.0 -> +0.0, every NaN -> 0x7FFFFFFF: fastkey's mapping) as a
    byte offset, ``(y >> sh) * 4``: the add, a shift and a mask, no sign flip."""
    y = Int32(llvm.inline_asm(
        mlir_t.i32(), [Int32(bits).ir_value()],
        "{\n\t.reg .f32 f;\n\tmov.b32 f, $1;\n\tadd.rn.f32 f, f, 0f00000000;\n\tmov.b32 $0, f;\n\t}",
        "=r,r", has_side_effects=False, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT))
    return Int32((Uint32(y) >> (sh - 2)) & Uint32(((1 << (32 - sh)) - 1) << 2))


class TwoReadSparse:
    """``sparse1``'s and ``rawbin``'s methods of ``SampledFilter``."""

    @cute.jit
    def _count0(self, hist, raw: Int32):
        """Pass 0: one key into the first digit's histogram (``rawbin``: the raw bits' bin, ``_rawbin_to_keys``)."""
        sh0 = self.digits[0][0]
        if cutlass.const_expr(self.rawbin):
            off = _raw_digit4(raw, sh0)
            llvm.inline_asm(None, [(Int32(hist.iterator.toint()) + off).ir_value()], "red.shared.add.u32 [$0], 1;",
                            "r,~{memory}", has_side_effects=True, is_align_stack=False,
                            asm_dialect=llvm.AsmDialect.AD_ATT)
        else:
            key = self._key(raw)
            cute.arch.atomic_add((hist.iterator + Int32(key >> sh0)).llvm_ptr, Int32(1))

    @cute.jit
    def _rawbin_to_keys(self, hist, tid: Int32):
        """``rawbin``: the raw bins to the order keys' (raw bin r: key bin r + nb/2 below nb/2, nb - 1 - r
        above). On quads (Q of them, H = Q/2) that moves q -> q + H, q + H -> H - 1 - q (reversed),
        H - 1 - q -> Q - 1 - q, Q - 1 - q -> q (reversed): each thread owns whole 4-cycles, so no barrier
        between its loads and stores."""
        Q = self.bins // 4
        H = Q // 2
        quads = cute.make_tensor(hist.iterator, cute.make_layout((4, Q), stride=(1, 4)))
        for c in cutlass.range_constexpr((H // 2 + self.threads - 1) // self.threads):
            q = c * self.threads + tid
            if q < H // 2:
                a = quads[None, q].load()
                b = quads[None, q + H].load()
                d = quads[None, H - 1 - q].load()
                e = quads[None, Q - 1 - q].load()
                quads[None, q + H].store(a)
                quads[None, Q - 1 - q].store(d)
                rb = cute.make_rmem_tensor(cute.make_layout(4), Int32)
                re = cute.make_rmem_tensor(cute.make_layout(4), Int32)
                for i in cutlass.range_constexpr(4):
                    rb[i] = Int32(b[3 - i])
                    re[i] = Int32(e[3 - i])
                quads[None, H - 1 - q].store(rb.load())
                quads[None, q].store(re.load())

    @cute.jit
    def _pass1_floors(self, b0: Int32):
        """(use_f, flo, fhi): whether pass 1 may classify by float compares (both edges of bin b0 are floats:
        not the top bin, not above +inf's key) and the edges' floats (``f32_key_floor``)."""
        sh0 = self.digits[0][0]
        lo = Uint32(b0) << sh0
        hi = lo + Uint32(1 << sh0)  # 0 when b0 is the top bin (nothing above it)
        use_f = Int32(0)
        if cutlass.const_expr(self.fcmp):
            use_f = Int32(cutlass.select_((hi != Uint32(0)) & (hi <= Uint32(F32_INF_KEY)), Int32(1), Int32(0)))
        return _pinned(use_f), _pinned(f32_key_floor(lo)), _pinned(f32_key_floor(hi))

    @cute.jit
    def _pass0(self, xv, nv: Int32, tail: Int32, xr, length: Int32, hist, tid: Int32):
        """``RadixTopK._pass0``; with ``sparse1`` a step whose vectors are all in range skips the per-vector tests
        (and ``rawbin`` counts raw bins, permuted to key bins after a barrier)."""
        if cutlass.const_expr(self.sparse1):
            T, U, V = self.threads, self.unroll, self.vec
            for start in cutlass.range(0, nv, T * U):
                raws = self._raws(self._load_vectors(xv, start, nv, tid, U))  # out of the vectors before branching
                if start + Int32(T * U) <= nv:  # uniform: a whole step in range needs no test per vector
                    for b in cutlass.range_constexpr(U * V):
                        self._count0(hist, raws[b])
                else:
                    for u in cutlass.range_constexpr(U):
                        if start + u * T + tid < nv:
                            for e in cutlass.range_constexpr(V):
                                self._count0(hist, raws[u * V + e])
            if cutlass.const_expr(V > 1):
                if tail + tid < length:
                    self._count0(hist, Int32(xr[tail + tid]))
            if cutlass.const_expr(self.rawbin):
                cute.arch.sync_threads()
                self._rawbin_to_keys(hist, tid)
        else:
            RadixTopK._pass0(self, xv, nv, tail, xr, length, hist, tid)

    @cute.jit
    def _pass1(self, xv, nv: Int32, b0: Int32, out, hist, ckey, cidx, ctl, tid: Int32, lane: Int32):
        """``RadixTopK._pass1``; with ``sparse1`` by ``_select_or_keep_sparse`` (the bin's float edges computed
        once per row, not per tile)."""
        if cutlass.const_expr(self.sparse1):
            T, U1 = self.threads, self.unroll1
            use_f, flo, fhi = self._pass1_floors(b0)
            for start in cutlass.range(0, nv, T * U1):
                vs = self._load_vectors(xv, start, nv, tid, U1)
                self._select_or_keep_sparse(vs, start, nv, b0, use_f, flo, fhi, out, ckey, cidx, ctl, tid)
        else:
            RadixTopK._pass1(self, xv, nv, b0, out, hist, ckey, cidx, ctl, tid, lane)

    @cute.jit
    def _select_or_keep_sparse(self, vs: list, start: Int32, nv: Int32, b0: Int32, use_f: Int32, flo: Int32,
                               fhi: Int32, out, ckey, cidx, ctl, tid: Int32):
        """``sparse1``'s pass-1 tile: keys above bin b0 and inside it marked in two masks (as RadixTopK's, by a
        compare and a predicated or each), one scan and two atomics per warp; the keys above go out by predicated
        stores (a third of a short row is selected), the few inside by a loop over their bits (``_write_kept``).
        Vectors past the row's end are dropped by one mask of the tile's valid bits (a vector in range implies
        every earlier one is). ``use_f``, ``flo``, ``fhi``: ``_pass1_floors``, computed once per row."""
        T, V = self.threads, self.vec
        nvec = len(vs)
        sh0 = self.digits[0][0]
        assert nvec * V <= 32, "one bit per key of the tile"
        raws = [Int32(vs[u][e]) for u in range(nvec) for e in range(V)]
        valid = Uint32(0)
        for u in cutlass.range_constexpr(nvec):
            valid = Uint32(cutlass.select_(start + u * T + tid < nv, Uint32((1 << ((u + 1) * V)) - 1), valid))
        amask = Uint32(0)
        imask = Uint32(0)
        if use_f != Int32(0):
            a = Int32(0)
            i = Int32(0)
            for b in cutlass.range_constexpr(nvec * V):
                a = f32_or_if_not_below(a, raws[b], fhi, b)
                i = f32_or_if_not_below(i, raws[b], flo, b)
            amask = Uint32(a) & valid
            imask = Uint32(i ^ a) & valid  # not below lo, below hi
        else:
            for b in cutlass.range_constexpr(nvec * V):
                d0 = Int32(self._key(raws[b]) >> sh0)
                amask = amask | Uint32(cutlass.select_(d0 > b0, Uint32(1 << b), Uint32(0)))
                imask = imask | Uint32(cutlass.select_(d0 == b0, Uint32(1 << b), Uint32(0)))
            amask = amask & valid
            imask = imask & valid
        packed = Int32(cute.arch.popc(amask)) | (Int32(cute.arch.popc(imask)) << 16)
        incl = warp_incl_sum_up(packed)
        gbase = Int32(0)
        cbase = Int32(0)
        if (tid % 32 == 31) & (incl != 0):
            gbase = cute.arch.atomic_add((ctl.iterator + GT).llvm_ptr, incl & Int32(0xFFFF))
            cbase = cute.arch.atomic_add((ctl.iterator + CAND).llvm_ptr, incl >> 16)
        ex = incl - packed
        apos = cute.arch.shuffle_sync(gbase, 31) + (ex & Int32(0xFFFF))
        cpos = cute.arch.shuffle_sync(cbase, 31) + (ex >> 16)
        ir, vr, xr = out
        vbytes = self.elem.width // 8 if self.with_values else 0
        for u in cutlass.range_constexpr(nvec):
            for e in cutlass.range_constexpr(V):
                apos = emit_if_bit(amask, u * V + e, apos, (start + u * T + tid) * V + e, ir.iterator, raws[u * V + e],
                                   vr.iterator, vbytes)
        self._write_kept(imask, start, cpos, xr, ckey, cidx, tid, V)
