"""Host side of radix_filter: compile cache and launch. No host sync: graph-capturable.

The kernel needs no global scratch (sample, histogram and candidates live in shared
memory). Only the ``longest_first`` variants (float32 rows of many waves: SHORT_MANY_LF, LIGHT, MANY_ROWS_F32) keep
their row order in scratch (``topk_core.workspace``, per stream or in the caller's ``workspace``), 4 bytes a row,
and only on sm_90+ with ``load_balance``.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, replace

import torch

from topk_core.kernels.cute_launch import DTYPE_NAME, compile_row_topk, launch_row_topk
from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call


@dataclass(frozen=True)
class Variant:
    """Everything besides dtype/values/alignment that changes the generated code (sampled.py)."""

    threads: int = 1024
    cand: int = 8192
    unroll: int = 4
    sample: int = 4096
    margin: int = 4
    first_bits: int = 13
    prefetch: bool = True  # the filter's first tile loaded with the sample
    sampled: bool = True  # False: the two-read path alone (N too short for the sample)
    fcmp: bool = True  # float32: the filter compares floats, not order keys
    group: int = 1  # CTAs (a cluster) per row
    pstore: bool = True  # float32 and 16-bit word tiles: the filter's writes as predicated stores (no branch per key)
    interp: bool = True  # the threshold interpolated inside the sample's first-digit bin
    relsel: bool = True  # float32: candidates ranked on two digits of key - t
    late: bool = False  # the first tile loaded after the sample's histogram, not before the sample
    sample_bits: int = 0  # interp: the sample's histogram digit (0: the first digit)
    compact: bool = False  # relsel: the k-th key's bin listed for the last pass
    root_pad: int = 1  # the sample rank's root term: floor(sqrt(mu)) + root_pad
    bf16cmp: bool = True  # bfloat16: the filter compares 32-bit words' halves as floats (no order key)
    rel16: bool = True  # 16-bit keys: candidates ranked on one clamped digit of key - t
    f16cmp: bool = True  # float16: the filter compares 32-bit words as half2 (setp.geu.f16x2)
    fastkey: bool = False  # float32: order keys as x + 0.0 and a sign flip (3 instructions, not ~8)
    pstore1: bool = False  # the two-read path's pass 1 writes by predicated stores (no branch per key)
    early: bool = False  # the digit select stops once the threshold's bin holds exactly the keys still needed
    vclear: bool = True  # histogram clears as 16-byte shared stores, unrolled
    unitdiv: bool = True  # rows of next_n == compress_ratio == 1 skip the prologue's integer divisions
    sparse: bool = True  # the filter writes a tile's kept elements by a loop over its mask's set bits
    sparse1: bool = False  # pstore1: pass 1 writes a tile's candidates by a loop over their mask's set bits
    rawbin: bool = False  # sparse1: pass 0 on raw top bits of x + 0.0, permuted to key bins (measured slower: off)
    min_ctas: int = 0  # one CTA per row: registers capped so this many CTAs share an SM (0: ptxas chooses)
    # Longest rows first (row_order.py; session 42, shipped in session 45): the first wave's CTAs per SM take their
    # own rows, the rest rows by falling length, sorted by a one-CTA kernel launched just before (0: off).
    longest_first: int = 0
    order_pdl: bool = True  # longest_first: the row kernel launched as the order kernel's programmatic dependent
    wrank: bool = False  # compact: a k-th key's bin of at most 32 listed keys ranked by one warp (on where compact is)


#: Every sampled variant writes kept keys by predicated stores on float32 (``pstore``; session 7, us,
#: branch per key -> predicated: 32x32K 14.9 -> 13.5, 128x32K 17.1 -> 15.8, 128x128K 32.1 -> 29.5,
#: 512x128K 97.7 -> 89.5; 16-bit tiles of elements spill with it, bf16 128x128K 33.1 -> 34.5; the 16-bit word
#: tiles of session 11 do not, see below).
#: Every sampled variant interpolates the threshold (``interp``) and ranks float32 candidates on two
#: digits of ``key - t`` (``relsel``; session 8, us, both off -> on: 32x32K 13.5 -> 12.1, 128x32K 15.6 ->
#: 14.0, 128x128K 28.9 -> 27.3, 512x32K 39.8 -> 35.3, 1024x64K 102.2 -> 93.4, 512x128K 87.9 -> 81.6).
#: Where many CTAs stream at once (65+ rows, or clusters of two) the first tile is loaded after the
#: sample's histogram (``late``; session 8, us: 128x32K 14.0 -> 13.0, 128x128K 27.3 -> 25.8, 64x128K
#: 22.2 -> 20.6, 1024x64K 93.4 -> 92.5, bf16 128x128K 31.9 -> 30.3; with 32 rows or fewer it was
#: slower: 32x32K 12.1 -> 12.5, 16x128K 17.0 -> 17.4).
#: The one-CTA variants of 1024 threads and the clusters of three also list the k-th key's bin for the
#: last pass (``compact``) and histogram the sample on 11 bits (``sample_bits``; session 8, us: 32x32K
#: 12.0 -> 11.3, 128x32K 12.8 -> 12.3, 32x128K 18.5 -> 17.9; LIGHT's 9-bit sample: 1024x64K 93.1 -> 94.5).
#: Every variant computes its per-row scalars in 32-bit and float arithmetic (sampled.py; session 8,
#: us, 64-bit divisions -> float: 32x32K 11.3 -> 10.5, 128x32K 12.5 -> 12.0, 512x32K 34.7 -> 33.8,
#: 1024x64K 92.6 -> 84.0, 32x128K 18.0 -> 18.0).
#: Every variant takes the sample rank's root term as floor(sqrt(mu)) + 1 (session 10, us, + 2 -> + 1:
#: 1x1M 114.9 -> 87.8, 8x512K 27.3 -> 26.8, 32x128K 17.9 -> 17.8, bf16 128x128K 31.6 -> 31.3; + 2 made more
#: 1M rows overflow the candidate buffer, shared/dev/threshold_model.py).
#: 16-bit rows: bfloat16's filter compares 32-bit words' halves as floats (``bf16cmp``) and 16-bit candidates
#: are ranked on one clamped digit of key - t (``rel16``; session 11 call 2, us, 0.6.0 -> both: bf16 128x128K 32.0
#: -> 23.8, 512x32K 53.4 -> 32.1, 1024x64K 152.0 -> 91.1, 1x128K 17.3 -> 12.8; fp16 128x128K 31.0 -> 29.4); float16
#: compares words as half2 (``f16cmp``) and both write kept elements by predicated stores of the word (``pstore``;
#: call 3, us, branch per key -> predicated: bf16 128x128K 23.4 -> 20.7, 512x32K 32.3 -> 26.8, 1024x64K 89.7 ->
#: 73.2, 32x128K 16.4 -> 15.3, 1x128K 12.7 -> 11.8; fp16 128x128K order-key filter 29.7 -> 19.7).
#: Every variant clears its histograms with unrolled 16-byte stores (``vclear``) and finds a row's length without
#: integer divisions when next_n == compress_ratio == 1 (``unitdiv``; session 12 call 5, us, both off -> on:
#: 32x32K 10.5 -> 10.0, 128x32K 11.9 -> 11.45, 128x128K 24.6 -> 24.35, bf16 128x128K 20.5 -> 20.2, 512x32K 30.2
#: -> 29.75, 1024x64K 84.4 -> 82.75, 32x128K 17.8 -> 15.75, 4096x8K 76.35 -> 72.95, 128x8K 7.3 -> 6.8).
#: Every sampled variant but LIGHT_ONE_WAVE writes the filter's kept elements by a loop over the tile mask's set
#: bits, their raw bits reloaded from L1 (``sparse``), not a predicated store pair issued for every element (session
#: 12 call 7, us, off -> on: bf16 128x128K 20.2 -> 15.25, fp16 128x128K 19.2 -> 14.25, 128x128K 24.3 -> 22.1,
#: 128x32K 11.55 -> 10.4, 32x128K 15.75 -> 14.25, 32x32K 10.0 -> 8.9, 512x128K 80.0 -> 74.35, 1024x64K 83.0 -> 81.2,
#: k=512 22.2 -> 20.3, bf16 1024x64K 70.6 -> 58.0, bf16 512x32K 25.8 -> 22.4; LIGHT_ONE_WAVE's 512x32K 29.45 -> 32.6,
#: so it keeps the stores: 8 vectors of 256 threads keep more per tile, and the loop runs as long as the fullest lane).
#: The compact variants rank the k-th key's bin in warp 0 alone when it lists at most 32 keys (``wrank``; session 63,
#: H100, find_ab.py ``wr``, warm / cold rows, µs: 128x32K 11.2 / 11.1 -> 10.6 / 10.6, 32x32K 9.1 / 9.0 -> 8.4 / 8.4,
#: 128x128K 26.0 / 26.1 -> 25.6 / 25.4, 32x128K 15.8 / 15.8 -> 15.3 / 15.3): the level-two bin search and last pass
#: it skips cost more than the warp's 32-key rank.
#: The variants run() launches (``plan``), from the H200 tuning runs (NOTES.md):
#: - DEFAULT, 65 to 264 rows of N >= 16K: one CTA of 1024 threads per SM, 8192 candidates,
#:   13-bit digits (128x128K: 40.4 us vs 54.5 with 512 threads).
DEFAULT = Variant(late=True, compact=True, sample_bits=11, wrank=True)
#: - FEW_ROWS, up to 64 rows of N >= 16K: DEFAULT with 8 vectors in flight per thread: when few
#:   SMs stream, each needs more bytes in flight (session 6: 32x128K 26.3 vs 27.9 us, 32x32K 15.0
#:   vs 15.6; at 128 rows no better: 128x128K 31.8 vs 31.3). float32 only: 16-bit rows keep 4.
FEW_ROWS = Variant(unroll=8, compact=True, sample_bits=11, wrank=True)
FEW_ROWS_MAX = 64
#: - FEW_LONG_ROWS, up to 64 rows of N >= 64K: FEW_ROWS on a cluster of two CTAs per row, each
#:   filtering half the row (session 7, us, one CTA -> two: 32x128K 26.2 -> 22.6, 64x128K 28.3 ->
#:   25.6, 16x128K 25.6 -> 21.5, 64x64K 20.4 -> 19.4; at 32x32K slower, 14.8 -> 15.7).
FEW_LONG_ROWS = Variant(unroll=8, group=2, late=True)
FEW_LONG_MIN_N = 65536
#: - FEW_LONG_ROWS_3, up to 32 rows of N >= 64K: clusters of three (session 8, with interp and relsel, us:
#:   32x128K 19.3 -> 18.5, 16x128K 18.0 -> 17.0; at 64 rows three do not fit in one wave).
FEW_LONG_ROWS_3 = Variant(unroll=8, group=3, compact=True, sample_bits=11, wrank=True)
FEW_LONG_3_MAX = 32
#: - FEW_HUGE_ROWS, FEW_LONG_ROWS_3's rows of N > 512K: 16384 candidates, so that the bracket of a
#:   4096-key sample of a 1M row fits (session 10, us, 1x1M: 8192 -> 16384 candidates 87.8 -> 34.5,
#:   an 8192-key sample instead 36.8; at 8x512K it gained nothing, 26.8 -> 26.8).
FEW_HUGE_ROWS = replace(FEW_LONG_ROWS_3, cand=16384)
FEW_HUGE_MIN_N = 524289
#: - MANY_ROWS, >= 265 rows of N > 64K: two CTAs of 512 threads per SM (512x128K: 131.8 vs 143.0
#:   in session 2), 8 vectors in flight (session 6: 95.9 vs 101.3 us).
MANY_ROWS = Variant(threads=512, unroll=8, late=True)
#: - MANY_ROWS_F32, MANY_ROWS's float32 rows with the rows past one CTA per SM longest first (``longest_first``,
#:   session 45, H200, find_ab.py ``lf1``, eight rounds in four calls, µs: 512x128K 70.1 / 70.3 / 70.0 / 72.0 / 69.3 /
#:   69.4 / 70.1 / 69.7 -> 68.5 / 68.5 / 69.1 / 68.7 / 68.5 / 68.5 / 68.2 / 68.3; ``lf2`` 69.0-69.3). 16-bit rows
#:   were not measured: MANY_ROWS.
MANY_ROWS_F32 = replace(MANY_ROWS, longest_first=1)
#: - LIGHT, >= 265 rows of 16K <= N <= 64K: 512 threads, 11-bit digits, 4096 candidates, 40 KiB of
#:   shared memory (1024x64K: 140.8 vs 172.0 in session 2; unroll 8 is slower here: 112.8 vs 105.5).
#:   Rows past one CTA per SM longest first (session 45, H200, ``lf1``, six rounds, µs: 1024x64K 78.4 / 78.9 / 76.9
#:   / 78.0 / 76.6 / 77.2 -> 77.0 / 77.3 / 76.9 / 76.5 / 76.1 / 76.5; ``lf3`` 77.5 / 76.4 / 77.6 / 77.6).
LIGHT = Variant(threads=512, cand=4096, first_bits=11, late=True, longest_first=1)
#: - LIGHT_16, LIGHT's 16-bit rows: registers capped at 32 (``min_ctas``; 49 without, so two CTAs per SM, not
#:   four; 24-28 bytes of spills). Session 14, find_ab.py ``m4``, two rounds, µs: bf16 1024x64K 57.1 -> 52.25,
#:   bf16 512x32K 22.25 -> 21.2, bf16 300x32K 17.5 -> 16.1, fp16 1024x64K 53.5 -> 48.55. float32 (40 registers,
#:   three CTAs) measured no gain: 1024x64K 76.3/80.3 -> 82.2/81.9.
LIGHT_16 = replace(LIGHT, min_ctas=4, longest_first=0)  # 16-bit rows: longest first not measured
#: - SHORT, every row count below N = 16K (too short for the sample): LIGHT's two-read path alone,
#:   whose second read hits L2. Without the sampled path's code the build needs 40 registers, not
#:   55, so three CTAs share an SM (4096x8K: 113.8 vs 133.0 us, session 6).
SHORT = Variant(threads=512, cand=4096, first_bits=11, sampled=False)
#: - SHORT_F32, SHORT's float32 rows: order keys from ``x + 0.0`` (``fastkey``: 3 instructions, not ~8) and
#:   pass 1's writes as predicated stores (``pstore1``: no branch per key; with k a third of the row most
#:   keys are written), the digit select stopping once the threshold's bin holds exactly the keys still
#:   needed (``early``). Session 12, us, session 11's SHORT -> all three (call 5, with vclear/unitdiv on both
#:   sides): 1024x8K 30.8 -> 25.2, 128x8K 8.3 -> 6.8, 1024x4K (k=1024) 21.4 -> 18.05. 16-bit rows: not
#:   measured, SHORT. With ``sparse1`` (pass 1's candidates written by a loop over their mask's bits, the
#:   bin's float edges once per row; session 13, ab13.sh, us: 1024x8K 24.6 -> 23.6, 512x8K 15.5 -> 14.95,
#:   1024x4K k=1024 17.7 -> 17.15, 32x8K 5.5 -> 5.45, 128x8K 6.8 -> 6.9).
SHORT_F32 = replace(SHORT, fastkey=True, pstore1=True, early=True, sparse1=True)
#: - SHORT_F32_WIDE, SHORT_F32's rows beyond three CTAs per SM (rows > 3 x SMs): registers capped at 32 (``min_ctas``)
#:   so four 512-thread CTAs share an SM, not three (40 registers; no spills). Session 14, find_ab.py ``m4``, two
#:   rounds, µs: 512x8K 14.9 -> 13.7, 1024x4K k=1024 17.1 -> 15.75, 1024x8K 23.4 -> 23.2; slower where one wave of
#:   three already fits: 128x8K 6.8 -> 7.1, 32x8K 5.4 -> 5.6. SHORT_MANY's 8 CTAs of 256 (``m8``) was slower: 4096x8K
#:   66.9 -> 73.2, 2048x8K 38.0 -> 42.3.
SHORT_F32_WIDE = replace(SHORT_F32, min_ctas=4)
#: - SHORT_F32_WIDE_8K, SHORT_F32_WIDE's rows of N <= 8192 with a 2048-key candidate buffer, not 4096 (session 65,
#:   H100, find_ab.py ``c2048``, us: 1024x8K 24.4 -> 23.1, 512x8K 14.6 -> 14.2, 1024x4K k=1024 16.2 -> 15.8). The
#:   gain is L1: ncu at 1024x8K, the driver configures 135 KB of shared memory, not 201 (the launch's preferred
#:   carveout of 100% is a hint), L1 hit rate 38 -> 54%, L2 read sectors 1.59M -> 1.10M. A row now takes the
#:   overflow path when its threshold's first-digit bin (a quarter of an octave) holds more than 2048 keys, a
#:   quarter of the row; plateau rows, which overflow either buffer, were faster too (51.5 -> 49.0).
SHORT_F32_WIDE_8K = replace(SHORT_F32_WIDE, cand=2048)
SHORT_8K_MAX_N = 8192
#: - LIGHT_ONE_WAVE, LIGHT's rows when they need two waves of LIGHT (3 CTAs per SM) but fit one wave
#:   of 4: 256 threads, 8 vectors in flight, a 9-bit sample digit (54 registers, 4 CTAs per SM;
#:   session 9, us, 512x32K: LIGHT -> 256 threads with 8 vectors 34.5 -> 32.0 (one call), then ->
#:   9-bit sample 31.1 -> 30.3 (another call; 12-bit digits 34.5); at 1024x64K, two waves either
#:   way, slower: 86.1 -> 87.4).
LIGHT_ONE_WAVE = Variant(threads=256, cand=4096, first_bits=11, late=True, unroll=8, sample_bits=9, sparse=False)
#: - SHORT_MANY, >= 2048 rows of N < 16K: SHORT on 256 threads and 2048 candidates, 6 CTAs per SM
#:   (session 9, us: 4096x8K 112.9 -> 96.8, 2048x8K 59.5 -> 54.2; fewer rows lost: 1024x8K 32.8 ->
#:   35.4, 128x8K 8.6 -> 10.7), with SHORT_F32's three flags (session 12 call 5, us: 4096x8K 93.4 -> 72.95,
#:   2048x8K 52.7 -> 40.5; 40 registers, 6 CTAs per SM), and sparse1 (session 13, us: 4096x8K 71.3 -> 67.2/68.8,
#:   2048x8K 40.0 -> 38.1/38.3; 40 registers).
SHORT_MANY = Variant(threads=256, cand=2048, first_bits=11, sampled=False, fastkey=True, pstore1=True, early=True,
                     sparse1=True)
SHORT_MANY_MIN = 2048
#: - SHORT_MANY_LF, SHORT_MANY's batches of up to four waves (24 rows per SM) with the rows past three CTAs per SM
#:   longest first (session 45, H200, ``lf3``, find_ab.py, µs: 2048x8K 38.2 / 38.3 / 38.2 / 38.1 / 38.4 / 38.2 /
#:   38.1 / 38.4 -> 37.5 / 37.5 / 37.4 / 37.6 / 37.7 / 37.5 / 37.6 / 37.6; ``lf6``, the whole first wave drawn, 38.4).
#:   At 4096x8K (5.2 waves) it lost a little: 66.9 / 67.2 / 67.1 / 67.1 / 66.8 / 66.9 / 66.9 / 66.9 / 66.9 / 66.8 ->
#:   66.8 / 67.1 / 67.1 / 67.1 / 67.1 / 67.3 / 67.3 / 67.3 / 67.0 / 67.0. Between the two it is not measured.
SHORT_MANY_LF = replace(SHORT_MANY, longest_first=3)
SHORT_MANY_LF_MAX_PER_SM = 24
MANY_ROWS_MIN = 265
LIGHT_MAX_N = 65536


#: Every variant plan() can pick (compiled on CPU by the tests).
PLANNED = {"DEFAULT": DEFAULT, "FEW_ROWS": FEW_ROWS, "FEW_LONG_ROWS": FEW_LONG_ROWS, "FEW_LONG_ROWS_3": FEW_LONG_ROWS_3,
           "FEW_HUGE_ROWS": FEW_HUGE_ROWS,
           "MANY_ROWS": MANY_ROWS, "MANY_ROWS_F32": MANY_ROWS_F32, "LIGHT": LIGHT, "LIGHT_16": LIGHT_16,
           "LIGHT_ONE_WAVE": LIGHT_ONE_WAVE,
           "SHORT": SHORT,
           "SHORT_F32": SHORT_F32, "SHORT_F32_WIDE": SHORT_F32_WIDE, "SHORT_F32_WIDE_8K": SHORT_F32_WIDE_8K,
           "SHORT_MANY": SHORT_MANY,
           "SHORT_MANY_LF": SHORT_MANY_LF}


def plan(rows: int, n: int, capability: tuple[int, int] = (9, 0), sms: int = 132, dtype: str = "float32") -> Variant:
    """The variant for a shape on a GPU of ``capability`` with ``sms`` SMs, from static facts only
    (clusters, hence FEW_LONG_ROWS, need sm_90). The 256-thread variants are float32's: their
    16-bit builds need 69-80 registers, which undoes the CTAs per SM they are for."""
    f32 = dtype == "float32"
    if n < 4 * DEFAULT.sample:
        if not f32:
            return SHORT
        if rows >= SHORT_MANY_MIN:
            return SHORT_MANY_LF if rows <= SHORT_MANY_LF_MAX_PER_SM * sms else SHORT_MANY
        if rows > 3 * sms:
            return SHORT_F32_WIDE_8K if n <= SHORT_8K_MAX_N else SHORT_F32_WIDE
        return SHORT_F32
    if rows >= MANY_ROWS_MIN:
        if n > LIGHT_MAX_N:
            return MANY_ROWS_F32 if f32 else MANY_ROWS
        if not f32:
            return LIGHT_16
        return LIGHT_ONE_WAVE if 3 * sms < rows <= 4 * sms else LIGHT
    if rows <= FEW_ROWS_MAX:
        if n >= FEW_LONG_MIN_N and capability >= (9, 0):
            if rows > FEW_LONG_3_MAX:
                return FEW_LONG_ROWS
            return FEW_HUGE_ROWS if n >= FEW_HUGE_MIN_N else FEW_LONG_ROWS_3
        return FEW_ROWS
    return DEFAULT


@functools.cache
def _sms(index: int) -> int:
    return torch.cuda.get_device_properties(index).multi_processor_count


def _arch(device: torch.device) -> str:
    major, minor = torch.cuda.get_device_capability(device)
    return f"sm_{major}{minor}" + ("a" if major == 9 else "")


def compiled(dtype: str, with_values: bool, arch: str, variant: Variant = DEFAULT, vec: bool = True,
             ordered: bool = False):
    """One build per (dtype, with_values, arch, variant, vec); it serves every rows, N, k, next_n, ratio.
    ``ordered``: the ``longest_first`` entry (``row_order.OrderedRows.call_ordered``); else the plain one, shared
    by every variant that differs only in the order's host settings."""
    import cutlass

    if not ordered:
        variant = replace(variant, longest_first=0, order_pdl=True)
    key = ("radix_filter", "SampledFilter", 4, dtype, with_values, vec, arch, tuple(sorted(asdict(variant).items())),
           ordered, getattr(cutlass, "__version__", "?"))
    return compile_cached(key, lambda: build(dtype, with_values, variant, vec=vec, ordered=ordered))


