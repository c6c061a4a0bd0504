"""The two-launch path's configs (``split.py``): ``SplitConfig``, the pick for a shape (``pick_split``), its
compile-time arguments, and the stream path's bounds that the picks share. ``launch`` re-exports every name, so
callers and tests find them there; a test that changes a constant for ``pick_split`` patches it here."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from topk_core.kernels.backend_base import triton_interpreting as interpreting

from .warp_configs import WarpConfig, all_k_block

#: The one-read stream path needs scratch for k + a chunk; it is used for N >= STREAM_MIN_RATIO * k
#: and k <= STREAM_MAX_K (bounding scratch to 8 * (2k + 2 BLOCK) bytes per program).
STREAM_MIN_RATIO = 8
STREAM_MAX_K = 8192
#: ... and for N >= STREAM_MIN_N: its sampled threshold needs rows of 4 chunks (4 x 4096).
STREAM_MIN_N = 16384


def expected_candidates(n: int, k: int, sample: int) -> float:
    """A generous bound on the keys inside the fast path's bracket (~5 sigma of ``sample``
    ranks either side, scaled to ``n`` columns), plus a safety factor of 1.2."""
    return 1.2 * (10.0 * math.sqrt(k * n / sample) + 4.0 * n / sample)


@dataclass(frozen=True)
class SplitConfig:
    """The two-launch path (``split.py``): filter programs of ``warps`` over chunks of
    ``chunk`` columns (tiles of ``r`` x 256 x ``warps``), then one select program of
    ``select_warps`` per row over candidate chunks of ``cblock`` (the exact fallback in
    chunks of ``block``)."""

    chunk: int
    warps: int = 4
    r: int = 1
    sample: int = 1024
    select_warps: int = 8
    cblock: int = 2048
    block: int = 1024
    cap: int = 4096
    maxnreg: int | None = None  # filter register cap, so that two programs share an SM
    bisect: bool = False  # the select's candidates by bisection (``bisect_select``), as the warp path's
    early: bool = False  # the filter's first tile loaded before the bracket (``split.filter_kernel``'s EARLY)
    sbits: int = 1  # with bisect: 0 the bound by interpolation (``bisect_select._secant_rel``), else 1 bit a step
    # The filter's bracket: by bisection on this many key prefix bits (``bisect_select._bracket_bisect``; 16: the same
    # bounds as the two histograms of ``kernel._bracket``, which 0 selects). ncu (session 20) put those histograms at
    # 44% of the filter's instructions at 8x32K and 54% at 32x128K (every program of a row computes the bracket).
    # sgl10_bench.py "pickbb", two rounds, µs v2 / page table, histograms -> bisection on 16 bits (12 bits): 8x32K
    # 20.8 / 22.6 -> 18.2 / 20.1 (22.4 / 24.6), 32x128K 54.7 / 57.7 -> 47.0 / 49.9 (48.5 / 51.5), 1x128K 23.5 / 25.5
    # -> 21.0 / 23.0 (20.1 / 22.1), 16x128K 34.6 / 37.1 -> 31.2 / 34.0 (30.9 / 33.6), 32x32K 23.3 / 25.5 -> 21.1 / 23.3.
    bracket_bits: int = 16
    # With bracket_bits, > 0: the bounds guessed from the sample's moments first, this many square roots of the
    # ranks past them (``bisect_select._bracket_guess``, two reductions); the bisection only when the sample rejects
    # them (session 22).
    guess: float = 0.0
    # With bracket_bits: the sample in runs of this many adjacent columns (``WarpConfig.sample_run``; session 26).
    sample_run: int = 1
    # Its runs loaded as vectors (``WarpConfig.sample_vec``).
    sample_vec: bool = False
    page_kb: int = 0  # the select's page-table pass in blocks of this many slots (0: ``block``; see late_block)
    # The page table's rows streamed beside the scores by the filter, which lists page entries instead of columns
    # (no pass over the k slots at the end; ``WarpConfig.page_stream``, session 28). Needs no values, a 16-byte aligned
    # table and a stride divisible by 4 (``launch_split`` takes the late pass otherwise).
    page_stream: bool = False
    # With page_stream and early: the page tile (and its row pointer) loaded after the bracket, not beside the early
    # score tile (session 29: ptxas puts the 8192-column 8-warp filter at 128 registers with 60 bytes of spills with
    # both tiles live across the bracket, none with this; shipped on those filters in session 30:
    # SPLIT_PAGE_AFTER_MAX_COLUMNS).
    page_after_bracket: bool = False
    # With row_starts (not the page stream): the filter's tiles from the window's start rounded down to 16 bytes
    # (``WarpConfig.aligned_windows``).
    aligned_windows: bool = True
    sure_kb: int = 0  # the select's copy of the sure columns in blocks of this many slots (0: ``block``)
    # The select's register cap (None: ptxas's own, 128 at 8 warps, where the float32 select spills 36 bytes; with
    # 160 it takes 141 and spills none). Session 25 timed 160: no change (8x128K 19.9 -> 20.1, 32x128K 38.0 -> 38.1).
    # No shipped config sets it.
    select_maxnreg: int | None = None


def tile(config: SplitConfig, elem_bytes: int) -> tuple[int, int, int]:
    """The filter's tile ``(A, V, TH)``: ``TH`` threads each load ``A`` runs of ``V`` contiguous
    columns (16 bytes), ``r x 256 x warps`` columns in all; one list per thread."""
    v = 16 // elem_bytes
    th = 32 * config.warps
    return 256 * config.r // (32 * v), v, th


#: Session 16 gave few long rows (at most 8 of 32K-128K float32 columns) 16-warp selects by bisection and the filter's
#: first tile loaded before its bracket (1x32K 21.3 / 23.1 -> 20.0 / 21.4, 8x32K 22.7 / 24.6 -> 22.2 / 23.6). Session
#: 19 replaced that rule by SPLIT_SECANT_MIN_N's (below): 8 select warps, interpolation, the early tile.
SPLIT_LARGE_SAMPLE_MIN_N = 65536
#: The select by interpolation (``bisect_select._secant_rel``) on float32 rows of at least this many columns
#: (session 19, ``sgl10_bench.py`` ``oldsec``, µs v2 / page table, shipped -> interpolation): 32x32K 25.5 / 27.9 ->
#: 23.4 / 25.7, 32x128K 60.3 / 64.2 -> 55.5 / 58.3, 64x64K 51.8 / 55.8 -> 47.5 / 50.4, 64x128K 94.0 / 100.4 -> 87.7 /
#: 91.0, 100x128K 96.0 / 100.9 -> 87.8 / 90.7, 16x128K 40.0 / 43.3 -> 34.2 / 37.3, 100x32K 42.2 / 44.7 -> 41.1 /
#: 43.9, 2x64K 24.1 / 25.7 -> 22.9 / 24.6; the few long rows' 16-warp bisection -> interpolation: 1x128K 26.0 / 27.8
#: -> 24.2 / 26.0, 8x128K 28.7 / 31.1 -> 27.2 / 29.5, 8x32K 22.3 / 23.7 -> 22.1 / 23.7, 1x32K 20.0 / 21.3 -> 19.4 /
#: 20.9. bfloat16 rows lost then (32x128K 50.8 -> 55.3, 8x32K 20.6 -> 20.8; with the rules below they win, session 31:
#: see SPLIT_PAGE_AFTER_MAX_COLUMNS). Then (call 9,
#: two rounds where repeated) 8 select warps, not 16, for the few long rows: 1x32K 19.5 / 21.1 -> 18.6 / 20.3, 8x32K
#: 22.0 / 23.5 -> 20.7 / 22.6, 1x128K 24.2 / 26.0 -> 23.6 / 25.6, 8x128K 26.9 / 29.3 -> 26.1 / 28.6, 4x64K 23.6 / 25.3
#: -> 22.6 / 24.6; and the early tile for the others: 32x128K 55.4 / 58.5 -> 54.6 / 57.5, 64x128K 87.4 / 90.6 -> 84.9
#: / 88.2.
SPLIT_SECANT_MIN_N = 32768
#: The filter's bracket guessed from the sample's moments first (``SplitConfig.guess``, slack 1.5) on the float32
#: rows that select by interpolation (SPLIT_SECANT_MIN_N+ columns, not many short rows) up to SPLIT_GUESS_MAX_N, with
#: candidate chunks of 4096. Session 22 (``sgl10_bench.py`` ``pickg<S>`` / ``old..g<S>``, µs v2 / page table, two
#: rounds unless noted, bisection -> slack 2.5 / 1.5): 32x128K 46.3 / 49.2 -> 40.8 / 43.9 / 38.1 / 41.0, 64x128K
#: 71.1 / 74.4 -> 60.9 / 63.9 / 55.9 / 58.8, 16x128K 30.7 / 33.3 -> 26.4 / 29.2 / 26.7 / 29.6, 1x128K 20.6 / 22.5 ->
#: 17.8 / 19.8 / 17.2 / 19.2; as shipped (call 3): 8x128K 23.35 / 26.15 -> 20.4 / 22.9, 100x128K 71.5 / 74.3 ->
#: 63.85 / 66.75; longer rows gain nothing (1x1M 36.7 / 40.0, 4x512K 42.8 / 46.25 either way) or lose (1x256K 23.2 /
#: 25.4 -> 23.7 / 26.0). 32K rows lose in chunks of 2048 (8x32K 17.7 / 19.5 -> 21.3 / 23.5 / 20.8 / 23.0: more
#: candidates than one chunk) and gain in chunks of 4096 (call 6, one round: 8x32K -> 17.3 / 19.1 / 17.4 / 19.2,
#: chunks of 4096 alone 19.6 / 21.3; 32x32K 20.4 / 22.65 -> slack 1.5 19.5 / 21.6; 1x32K 15.5 / 17.2 -> 15.6 / 17.4).
SPLIT_GUESS = 1.5
SPLIT_GUESS_MAX_N = 131072
#: float32 filter chunks where the rule above leaves SMs idle: chunks of 1024 columns if the call then has at most one
#: program per SM, else of 2048 if at most two (session 24, ``sgl10_bench.py`` ``pickch<C>``, µs v2 / page table,
#: shipped chunks (programs) -> 2048 / 1024): 8x32K 17.1 / 18.5 (32) -> 14.5 / 15.8 / 14.6 / 15.9 (two rounds), 16x32K
#: 17.9 / 19.5 (64) -> 16.7 / 18.1, 4x32K 16.7 / 18.1 (16) -> 13.8 / 15.2 / 13.5 / 14.8, 1x32K 15.2 / 16.6 -> 12.5 /
#: 13.8 / 12.1 / 13.4, 8x64K 18.7 / 20.2 (64) -> 17.1 / 18.7 / 18.6 / 20.1, 1x64K 16.2 / 17.7 -> 13.6 / 15.1 / 13.2 /
#: 14.7, 2x128K 18.3 / 20.0 (32) -> 16.1 / 17.7 / 16.3 / 18.0, 4x128K 19.5 / 21.3 (64) -> 19.2 / 21.0 / 20.4 / 22.2,
#: 1x128K 17.1 / 18.8 (16) -> 14.7 / 16.4 / 13.6 / 15.2, 1x20K 16.0 / 16.8 -> 13.6 / 14.5 / 13.1 / 13.9. Where the
#: rule gives a program per SM already, smaller chunks lose: 32x32K 19.1 -> 20.1 (2048), 8x128K 19.9 -> 25.3, 32x128K
#: 37.9 -> 59.3, 16x64K 19.8 -> 21.6; chunks of 4096 (4 warps) lost everywhere (8x32K 17.4, 16x32K 18.7, 2x128K 18.8,
#: 16x128K 26.5 -> 31.3). Rows of at most SPLIT_SMALL_CHUNKS_MIN_N columns: not timed.
SPLIT_SMALL_CHUNKS = (1024, 2048)
SPLIT_SMALL_CHUNKS_MIN_N = 16384
#: float32 filter chunks of 8192 columns on 16 warps (2 runs per thread, 96 registers, no spills; 8 warps: 8 runs,
#: 48-56 bytes of spills at 128 registers) where the call has at most one filter program per SM (session 25,
#: ``sgl10_bench.py`` ``pickch8192w16``, three rounds, µs v2 / page table): 8x128K 19.9 / 21.9 -> 19.2 / 21.1, 16x64K
#: 19.6 / 21.4 -> 19.3 / 20.9, 32x32K 19.2 / 20.8 -> 19.0 / 20.5. With more programs than SMs, 16-warp programs
#: (one per SM) lose: 16x128K 26.5 -> 28.9, 64x32K 22.8 -> 25.5, 24x64K 22.7 -> 25.1, 48x32K 22.3 -> 24.5, 32x128K
#: 38.0 -> 43.4. 8 warps without the cap (184 registers): 32x32K 18.9, 16x64K 19.2, 8x128K 19.8, not taken.
SPLIT_ONE_WAVE_WARPS = 16


#: float32 rows of at least SPLIT_SAMPLE_RUN_MIN_N columns: the filter's bracket sample in runs of 8 adjacent columns
#: (session 26, ``sgl10_bench.py`` ``picksrun8``, µs v2 / page table, two rounds where two are given): 32x128K 38.0 /
#: 40.2, 38.1 / 40.3 -> 30.8 / 33.1, 30.9 / 33.1; 16x128K 26.7 / 28.6 -> 23.4 / 25.4; 8x128K 19.2 / 20.9 -> 17.7 /
#: 19.7; 1x128K 13.7 / 15.3 -> 12.7 / 14.3; 32x32K 19.0 / 20.6 -> 18.4 / 19.8; 8x32K 14.5 / 15.8, 14.5 / 15.9 -> 14.1 /
#: 15.4, 14.2 / 15.6; 1x256K 21.1 / 22.9 -> 20.6 / 22.3; 16x64K 19.3 / 20.9 -> 19.0 / 20.6; 1x32K 12.1 / 13.4 -> 11.9 /
#: 13.2. Shorter rows: not timed.
SPLIT_SAMPLE_RUN = 8
SPLIT_SAMPLE_RUN_MIN_N = 32768
#: ... and its runs loaded as vectors (``sample_vec``; session 27, ``sgl10_bench.py`` ``pickvec``, two rounds, µs v2 /
#: page table): 32x128K 30.9 / 33.0 -> 30.4 / 32.6, 30.9 / 33.0 -> 30.4 / 32.5; 8x32K 14.3 / 15.5 -> 13.9 / 15.3,
#: 14.2 / 15.5 -> 13.9 / 15.2; 1x128K 13.0 / 14.6 -> 12.7 / 14.4, 12.7 / 14.3 -> 12.4 / 14.0; 32x32K 18.5 / 19.9 ->
#: 18.1 / 19.6; 16x128K 23.8 / 25.5 -> 23.2 / 25.5; 1x32K 12.0 / 13.2 -> 11.8 / 13.1.
SPLIT_SAMPLE_VEC = True
#: float32 calls of at most this many columns in all (rows x N) stream the page table's rows beside the scores in the
#: filter (``SplitConfig.page_stream``; session 28, ``sgl10_bench.py`` ``pickps``, two rounds where two are given,
#: µs page table, v2 in brackets): 8x32K 15.2 -> 14.2 / 14.3 (13.9), 32x32K 19.6 -> 18.6 (18.1), 16x128K 25.2 / 25.3
#: -> 24.3 / 24.2 (23.5), 1x128K 14.0 -> 12.6 (12.4). Larger calls lose: 32x128K 32.5 -> 33.1 (three rounds; with
#: chunks of 4096 on 4 / 8 warps 41.8 / 33.6, of 8192 on 16 warps 36.7), 64x128K 44.9 -> 48.2.
SPLIT_PAGE_STREAM_MAX_COLUMNS = 1 << 21
#: ... and up to this many with chunks of 8192 columns on 8 warps (the 128-register cap), whose page tile is loaded
#: after the bracket (``SplitConfig.page_after_bracket``; ptxas: 60 bytes of spills with both early tiles live across
#: the bracket, none after). Session 30 (``sgl10_bench.py`` ``pickpsab``, µs page table; late pass / early page tile /
#: after the bracket; v2 in brackets): 32x128K 32.5, 32.5 / 33.1 / 31.4, 31.4 (30.4), 16x128K (streamed early
#: before) 24.2 -> 23.7 (23.4). 64x128K loses (44.9 / 48.2 / 45.7): it keeps the late pass. Shorter rows (early tile
#: streamed on other configs) lose slightly: 8x32K 14.3 -> 14.4, 1x128K 12.9 -> 13.1.
#: 16-bit rows take all of the rules above since session 31; before, they kept session 15's config (none of the
#: rules marked float32). ``sgl10_bench.py`` ``pick16s`` / ``pick16sh`` (the same without the select by
#: interpolation), one round, µs v2 / page table, bf16: 32x128K 43.0 / 45.1 -> 31.7 / 33.0 (40.7 / 41.7), 8x32K
#: 17.5 / 19.0 -> 13.5 / 14.1 (16.8 / 17.0), 1x128K 21.9 / 23.4 -> 12.6 / 13.1 (18.5 / 19.0).
SPLIT_PAGE_AFTER_MAX_COLUMNS = 1 << 22


def pick_split(rows: int, n: int, k: int, sm_count: int) -> SplitConfig:
    """About 4 filter programs per SM, with chunks of at least 4 samples' worth of columns
    (each program gathers the row's sample again for its bracket). A chunk of up to 8192
    columns is one tile, read once; longer ones are read twice (the second time from L2)."""
    if interpreting():
        return SplitConfig(chunk=512, warps=1, r=1, sample=64, select_warps=1, cblock=64, block=64, cap=512)
    sample = 2048 if n >= 32768 else 1024  # also sizes the chunks and the candidate cap
    want = max(1, -(-4 * sm_count // max(rows, 1)))
    s = min(1 << (want - 1).bit_length(), max(1, n // max(4 * sample, 4096)))
    s = max(s, -(-n // (1 << 20)))  # chunks <= 2**20 columns: per-list counts (chunk / threads) < 2**16
    if n > SPLIT_SMALL_CHUNKS_MIN_N:  # SMs left idle: chunks of 1024 / 2048 (SPLIT_SMALL_CHUNKS)
        for small in SPLIT_SMALL_CHUNKS:
            if -(-n // small) > s and rows * -(-n // small) <= small // 1024 * sm_count:
                s = -(-n // small)
                break
    per = -(-n // s)
    if per <= 8192:
        chunk = max(1024, 1 << (per - 1).bit_length())
        warps = 8 if chunk == 8192 else 4
        if chunk == 8192 and rows * s <= sm_count:  # one wave (SPLIT_ONE_WAVE_WARPS)
            warps = SPLIT_ONE_WAVE_WARPS
        r = chunk // (256 * warps)
    else:
        warps, r = 4, 2
        chunk = 2048 * -(-per // 2048)
    cap = max(8192 if n >= 32768 else 2048, int(expected_candidates(n, k, sample)))
    if n >= STREAM_MIN_RATIO * k and k <= STREAM_MAX_K and n >= STREAM_MIN_N:
        cap = max(cap, 2 * k + 2 * 1024)  # the exact stream fallback's need
    # Many short rows: 4-warp selects, so that 4 rows' latency chains share an SM instead of 2
    # (4096x8K 403 -> 378 µs; on 512x128K and 1024x64K they measured 5-8% slower).
    few_warps = rows >= 2 * sm_count and n <= 16384
    # ... and candidate chunks of 1024 there: fewer registers, more selects per SM (4096x8K 380 -> 338 µs).
    cblock = 1024 if few_warps else 4096 if n >= 65536 else 2048
    # Rows over 64K columns sample 4096 keys for the bracket (session 17, sgl10_bench.py ``oldx4096``, µs none / page:
    # 8x128K 32.7 / 34.7 -> 28.7 / 31.2, 32x128K 62.6 / 66.7 -> 60.2 / 63.9, 1x128K 26.2 / 28.0 -> 26.1 / 28.0; 32K
    # rows lose: 8x32K 22.2 -> 24.1, 1x32K 20.0 -> 22.7, 32x32K 25.6 -> 26.8; 8192 keys: 32x128K 79.3): fewer
    # candidates for the select, which is half the time on few rows.
    if n > SPLIT_LARGE_SAMPLE_MIN_N:
        sample = 4096
    # Rows of 32K+ columns (not many short ones): the select by interpolation and the filter's first tile
    # before its bracket (session 19, ``oldsec`` / ``oldsecearly``).
    secant = n >= SPLIT_SECANT_MIN_N and not few_warps
    guess = SPLIT_GUESS if secant and n <= SPLIT_GUESS_MAX_N else 0.0
    if guess:  # its wider candidate set in chunks of 4096 (32K rows)
        cblock = 4096
    run = SPLIT_SAMPLE_RUN if n >= SPLIT_SAMPLE_RUN_MIN_N else 1
    config = SplitConfig(chunk=chunk, warps=warps, r=r, sample=sample, cblock=cblock, cap=cap,
                         maxnreg=128, select_warps=4 if few_warps else 8, bisect=secant, early=secant,
                         sbits=0 if secant else 1, guess=guess, sample_run=run,
                         sample_vec=SPLIT_SAMPLE_VEC and run > 1)
    capped = chunk == 8192 and warps == 8 and secant  # early tile, 128 registers: the page tile after the bracket
    limit = SPLIT_PAGE_AFTER_MAX_COLUMNS if capped else SPLIT_PAGE_STREAM_MAX_COLUMNS
    if rows * n <= limit:
        config = replace(config, page_stream=True, page_after_bracket=capped)
    # The select's copy of the sure columns and its page-table pass over all k slots at once (session 23,
    # ``sgl10_bench.py`` ``pickks``, µs v2 / page table, blocks of ``block`` -> all k): 8x32K 17.4 / 19.2 -> 17.1 /
    # 18.5, 32x32K 19.4 / 21.6 -> 19.2 / 20.7, 1x32K 15.4 / 17.3 -> 15.2 / 16.5, 1x128K 17.2 / 19.2 -> 17.1 / 18.8,
    # 32x128K 38.0 / 41.0 -> 37.9 / 40.0 (the page pass alone, ``pickkb``: 8x128K 22.6 -> 21.8).
    kb = late_block(config, k)
    return replace(config, page_kb=kb, sure_kb=kb)


def split_constexprs(config: SplitConfig, key_bits: int, elem_bytes: int, transform: int, has_starts: bool,
                     stream: bool) -> tuple[dict, dict]:
    """The compile-time arguments of ``filter_kernel`` and ``select_kernel`` (also built by the sm_90 compile
    test). The session-16 flags are passed only when on, so the other builds are unchanged."""
    a, v, th = tile(config, elem_bytes)
    f_const = dict(KEY_BITS=key_bits, CHUNK=config.chunk, A=a, V=v, TH=th, SAMPLE=config.sample, HAS_STARTS=has_starts,
                   **({"EARLY": True} if config.early else {}),
                   **({"BPB": config.bracket_bits} if config.bracket_bits else {}),
                   GUESS=float(config.guess) if config.bracket_bits else 0.0,
                   SRUN=config.sample_run if config.bracket_bits else 1,  # always given, as warp_constexprs' SRUN
                   SVEC=bool(config.bracket_bits) and config.sample_vec,
                   PSTREAM=config.page_stream and transform == 1,
                   **({"PAGE_AFTER": True} if config.page_after_bracket and config.page_stream and transform == 1
                      else {}),
                   **({"HEAD": True} if has_starts and config.aligned_windows
                      and not (config.page_stream and transform == 1) else {}), SU=1)
    s_const = dict(KEY_BITS=key_bits, BLOCK=config.block, CBLOCK=config.cblock, TRANSFORM=transform,
                   HAS_STARTS=has_starts, STREAM=stream, **({"BISECT": True} if config.bisect else {}),
                   **({"SB": 0} if config.bisect and config.sbits == 0 else {}),
                   **({"PAGE_KB": config.page_kb} if config.page_kb and transform == 1 else {}),
                   **({"SURE_KB": config.sure_kb} if config.sure_kb else {}),
                   PSTREAM=config.page_stream and transform == 1, SU=1)
    return f_const, s_const


def _check_sample_run(config: SplitConfig | WarpConfig) -> None:
    """The bracket's sample in runs (``sample_run``, both paths) must tile it: a power of two up to 32 dividing it."""
    if config.sample_run not in (1, 2, 4, 8, 16, 32) or config.sample % config.sample_run:
        raise ValueError(f"config: sample_run must be a power of two up to 32 that divides sample, got {config}")


#: The hint bracket's gather: at most this many of the hint's columns at a time (``split._hint_bracket``).
HINT_GATHER = 2048


def hint_lanes(k: int) -> int:
    """``filter_kernel``'s HINT for a hint of ``k`` columns: k rounded up to a power of two, at most HINT_GATHER."""
    return min(1 << max(k - 1, 0).bit_length(), HINT_GATHER)


def late_block(config: WarpConfig | SplitConfig, k: int) -> int:
    """``all_k_block`` for a warp config or for a two-launch config's select: the late page pass of the few- and mid-row
    warp page configs (``LATE_ALL_K``) and the two-launch select's sure copy and page pass (session 23)."""
    return all_k_block(config.select_warps if isinstance(config, SplitConfig) else config.warps, k)
