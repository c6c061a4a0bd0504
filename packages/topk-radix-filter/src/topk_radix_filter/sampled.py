"""radix_filter's sampled one-read filter, one CTA per row, in CuTe DSL.

For a long row (``L >= 4 * sample``) the row is read from HBM once:
1. **Sample**: ``sample`` keys in blocks of 32 contiguous columns spread over the row,
   histogrammed on their top ``sample_bits``. With ``mu = ceil(sample * k / L)`` (the expected
   count of sampled keys in the row's top-k), the threshold ``t`` lies at or below the ``r``-th
   largest sampled key, ``r = mu + margin * sqrt(mu) + 2``: with margin 4 at least ``k`` of the
   row's keys are >= ``t`` except with a probability of about 1e-5 on well-mixed rows, and about
   ``k + margin * sqrt(k * L / sample)`` are. ``t`` is interpolated inside that key's bin
   (``interp``), or is the two-digit prefix of the key (a second histogram of the sample).
2. **Filter**: one streaming pass appends every key >= ``t`` (and its column) to the
   shared-memory candidate buffer, counting all of them. Each thread marks its tile of
   elements in a bit mask (float32: ``not (x < f)`` against ``t``'s float, no order key;
   ``fcmp``), then one warp scan and one atomic per warp reserve the slots. The
   first tile is loaded together with the sample (``prefetch``), or once the sample is
   histogrammed (``late``).
3. **Refine on chip** (``candidate_select.py``): if ``k <= count <= cand``, the candidates hold the whole top-k
   (every key outside is below ``t``, which is at most the k-th key), so a radix select
   on them alone is exact: on two digits of ``key - t`` (``relsel``, float32; ``compact``
   lists the k-th key's bin for the last pass), or on the key's digits (histogram the first,
   write the keys above its bin, resolve the rest with ``RadixTopK._refine``).
4. **Otherwise** (a sample that missed, a plateau wider than the buffer, k > cand), the
   row falls back to ``RadixTopK._select``, the two-read radix path of radix_cutlass.
   Exactness never depends on the sample or the buffer size.

With ``group`` > 1 a cluster of CTAs shares a row: each computes the same threshold from the
same sample and filters its own slice into its own buffer; after a cluster barrier rank 0
pulls the others' candidates over DSMEM and does steps 3-4 alone.

Rows shorter than ``4 * sample`` take ``RadixTopK._select`` directly; there the second
read hits L2 (rows that fit on chip are read from HBM once either way). ``sampled=False``
builds that path alone (launch.SHORT: fewer registers, more CTAs per SM).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Float32, Int32, Int64, Uint32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T as mlir_t

from topk_core.kernels.cute_common import (
    F32_INF_KEY,
    alloc_row_buffers,
    f32_bit_if_not_below,
    f32_key_floor,
    row_views,
    st_shared_if,
    warp_append,
    warp_reserve,
    write_short_row,
)
from topk_core.kernels.cute_radix import CAND, RadixTopK

from .candidate_select import REL_BINS, CandidateSelect
from .row_order import OrderedRows
from .two_read import TwoReadSparse

#: Order keys of bfloat16 and float16 +inf (word compares: thresholds above them select NaNs alone)
INF_KEY16 = {"bfloat16": 0xFF80, "float16": 0xFC00}


@cute.jit
def f16x2_bits_if_not_below(word: Int32, floor2: Int32, bit_lo: Int32, bit_hi: Int32) -> Int32:
    """``bit_lo`` if the low float16 of ``word`` is not below the low half of ``floor2`` (NaN is not
    below), or-ed with ``bit_hi`` for the high halves: one ``setp.geu.f16x2`` for two elements."""
    return Int32(llvm.inline_asm(
        mlir_t.i32(), [word.ir_value(), floor2.ir_value(), bit_lo.ir_value(), bit_hi.ir_value()],
        "{\n\t.reg .pred p, q;\n\t.reg .b32 a, b;\n\tsetp.geu.f16x2 p|q, $1, $2;\n\tselp.b32 a, $3, 0, p;\n\t"
        "selp.b32 b, $4, 0, q;\n\tor.b32 $0, a, b;\n\t}",
        "=r,r,r,r,r", has_side_effects=False, is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT))


class SampledFilter(OrderedRows, TwoReadSparse, CandidateSelect, RadixTopK):
    """Compile-time specialisation: dtype, values, block shape, sample size, margin."""

    def __init__(self, dtype: str, with_values: bool, threads: int = 1024, cand: int = 8192,
                 sample: int = 4096, margin: int = 4, first_bits: int = 13, unroll: int = 4, vec: bool = True,
                 unroll1: int = 2, prefetch: bool = False, sampled: bool = True, fcmp: bool = True,
                 group: int = 1, pstore: bool = True, interp: bool = True, relsel: bool = True,
                 late: bool = False, sample_bits: int = 0, compact: bool = False, root_pad: int = 1,
                 bf16cmp: bool = True, rel16: bool = True, f16cmp: bool = True, fastkey: bool = False,
                 pstore1: bool = False, early: bool = False, vclear: bool = False, unitdiv: bool = False,
                 sparse: bool = False, sparse1: bool = False, rawbin: bool = False, min_ctas: int = 0,
                 longest_first: int = 0, order_pdl: bool = True, wrank: bool = False):
        assert sample % 32 == 0 and (sample <= cand or not sampled)
        assert group in (1, 2, 3, 4) and (group == 1 or sampled)
        super().__init__(dtype, with_values, threads=threads, cand=cand, unroll=unroll, unroll1=unroll1,
                         vec=vec, first_bits=first_bits, fcmp=fcmp, fastkey=fastkey, pstore1=pstore1,
                         early=early, vclear=vclear, unitdiv=unitdiv)
        self.sample = sample
        self.margin = margin
        # the filter marks a thread's tile in one 32-bit mask: 16-bit rows take 4 vectors at most
        self.unroll = min(self.unroll, 32 // self.vec)
        # prefetch: the filter's first tile is loaded with the sample (one DRAM latency less per row).
        self.prefetch = prefetch
        # sampled: False builds the two-read path alone (launches whose N is too short for the sample:
        # the sampled path's registers would cost occupancy there for nothing).
        self.sampled = sampled
        # fcmp (float32; set by RadixTopK): the filter also compares each element as a float against
        # the threshold's float (one unordered compare) instead of building its order key.
        # group: CTAs per row (a cluster). Each computes the same threshold from the same sample,
        # filters its slice of the row into its own buffer; rank 0 pulls the others' candidates
        # over DSMEM and finishes the row alone (the fallback too).
        self.group = group
        # bf16cmp (bfloat16, 16-byte vectors): the filter reads the row as 32-bit words and compares each
        # half, widened to float32 by a shift or a mask, as a float (fcmp's test), not by its order key;
        # f16cmp (float16): the same words, both halves compared at once as a half2 (setp.geu.f16x2)
        self.bf16cmp = bf16cmp and dtype == "bfloat16" and self.vec > 1
        self.f16cmp = f16cmp and dtype == "float16" and self.vec > 1
        self.words = self.bf16cmp or self.f16cmp
        # pstore (float32, and 16-bit word tiles): the filter writes a kept key's raw bits by predicated
        # stores, not behind a branch per key (16-bit tiles of elements spill with it: 32 live values)
        self.pstore = pstore and (dtype == "float32" or self.words)
        # interp: the threshold inside the sample's first-digit bin is interpolated from the bin's count
        # (biased low), not found by a second histogram of the sample
        self.interp = interp
        # relsel (float32): the candidates are ranked on two 11-bit digits of ``key - t`` (the top one
        # clamped), not on the key's three digits; when the k-th key lies in the clamp bin the
        # three-digit select takes over
        self.relsel = relsel and self.bits == 32 and self.bins >= REL_BINS
        # late (prefetch): the filter's first tile is loaded once the sample is histogrammed, not before
        # the sample's loads (its bytes would delay the sample's)
        self.late = late
        # sample_bits (interp only): the sample's histogram digit when narrower than the first digit
        # (fewer bins to clear and search; the interpolation spans a wider bin)
        self.sample_bits = sample_bits if (sample_bits and interp) else first_bits
        # compact (relsel, a histogram of 4096+ bins): the pass that writes the keys above the k-th
        # key's bin also lists the keys inside it (in the histogram's unused top), so the last pass
        # walks that list instead of every candidate
        self.compact = compact and self.relsel and self.bins >= 2 * REL_BINS
        # root_pad: the rank's square-root term is floor(sqrt(mu)) + root_pad (>= sqrt(mu) from 1 up);
        # each step up keeps ~margin more sampled ranks' worth of keys (NOTES.md, session 9: 1M rows)
        assert root_pad >= 1
        self.root_pad = root_pad
        # rel16 (16-bit keys): the candidates are ranked on min(key - t, REL_BINS - 1) alone: one histogram,
        # one bin search and one emit pass; the k-th key in the clamped bin -> the key-digit select
        self.rel16 = rel16 and self.bits == 16 and self.bins >= REL_BINS
        # sparse (with pstore): the filter writes a tile's kept elements in a loop over the set bits of its mask,
        # each element's raw bits reloaded from the row (an L1 hit), instead of a predicated store pair for every
        # element: a few % of a long row is kept, so most of those stores were issued for nothing
        self.sparse = sparse and self.pstore
        # sparse1 (pstore1, a pass-1 tile of <= 32 keys): the two-read path's pass 1 writes a tile's candidates (keys
        # inside the first digit's bin, a few % of a row) by a loop over the set bits of their mask, raw bits reloaded
        # from the row (an L1 hit), not by a predicated store pair for every key; out-of-range vectors are dropped by
        # one mask of the tile's valid bits
        self.sparse1 = sparse1 and self.pstore1
        # rawbin (sparse1, fastkey): the two-read path's pass 0 counts keys in bins of the raw top bits of x + 0.0
        # (no sign flip: 4 instructions a key, not 6), permuted into the order keys' bins once after the pass
        self.rawbin = rawbin and self.sparse1 and self.fastkey
        # min_ctas (one CTA per row): ptxas keeps registers for this many CTAs per SM (.minnctapersm).
        self.min_ctas = min_ctas if group == 1 else 0
        # longest_first (host only: the first wave's CTAs per SM) and order_pdl: ``row_order.OrderedRows``' entry
        assert longest_first == 0 or group == 1, "the ordered entry is one CTA per row"
        self.longest_first = longest_first
        self.order_pdl = order_pdl
        # wrank (compact): when the k-th key's bin lists at most WRANK_MAX keys (randn rows list ~2), one warp ranks
        # them and writes the ones taken, in place of the level-two bin search and the last pass (two barriers and
        # ~1.7K cycles of a cold 128x32K row in session 62's stamps)
        self.wrank = wrank and self.compact

    @cute.jit
    def _sample_loads(self, xr, length: Int32, tid: Int32) -> list:
        """This thread's sampled elements (raw bits): ``sample / 32`` blocks of 32 columns spread over
        the row, every load issued at once (one DRAM latency, not one per block)."""
        lane = tid % 32
        warp = tid // 32
        blocks = self.sample // 32
        step = (length - 32) // (blocks - 1)
        warps = self.threads // 32
        bits = []
        for q in cutlass.range_constexpr((blocks + warps - 1) // warps):
            b = cutlass.min(warp + q * warps, blocks - 1)
            bits.append(Int32(xr[b * step + lane]))
        return bits

    @cute.jit
    def _sample_histogram(self, bits: list, length: Int32, k: Int32, hist, ckey, ctl, tid: Int32):
        """(ok, r): the sample ``bits`` (``_sample_loads``) histogrammed on the first digit (and their keys
        kept for the second unless ``interp``), and the rank ``r`` the threshold takes among them; ok
        is False when the sample cannot place it."""
        T = self.threads
        lane = tid % 32
        warp = tid // 32
        blocks = self.sample // 32
        sh0 = self.bits - self.sample_bits
        warps = T // 32
        per = (blocks + warps - 1) // warps
        # Per-row scalars every thread computes: 32-bit and float arithmetic, not 64-bit divisions
        # and a Newton square root (session 8, ncu at 32x32K: those were ~20% of the instructions).
        mu = (Int32(self.sample) * k - Int32(1)) // length + Int32(1)  # sample * k < 2**31 (k <= 16384)
        root = Int32(cute.math.sqrt(Float32(mu), fastmath=True)) + Int32(self.root_pad)  # >= sqrt(mu)
        r = mu + Int32(self.margin) * root + Int32(2)
        self._reset(hist, ctl, tid, 1 << self.sample_bits)  # after the loads are issued: hidden behind their latency
        for q in cutlass.range_constexpr(per):
            b = warp + q * warps
            if b < blocks:
                key = self._key(bits[q])
                if cutlass.const_expr(not self.interp):
                    ckey[b * 32 + lane] = key
                cute.arch.atomic_add((hist.iterator + Int32(key >> sh0)).llvm_ptr, Int32(1))
        cute.arch.sync_threads()
        return r <= Int32(self.sample // 2), r

    @cute.jit
    def _threshold(self, ok, r: Int32, hist, ckey, ctl, tid: Int32) -> Uint32:
        """The filter threshold: a key at or below the ``r``-th largest sampled key (when ``ok``)."""
        t = Uint32(0)
        if ok:
            b1, krem = self._find_bin(hist, 1 << self.sample_bits, r, ctl, tid)
            if cutlass.const_expr(self.interp):
                t = self._interpolate(hist, b1, krem)
            else:
                t = self._second_digit(hist, b1, krem, ckey, ctl, tid)
        return t

    @cute.jit
    def _interpolate(self, hist, b1: Int32, krem: Int32) -> Uint32:
        """A key in bin ``b1`` at or below the bin's ``krem``-th largest sampled key, assuming the
        bin's keys spread evenly, pushed down by ``j / 4 + 2`` ranks for the unevenness (``j``: the
        bin's sampled keys below it). Too high costs only speed: the fallback is exact."""
        sh0 = self.bits - self.sample_bits
        h = hist[b1]
        j = h - krem
        below = cutlass.max(j - j // Int32(4) - Int32(2), Int32(0))
        frac = Float32(below) * cute.arch.rcp_approx(Float32(h))  # below < h: clamped into the bin
        off = cutlass.min(Int32(frac * Float32(1 << sh0)), Int32((1 << sh0) - 1))
        return (Uint32(b1) << sh0) | Uint32(off)

    @cute.jit
    def _second_digit(self, hist, b1: Int32, krem: Int32, ckey, ctl, tid: Int32) -> Uint32:
        """The threshold's second digit: the ``krem``-th largest sampled key of bin ``b1``."""
        T = self.threads
        sh0 = self.digits[0][0]
        sh1, w1 = self.digits[1]
        self._clear(hist, tid, 1 << w1)
        cute.arch.sync_threads()
        for j in cutlass.range(tid, self.sample, T):
            key = ckey[j]
            if Int32(key >> sh0) == b1:
                d = (key >> sh1) & Uint32((1 << w1) - 1)
                cute.arch.atomic_add((hist.iterator + Int32(d)).llvm_ptr, Int32(1))
        cute.arch.sync_threads()
        b2, _ = self._find_bin(hist, 1 << w1, krem, ctl, tid)
        return (Uint32(b1) << sh0) | (Uint32(b2) << sh1)

    @cute.jit
    def _filter(self, xv, v0: Int32, v1: Int32, tail: Int32, xr, length: Int32, t: Uint32, ckey, cidx, ctl,
                tid: Int32, pre: list, with_tail):
        """One streaming pass over vectors ``[v0, v1)`` (and, ``with_tail``, the scalar tail ``[tail,
        length)``): every key >= t and its column to the candidates (counted past the buffer).

        ``pre``: the first tile's vectors, already loaded (``prefetch``), else unused.
        """
        T, U, C, V = self.threads, self.unroll, self.cand, self.vec
        lane = tid % 32
        cand_ptr = (ctl.iterator + CAND).llvm_ptr
        first = v0
        if cutlass.const_expr(self.prefetch):
            self._filter_any(pre, v0, v1, t, ckey, cidx, cand_ptr, tid, lane, xr)
            first = v0 + Int32(T * U)
        for start in cutlass.range(first, v1, T * U):
            vs = self._load_vectors(xv, start, v1, tid, U)
            self._filter_any(vs, start, v1, t, ckey, cidx, cand_ptr, tid, lane, xr)
        if cutlass.const_expr(V > 1):
            if with_tail:
                j = tail + tid
                key = Uint32(0)
                raw = Int32(0)
                if j < length:
                    raw = Int32(xr[j])
                    key = self._key(raw)
                take = j < length and key >= t
                slot = warp_append(take, cand_ptr, lane)
                if take and slot < C:
                    ckey[slot] = Uint32(raw) if cutlass.const_expr(self.pstore) else key
                    cidx[slot] = j

    @cute.jit
    def _filter_any(self, vs: list, start: Int32, nv: Int32, t: Uint32, ckey, cidx, cand_ptr, tid: Int32,
                    lane: Int32, xr):
        """One filter tile of loaded vectors: 32-bit words (16-bit rows, ``words``) or elements."""
        if cutlass.const_expr(self.words):
            self._filter_tile_words(self._words(vs), start, nv, t, ckey, cidx, cand_ptr, tid, lane, xr)
        else:
            self._filter_tile(self._raws(vs), start, nv, t, ckey, cidx, cand_ptr, tid, lane, xr)

    @cute.jit
    def _filter_tile_words(self, words: list, start: Int32, nv: Int32, t: Uint32, ckey, cidx, cand_ptr, tid: Int32,
                           lane: Int32, xr):
        """``_filter_tile`` for 16-bit rows read as 32-bit words (4 per vector, 2 elements each, the lower
        column in the low half). bfloat16: each half widened to float32 (``<< 16``, ``& 0xFFFF0000``) is
        compared as a float against ``t``'s; a widened bfloat16's float32 key lies in ``[key16 << 16,
        key16 << 16 | 0xFFFF]``, so that is exactly ``key16 >= t``. float16: both halves at once against
        ``t``'s float16 in both halves. NaN and -0.0 rank as the order key says either way; ~1-2
        instructions per element, not ~8 for the key. Kept elements go out by predicated stores of the
        word (``pstore``: the candidate pass makes the key from its low half) or behind a branch each."""
        T, C = self.threads, self.cand
        nvec = len(words) // 4
        assert nvec * 8 <= 32, "one bit per key of the tile"
        mask = Uint32(0)
        if cutlass.const_expr(self.bf16cmp):
            floor = f32_key_floor(t << Uint32(16))  # the caller keeps t <= the 16-bit +inf key
            for u in cutlass.range_constexpr(nvec):
                part = Int32(0)
                for w in cutlass.range_constexpr(4):
                    word = words[u * 4 + w]
                    part = part | f32_bit_if_not_below(word << Int32(16), floor, Int32(1 << (u * 8 + 2 * w)))
                    part = part | f32_bit_if_not_below(word & Int32(-65536), floor, Int32(1 << (u * 8 + 2 * w + 1)))
                mask = mask | Uint32(cutlass.select_(start + u * T + tid < nv, Uint32(part), Uint32(0)))
        else:
            f16 = Uint32(cutlass.select_((t & Uint32(0x8000)) != Uint32(0), t ^ Uint32(0x8000), t ^ Uint32(0xFFFF)))
            floor2 = Int32(f16 | (f16 << Uint32(16)))  # key16 >= t <=> not (x < f16), as f32_key_floor
            for u in cutlass.range_constexpr(nvec):
                part = Int32(0)
                for w in cutlass.range_constexpr(4):
                    part = part | f16x2_bits_if_not_below(words[u * 4 + w], floor2, Int32(1 << (u * 8 + 2 * w)),
                                                          Int32(1 << (u * 8 + 2 * w + 1)))
                mask = mask | Uint32(cutlass.select_(start + u * T + tid < nv, Uint32(part), Uint32(0)))
        pos = warp_reserve(Int32(cute.arch.popc(mask)), cand_ptr, lane)
        take = Int32(0)  # names the branches below assign: one type on every path
        ok = Int32(0)
        word = Int32(0)
        raw = Int32(0)
        if cutlass.const_expr(self.sparse):
            self._write_kept(mask, start, pos, xr, ckey, cidx, tid, 8)
        elif mask != Uint32(0):
            for u in cutlass.range_constexpr(nvec):
                jv = start + u * T + tid
                if (mask & Uint32(0xFF << (u * 8))) != Uint32(0):  # a vector with none kept: one test
                    for e in cutlass.range_constexpr(8):
                        word = words[u * 4 + e // 2]
                        raw = word if e % 2 == 0 else (word >> Int32(16))  # the key masks the low half
                        if cutlass.const_expr(self.pstore):
                            take = Int32((mask >> Uint32(u * 8 + e)) & Uint32(1))
                            ok = take & Int32(cutlass.select_(pos < C, Int32(1), Int32(0)))
                            st_shared_if(ok, ckey.iterator + pos, raw)
                            st_shared_if(ok, cidx.iterator + pos, jv * 8 + e)
                            pos = pos + take
                        else:
                            if (mask & Uint32(1 << (u * 8 + e))) != Uint32(0):
                                if pos < C:
                                    ckey[pos] = self._key(raw)
                                    cidx[pos] = jv * 8 + e
                                pos = pos + 1

    @cute.jit
    def _write_kept(self, mask: Uint32, start: Int32, pos: Int32, xr, ckey, cidx, tid: Int32, per: cutlass.Constexpr):
        """``sparse``: the tile's kept elements (bit ``b`` of ``mask``: element ``b % per`` of the thread's vector
        ``b // per``, vectors ``threads`` apart from ``start``) to the candidates from slot ``pos`` on, highest bit
        first; raw bits as the filter's predicated stores leave them (the candidate pass makes the keys)."""
        C = self.cand
        sh = per.bit_length() - 1
        base = (start + tid) * per
        m = mask
        p = pos
        while m != Uint32(0):
            b = Int32(cute.arch.bfind(m))
            m = m ^ (Uint32(1) << Uint32(b))
            col = base + (b >> sh) * (self.threads * per) + (b & (per - 1))
            room = Int32(cutlass.select_(p < C, Int32(1), Int32(0)))
            st_shared_if(room, ckey.iterator + p, Int32(xr[col]))
            st_shared_if(room, cidx.iterator + p, col)
            p = p + 1

    def _words(self, vs: list) -> list:
        """The 32-bit words of a tile's vectors (``words``), vector by vector."""
        return [Int32(v[w]) for v in vs for w in range(4)]

    def _raws(self, vs: list) -> list:
        """The elements of a tile's vectors as raw Int32 bits, vector by vector."""
        return [Int32(v[e]) for v in vs for e in range(self.vec)]

    @cute.jit
    def _filter_tile(self, raws: list, start: Int32, nv: Int32, t: Uint32, ckey, cidx, cand_ptr, tid: Int32,
                     lane: Int32, xr):
        """One tile of the filter: mark the keys >= t in a bit mask, reserve their slots with one
        warp scan and one atomic per warp, then write only the marked keys. (Per key, a ballot,
        an atomic and a shuffle cost more: about 8% of a row's keys pass, so most warps append
        on most keys.) ``raws``: the tile's elements, ``vec`` per vector of ``threads`` apart."""
        T, C, V = self.threads, self.cand, self.vec
        nvec = len(raws) // V
        assert len(raws) <= 32, "one bit per key of the tile"
        mask = Uint32(0)
        if cutlass.const_expr(self.fcmp):
            floor = f32_key_floor(t)  # the caller keeps t <= F32_INF_KEY
            for u in cutlass.range_constexpr(nvec):
                part = Int32(0)
                for e in cutlass.range_constexpr(V):
                    part = part | f32_bit_if_not_below(raws[u * V + e], floor, Int32(1 << (u * V + e)))
                # a vector past the row's end (clamped load) keeps none of its bits
                mask = mask | Uint32(cutlass.select_(start + u * T + tid < nv, Uint32(part), Uint32(0)))
        else:
            for u in cutlass.range_constexpr(nvec):
                ok = start + u * T + tid < nv
                for e in cutlass.range_constexpr(V):
                    take = ok & (self._key(raws[u * V + e]) >= t)
                    mask = mask | Uint32(cutlass.select_(take, Uint32(1 << (u * V + e)), Uint32(0)))
        pos = warp_reserve(Int32(cute.arch.popc(mask)), cand_ptr, lane)
        take = Int32(0)  # (pstore) names the branches below assign: one type on every path
        ok = Int32(0)
        if cutlass.const_expr(self.sparse):
            self._write_kept(mask, start, pos, xr, ckey, cidx, tid, V)
        elif mask != Uint32(0):
            for u in cutlass.range_constexpr(nvec):
                jv = start + u * T + tid
                if (mask & Uint32(((1 << V) - 1) << (u * V))) != Uint32(0):  # a vector with none kept: one test
                    if cutlass.const_expr(self.pstore):
                        # no branch per key: a warp runs a branch's body when any lane takes it, and with
                        # ~8% kept some lane almost always does. Raw bits are stored; _select_candidates
                        # turns them into keys.
                        for e in cutlass.range_constexpr(V):
                            take = Int32((mask >> Uint32(u * V + e)) & Uint32(1))
                            ok = take & Int32(cutlass.select_(pos < C, Int32(1), Int32(0)))
                            st_shared_if(ok, ckey.iterator + pos, raws[u * V + e])
                            st_shared_if(ok, cidx.iterator + pos, jv * V + e)
                            pos = pos + take
                    else:
                        for e in cutlass.range_constexpr(V):
                            if (mask & Uint32(1 << (u * V + e))) != Uint32(0):
                                if pos < C:
                                    ckey[pos] = self._key(raws[u * V + e])
                                    cidx[pos] = jv * V + e
                                pos = pos + 1

    @cute.jit
    def _select(self, xstart: cute.Pointer, length: Int32, k: Int32, out, hist, ckey, cidx, ctl, tid: Int32):
        done = Int32(0)
        if cutlass.const_expr(self.sampled):
            if length >= Int32(4 * self.sample):
                done = self._select_sampled(xstart, length, k, out, hist, ckey, cidx, ctl, tid, Int32(0))
        if done == Int32(0):
            cute.arch.sync_threads()  # every thread is past reading ctl and ckey before the fallback resets them
            self._two_read(xstart, length, k, out, hist, ckey, cidx, ctl, tid)

    @cute.jit
    def _two_read(self, xstart: cute.Pointer, length: Int32, k: Int32, out, hist, ckey, cidx, ctl, tid: Int32):
        """The two-read path: ``RadixTopK._select`` (with ``sparse1``, through this class's ``_pass0``/``_pass1``)."""
        RadixTopK._select(self, xstart, length, k, out, hist, ckey, cidx, ctl, tid)

    @cute.jit
    def _select_sampled(self, xstart: cute.Pointer, length: Int32, k: Int32, out, hist, ckey, cidx, ctl,
                        tid: Int32, rank: Int32) -> Int32:
        """Steps 1-3 of the module docstring; 1 when the row is done (or, in a group, when this CTA's
        part is), 0 when it needs the fallback (every CTA of a group agrees before the filter)."""
        G = self.group
        done = Int32(0)
        xr = cute.make_tensor(xstart, cute.make_layout(length))
        xv, nv, tail = self._vectors(xstart, length)
        if cutlass.const_expr(self.words):  # the same 16-byte vectors as four 32-bit words
            wptr = cute.make_ptr(Int32, xstart.toint(), cute.AddressSpace.gmem, assumed_align=16)
            xv = cute.make_tensor(wptr, cute.make_layout((4, nv), stride=(1, 4)))
        v0 = Int32(0)
        v1 = nv
        if cutlass.const_expr(G > 1):
            per = (nv + Int32(G - 1)) // Int32(G)  # length >= 4 * sample: no slice is empty
            v0 = rank * per
            v1 = cutlass.min(v0 + per, nv)
        pre = []
        if cutlass.const_expr(self.prefetch and not self.late):  # in flight during the sample step
            pre = self._load_vectors(xv, v0, v1, tid, self.unroll)
        bits = self._sample_loads(xr, length, tid)
        ok, r = self._sample_histogram(bits, length, k, hist, ckey, ctl, tid)
        if cutlass.const_expr(self.prefetch and self.late):  # in flight during the threshold's search
            pre = self._load_vectors(xv, v0, v1, tid, self.unroll)
        t = self._threshold(ok, r, hist, ckey, ctl, tid)
        if cutlass.const_expr(self.fcmp):
            ok = ok & (t <= Uint32(F32_INF_KEY))  # a NaN-only threshold: the exact fallback takes the row
        if cutlass.const_expr(self.words):
            ok = ok & (t <= Uint32(INF_KEY16[self.dtype]))
        if ok:  # the same in every CTA of a group: same sample, same threshold
            self._filter(xv, v0, v1, tail, xr, length, t, ckey, cidx, ctl, tid, pre, rank == Int32(G - 1))
            count = Int32(0)
            if cutlass.const_expr(G > 1):
                cute.arch.cluster_arrive()  # release: this CTA's candidates and count
                cute.arch.cluster_wait()
                if rank == Int32(0):
                    count = self._pull(ckey, cidx, ctl, tid)
                cute.arch.cluster_arrive()  # rank 0 is done reading the others' shared memory
                cute.arch.cluster_wait()
            cute.arch.sync_threads()
            if cutlass.const_expr(G == 1):
                count = ctl[CAND]
            if rank == Int32(0):
                if count >= k and count <= Int32(self.cand):
                    if cutlass.const_expr(self.relsel):
                        if self._select_rel(count, k, t, out, hist, ckey, cidx, ctl, tid) == Int32(0):
                            self._select_candidates(xr, count, k, out, hist, ckey, cidx, ctl, tid, True)
                    elif cutlass.const_expr(self.rel16):
                        if self._select_rel16(count, k, t, out, hist, ckey, cidx, ctl, tid) == Int32(0):
                            self._select_candidates(xr, count, k, out, hist, ckey, cidx, ctl, tid, True)
                    else:
                        self._select_candidates(xr, count, k, out, hist, ckey, cidx, ctl, tid)
                    done = Int32(1)
            else:
                done = Int32(1)
        return done

    @cute.jit
    def _pull(self, ckey, cidx, ctl, tid: Int32) -> Int32:
        """Rank 0 of a group: append the other CTAs' candidates to its buffer. Returns the group's
        count, or ``cand + 1`` when any CTA's buffer overflowed (then the fallback takes the row)."""
        T, C = self.threads, self.cand
        total = ctl[CAND]
        over = Int32(cutlass.select_(total > Int32(C), Int32(1), Int32(0)))
        counts = []
        for c in cutlass.range_constexpr(1, self.group):
            counts.append(self._remote_i32(ctl.iterator + CAND, Int32(c)))
        for c in cutlass.range_constexpr(1, self.group):
            nc = counts[c - 1]
            over = over | Int32(cutlass.select_(total + nc > Int32(C), Int32(1), Int32(0)))
            if over == Int32(0):
                for j0 in cutlass.range(tid * 4, nc, T * 4):
                    ks = []
                    cs = []
                    for e in cutlass.range_constexpr(4):  # all 8 loads in flight: one DSMEM round trip
                        j = cutlass.min(j0 + e, Int32(C - 1))
                        ks.append(self._remote_i32(ckey.iterator + j, Int32(c)))
                        cs.append(self._remote_i32(cidx.iterator + j, Int32(c)))
                    for e in cutlass.range_constexpr(4):
                        if j0 + e < nc:
                            ckey[total + j0 + e] = Uint32(ks[e])
                            cidx[total + j0 + e] = cs[e]
            total = total + nc
        return Int32(cutlass.select_(over != Int32(0), Int32(C + 1), total))

    @cute.jit
    def _remote_i32(self, local: cute.Pointer, cta: Int32) -> Int32:
        """The 32-bit word at ``local`` in CTA ``cta``'s shared memory (this cluster)."""
        remote = cute.arch.map_dsmem_ptr(local, cta)
        return Int32(llvm.load(mlir_t.i32(), remote.llvm_ptr))

    # ------------------------------------------------------------------ a group of CTAs per row
    @cute.jit
    def __call__(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer,
                 val_ptr: cute.Pointer, rows: Int32, n: Int32, stride: Int32, k: Int32,
                 next_n: Int32, compress_ratio: Int32, stream):
        kern = self.kernel(x_ptr, seq_ptr, idx_ptr, val_ptr, n, stride, k, next_n, compress_ratio)
        if cutlass.const_expr(self.group > 1):
            kern.launch(grid=[self.group, rows, 1], block=[self.threads, 1, 1], cluster=[self.group, 1, 1],
                        stream=stream)
        else:
            self._launch_rows(kern, rows, stream)

    def _launch_rows(self, kern, rows: Int32, stream, use_pdl: bool = False):
        """One CTA per row (traced inline: ``use_pdl`` is a Python flag, ``row_order``'s ordered entry's)."""
        if self.min_ctas > 0:  # the carveout is named so the compile needs no device query
            kern.launch(grid=[rows, 1, 1], block=[self.threads, 1, 1], stream=stream, use_pdl=use_pdl,
                        min_blocks_per_mp=self.min_ctas, preferred_smem_carveout=100)
        else:
            kern.launch(grid=[rows, 1, 1], block=[self.threads, 1, 1], stream=stream, use_pdl=use_pdl)

    @cute.kernel
    def kernel(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer,
               val_ptr: cute.Pointer, n: Int32, stride: Int32, k: Int32, next_n: Int32,
               compress_ratio: Int32):
        if cutlass.const_expr(self.group == 1):
            self._row((x_ptr, stride), x_ptr, seq_ptr, idx_ptr, val_ptr, n, stride, k, next_n, compress_ratio)
        else:
            self._group_row(x_ptr, seq_ptr, idx_ptr, val_ptr, n, stride, k, next_n, compress_ratio)

    @cute.jit
    def _group_row(self, x_ptr: cute.Pointer, seq_ptr: cute.Pointer, idx_ptr: cute.Pointer,
                   val_ptr: cute.Pointer, n: Int32, stride: Int32, k: Int32, next_n: Int32,
                   compress_ratio: Int32):
        """Row ``block_idx.y`` on the cluster's ``group`` CTAs (``block_idx.x`` is the rank). Every
        decision before the filter depends only on the row, so the CTAs agree on it; only rank 0
        writes the output (short rows and the fallback included)."""
        tid, _, _ = cute.arch.thread_idx()
        rank, row, _ = cute.arch.block_idx()
        hist, ckey, cidx, ctl = alloc_row_buffers(self.bins, self.cand)
        length, xr, ir, vr = row_views(x_ptr, seq_ptr, idx_ptr, val_ptr, row, n, stride, k, next_n, compress_ratio,
                                       self.unitdiv)
        if length <= k:
            if rank == Int32(0):
                write_short_row(xr, ir, vr, length, k, tid, self.threads, self.with_values, self.dtype)
        else:
            xstart = x_ptr + Int64(row) * Int64(stride)
            out = (ir, vr, xr)
            done = Int32(0)
            if length >= Int32(4 * self.sample):
                done = self._select_sampled(xstart, length, k, out, hist, ckey, cidx, ctl, tid, rank)
            if done == Int32(0):  # only rank 0 is left here
                if rank == Int32(0):
                    cute.arch.sync_threads()
                    self._two_read(xstart, length, k, out, hist, ckey, cidx, ctl, tid)