def compiled_order(arch: str, unitdiv: bool, pdl: bool):
    """The ``longest_first`` order kernel (``row_order.RowOrder``), one build per (arch, unitdiv, pdl)."""
    import cutlass

    from .row_order import compile_order

    key = ("radix_filter", "RowOrder", 1, arch, unitdiv, pdl, getattr(cutlass, "__version__", "?"))
    return compile_cached(key, lambda: compile_order(unitdiv, pdl))


def build(dtype: str, with_values: bool, variant: Variant = DEFAULT, options: str = "", vec: bool = True,
          ordered: bool = False):
    """Compile from placeholder pointers (works without a GPU when CUTE_DSL_ARCH is set).

    ``vec``: 16-byte loads (every row start 16-byte aligned). ``ordered``: the ``longest_first`` entry.
    """
    from .row_order import ORDERED_ARGS
    from .sampled import SampledFilter

    op = SampledFilter(dtype, with_values, vec=vec, **asdict(variant))
    if ordered:
        return compile_row_topk(op, dtype, options, entry=op.call_ordered, extra=ORDERED_ARGS)
    return compile_row_topk(op, dtype, options)


def first_wave(variant: Variant, rows: int, sms: int) -> int:
    """The CTAs of a ``longest_first`` launch that take their own rows (``rows``: none is ordered)."""
    return min(rows, variant.longest_first * sms) if variant.longest_first > 0 else rows


def launch(call: Call, variant: Variant | None = None) -> None:
    logits = call.logits
    rows = logits.shape[0]
    if rows == 0:
        return
    dev = logits.device
    if variant is None:
        variant = plan(*logits.shape, torch.cuda.get_device_capability(dev), _sms(dev.index),
                       DTYPE_NAME[logits.dtype])
    vec = logits.data_ptr() % 16 == 0 and (logits.stride(0) * logits.element_size()) % 16 == 0
    # The order kernel's dependent launch (griddepcontrol) needs sm_90; longest-first was measured only there.
    ordering = call.load_balance and torch.cuda.get_device_capability(dev) >= (9, 0)
    first = first_wave(variant, rows, _sms(dev.index)) if ordering else rows
    fn = compiled(DTYPE_NAME[logits.dtype], call.values is not None, _arch(dev), variant, vec, ordered=first < rows)
    if first < rows:
        _launch_ordered(fn, call, variant, first)
    else:
        launch_row_topk(fn, call)


def _launch_ordered(fn, call: Call, variant: Variant, first: int) -> None:
    """The order kernel, then the row kernel's ordered entry on its order (scratch), on the current stream."""
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr

    from topk_core import workspace as ws

    rows, n = call.logits.shape
    dev = call.logits.device
    order = ws.scratch("radix_filter.order", dev, 4 * rows, call.workspace)[:4 * rows].view(torch.int32)

    def ptr(tensor):
        return make_ptr(cutlass.Int32, tensor.data_ptr(), cute.AddressSpace.gmem, assumed_align=4)

    with ws.launch_sequence:  # the row kernel reads the order kernel's scratch: no other launches between
        compiled_order(_arch(dev), variant.unitdiv, variant.order_pdl)(
            ptr(call.seq_lens), ptr(order), rows, first, n, call.next_n, call.compress_ratio,
            cuda.CUstream(torch.cuda.current_stream(dev).cuda_stream))
        launch_row_topk(fn, call, extra=(order, first))
