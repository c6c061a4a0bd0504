"""The one-program-per-row paths' configs and the shipped picks with their measurements (H200): ``WarpConfig`` (the
warp path, ``warp.py``) and ``ResidentConfig`` (the resident path, ``resident.py``, with its compile-time arguments).
``launch`` re-exports every name here and picks among them (``launch.pick_warp``)."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class WarpConfig:
    """The one-launch path of small programs (``warp.py``): one program of ``warps`` per row,
    tiles of ``a`` x 16 bytes x 32 ``warps`` lanes, a bracket from ``sample`` keys, candidate
    chunks of ``cblock``, the short-row fill and the exact fallback in chunks of ``block``;
    ``cap`` candidates per row (0: from ``warp_cap``)."""

    warps: int = 1
    a: int = 4
    sample: int = 1024
    cblock: int = 1024
    block: int = 256
    cap: int = 0
    maxnreg: int | None = None  # register cap, so that more programs share an SM
    bisect: bool = True  # candidate select by bisection on the key bits (else 8-bit histograms)
    late: bool = False  # page table applied over the k slots at the end (else as each slot is written)
    # Bits per step of that select / of the bracket's search over the sample (1, 2 or 4: 2**bits thresholds
    # counted at once). Measured slower (session 11 call 2, 1x8K: 12.0 -> 13.2 µs with both 2, 12.7 with a
    # 4-bit select; 4096x8K 209.1 -> 299.8 with both 2; 80 -> 100-241 registers at 8 warps), so 1 everywhere.
    # sbits 0: the select's bound by interpolation (``bisect_select._secant_rel``, session 19). The bracket's two
    # sample ranks by interpolation (bbits 0, session 19) measured slower on every cell and was removed (NOTES.md,
    # session 20).
    sbits: int = 1
    bbits: int = 1
    # Slots per block of the late page-table pass (0: ``block``, session 10's pass; LATE_ALL_K: all k at once up to 16
    # per thread, ``late_block``).
    late_kb: int = 0
    # With late: the page table's request found after the stream, not before it (its registers not live across the
    # loop; sm_90a: 8 warps 93 -> 80 registers, 2 -> 3 programs per SM as the identity transform; 4 warps need
    # maxnreg=80 too for 96 -> 80). Timed in session 13: no gain (4096x8K page 228.5 -> 230.5 µs), so off (NOTES.md).
    lazy: bool = False
    # The bracket's bounds on this many top key bits (16: 16 bisection steps over the sample; 12: 12 steps and a
    # slightly wider bracket; session 17 prepared it after ncu put the bracket at ~35% of 4096x8K's instructions).
    bracket_bits: int = 16
    # > 0: the bracket's bounds guessed from the sample's moments first, this many square roots of the ranks past
    # them, checked by one count over the sample; the bisection runs only when the check fails
    # (``bisect_select._bracket_guess``, session 22).
    guess: float = 0.0
    # Tiles of the stream loaded ahead of the one being placed (1 or 2; session 25): more bytes in flight per program
    # where one program holds an SM.
    ahead: int = 1
    # The bracket's sample in runs of this many adjacent columns (1: single columns evenly spaced). A sample of more
    # than one value per 32-byte sector reads the whole row from DRAM before the stream (session 26's stamps: the
    # bracket was 6.2 of 128x32K's 21.7 µs per row); runs of 8 float32 read one sector per 8 values.
    sample_run: int = 1
    # The sample's runs loaded as ``[runs, sample_run]`` vectors (16-byte loads), not one scalar load per value
    # (session 27: ptxas issued 8 scalar loads a thread for runs of 8, each warp-wide one touching 32 sectors).
    # Timed on the warp picks (``sgl10_bench.py`` ``pickvec``, two rounds, µs v2 / page table): 128x32K even (23.2 /
    # 25.5 -> 23.3 / 25.4, 23.1 / 25.5 -> 23.2 / 25.3), 512x128K slower (183.6 / 201.9 -> 189.2 / 201.2, 184.2 / 200.7
    # -> 190.4 / 201.4), 1024x64K 181.8 / 193.4 -> 180.0 / 194.2, 183.0 / 193.8 -> 181.5 / 194.4, 4096x8K even: off
    # here (the two-launch path takes it: ``launch.SPLIT_SAMPLE_VEC``).
    sample_vec: bool = False
    # Each candidate written as one 64-bit scratch word (key << 32 | column) instead of two 32-bit ones (session 27;
    # the stream's stores per key 3 -> 2; needs bisect).
    pack_cands: bool = False
    # Page table (instead of late): the row's page-table entries streamed beside its scores, tile for tile, so sure
    # keys write their entries from registers and candidates carry them (session 28). No gather and no pass over the
    # k slots at the end; the price is the table's whole window read, which a dense selection (k a large share of
    # the row) reads most of anyway. Needs no values, a 16-byte aligned table and a stride divisible by 4
    # (``launch_warp`` falls back to the late pass otherwise).
    page_stream: bool = False
    # With row_starts (and not the page stream, which reads the table at window columns): the stream's tiles from the
    # window's start rounded down to 16 bytes, so that full tiles load 16 bytes at a time at any start
    # (``split._stream_base``; session 30).
    aligned_windows: bool = True
    # Every key at or above the bracket's ``lo`` is a candidate (no sure keys in the stream; needs pack_cands): one
    # compare, one running count and one 64-bit store per kept key instead of two of each; the select then ranks all
    # k among them (session 32).
    all_cands: bool = False
    # A candidate select whose search ended on exactly the keys it needs emits them without first counting the keys
    # above its bound (one block-wide reduction less per row; session 32).
    emit_done: bool = False
    # The bracket guess's pivot (the row's first value) loaded beside the sample (a volatile load, which ptxas does
    # not sink into the guess's branch), not after the sample's keys and the guess's range check, where ptxas issues
    # it otherwise. Session 33 (``sgl10_bench.py`` ``pickx<0|1>``, µs v2 / page table): even, so off: 128x32K 21.9 /
    # 22.3 -> 21.9 / 22.5, 21.9 / 22.4 -> 21.8 / 22.5; 128x64K 35.5 / 37.2 -> 35.5 / 37.4; 128x128K 57.1 / 58.9 ->
    # 57.1 / 58.8.
    early_pivot: bool = False
    # Page table applied as the select emits each slot (not late, not streamed; needs bisect): the entries of the
    # select's first candidate chunk gathered before its search, so the gathers' latency hides behind the search
    # instead of following it (session 34; with all_cands, where no sure key is written during the stream).
    page_early: bool = False
    # The select's first candidate chunk emitted from the registers its first load filled (columns kept beside the
    # keys: free in packed words), not re-read from scratch at the end. Session 34 (``sgl10_bench.py`` ``pickk0``, µs
    # v2 / page table): 4096x8K 150.6 / 155.7 -> 148.5 / 154.5, 149.6 / 155.3 -> 147.8 / 153.6; even at 128x32K,
    # 512x128K, 1024x64K and 64x32K; 128x128K page 58.8 -> 60.1. On in WARP_MANY_SMALL[_PAGE] (session 35).
    first_chunk_regs: bool = False
    # With pack_cands: each warp appends its candidates (and without all_cands its sure columns) to scratch regions of
    # its own (in-warp scans only: no block-wide scan or barrier in the stream loop); before the select the candidate
    # regions are copied to one list and the sure ones to the output (session 35).
    warp_regions: bool = False
    # With warp_regions, without all_cands, the page table applied as the select emits: the sure columns go to their
    # slots as local columns, and right after that copy their entries are gathered (all of them at once, up to 4 a
    # thread; slots past those are gathered in the copy) and held in registers through the select, which stores them
    # at its end; the late pass's barrier, slot re-read and gathers after the select go (session 37, prepared: off in
    # every pick until the GPU checks and a committed run have seen it; NOTES.md).
    defer_sure: bool = False
    # Programs past the first wave take the rows longest first (``row_order.py``, session 39; WARP_MID_LARGE_ORDER
    # since session 50, the ``*_LF`` configs since session 51): a launch of several waves otherwise ends on whichever
    # rows come last, long ones included.
    # ``first_wave`` programs per SM take their own row; the rest read an order that a one-program kernel sorts just
    # before (with ``order_pdl`` beside the first wave, the row kernel launched as its programmatic dependent).
    longest_first: bool = False
    first_wave: int = 0
    order_pdl: bool = True


#: The warp path's configs by rows per SM (H200, fp32, k=2048, NOTES.md 2026-11-30 session 10):
#: ~1 row per SM: 16 warps (128x128K 100.1 -> 85.6 µs, 128x32K 49.3 -> 33.3); 2-12 rows per SM:
#: 8 warps (1024x64K 303.1 -> 227.9, 512x128K 279.0 -> 241.7); more: 4 warps (4096x8K 337.2 -> 208.0).
#: Every warp config samples its bracket in runs of WARP_SAMPLE_RUN adjacent columns (session 26, ``sgl10_bench.py``
#: ``pickrun8``, µs v2 / page table, single columns -> runs of 8, two rounds where two are given): 128x128K 64.8 / 66.4,
#: 64.6 / 65.6 -> 57.1 / 58.8, 57.0 / 58.8; 512x128K 200.7 / 213.7, 201.0 / 215.4 -> 185.0 / 200.1, 186.1 / 200.5;
#: 1024x64K 198.9 / 212.3, 199.4 / 212.0 -> 183.7 / 193.4, 184.0 / 195.3; 256x128K 115.1 / 116.8 -> 97.8 / 108.5;
#: 128x64K 40.6 / 42.6 -> 35.4 / 37.2; 512x32K 73.0 / 83.2 -> 71.8 / 76.4; 256x32K 43.2 / 46.8 -> 42.0 / 42.8;
#: 4096x8K 152.1 / 173.3, 153.2 / 173.6 -> 149.6 / 173.0, 149.4 / 173.0; 64x32K even (22.9 / 24.4); 1024x8K 49.8 / 56.3
#: -> 51.1 / 54.5. Why the sample's loads cost so much is not understood (stamps: the bracket was 6.2 of 128x32K's
#: 21.7 µs per row, most of it waiting on the sample; fewer sectors alone do not explain it, halving the sample does
#: more).
WARP_SAMPLE_RUN = 8
WARP_FEW = WarpConfig(16, 2, 4096, 1024, 1024, sample_run=WARP_SAMPLE_RUN)
WARP_MID = WarpConfig(8, 2, 2048, 1024, 1024, sample_run=WARP_SAMPLE_RUN)
WARP_MANY = WarpConfig(4, 2, 2048, 512, 512, sample_run=WARP_SAMPLE_RUN)
#: Page table: always over the k slots at the end (``late``; session 11 call 1, inline -> late, µs: 128x32K
#: 36.2 -> 35.4, 128x128K 95.7 -> 88.1, 4096x8K 230.8 -> 228.3, 1024x64K 4 warps 279.6 -> 249.2 and 8 warps
#: 301.4 -> 268.5; call 2: 4096x8K 231.1 -> 229.2). 6-12 rows per SM take 4 warps with it (1024x64K: 249.2
#: against 268.5 in 8 warps).
#: Session 19 (``sgl10_bench.py`` ``picksec``, µs): the candidate select by interpolation (``sbits=0``) where it
#: measured faster: 4096x8K (WARP_MANY_SMALL[_PAGE], two rounds) 181.9 / 203.3 -> 161.2 / 191.7, 512x128K page
#: (WARP_MID_PAGE) 254.4 -> 250.7, 128x128K page (WARP_FEW_PAGE) 87.1 -> 86.1. Not where it did not: 128x128K v2
#: 84.5 -> 84.9, 512x128K v2 240.8 -> 241.5, 1024x64K page (WARP_MANY_PAGE) 249.1 -> 250.2, 128x32K
#: (WARP_FEW_LARGE) 31.9 -> 32.2; 1024x64K v2 (WARP_MID) 227.0 -> 225.9 is within its spread.
WARP_SELECT_SECANT = 0
#: ``late_kb``: the late pass over all k slots at once (``late_block``). Session 23 (``sgl10_bench.py`` ``pickkb``, µs
#: page table, blocks of ``block`` -> all k): 128x32K 26.8 -> 26.5 / 26.4, 128x128K 66.8 -> 65.6, 512x128K 221.4 ->
#: 218.9 (session 11 measured no gain at 4096x8K, 229.2 -> 230.5: the many-row configs keep blocks of ``block``).
LATE_ALL_K = -1
WARP_FEW_PAGE = replace(WARP_FEW, late=True, sbits=WARP_SELECT_SECANT, late_kb=LATE_ALL_K)
#: Session 25 (``sgl10_bench.py`` ``pickah2``, µs v2 / page table, one round unless noted): the stream two tiles ahead
#: (``WarpConfig.ahead``) gains with the page table on 2-12 rows per SM and on WARP_FEW_LARGE_PAGE: 512x128K page 218.0
#: -> 214.8, 1024x64K 214.4 -> 211.4, 256x32K 47.2 -> 46.7, 128x32K 26.5 -> 26.0 / 26.1 (two rounds); 512x32K even
#: (83.1). It loses on every identity-transform config (128x32K even, 128x128K 64.3 -> 67.0, 512x128K 201.0 -> 202.6,
#: 1024x64K 199.1 -> 202.8, 512x32K 73.1 -> 80.7, 4096x8K 152.0 -> 160.4) and on WARP_FEW_LONG_PAGE (128x128K 65.9 ->
#: 68.9, 128x64K 42.5 -> 43.5); 4096x8K's page table even (172.4 -> 173.2). Rows of at most WARP_NARROW_BRACKET_MAX_N
#: columns (not timed) keep 1.
WARP_PAGE_AHEAD = 2
#: Session 28 (``pickps``, µs page table, v2 in brackets): its table streamed beside the scores (``page_stream``;
#: the late pass with ``late_kb`` where it cannot be streamed): 512x32K 76.1 -> 71.2 (71.6), 512x128K (with
#: WARP_MID_LARGE_PAGE's sample) 189.8 -> 186.7 (183.4).
WARP_MID_PAGE = replace(WARP_MID, sbits=WARP_SELECT_SECANT, late_kb=LATE_ALL_K, ahead=WARP_PAGE_AHEAD,
                        page_stream=True)
WARP_MANY_PAGE = replace(WARP_MANY, late=True)
WARP_MID_PAGE_MANY = WARP_MANY_PAGE
#: The bracket's sample by row length (session 17, shared/device/sgl10_bench.py ``x<S>``, k = 2048, µs none / page):
#: more than 12 rows per SM of at most WARP_MANY_SMALL_N columns sample 1024 keys, not 2048 (4096x8K 207.2 / 228.1
#: -> 187.3 / 210.0; 2048x8K 107.9 / 119.2 -> 101.0 / 113.2; 4096x16K 278.4 / 305.4 -> 264.1 / 298.0; 512 keys:
#: 4096x8K 194.7; at 6-12 rows per SM no gain: 1024x8K page 64.5 -> 64.8, 8 warps 56.6 -> 72.2); about one row per
#: SM of WARP_FEW_LARGE_N (lo, hi] columns sample 8192, not 4096 (128x32K 33.2 / 36.0 -> 31.8 / 34.5, 64x32K
#: 31.7 / 33.7 -> 30.0 / 32.0, 150x32K 52.1 / 57.1 -> 52.0 / 57.2; slower on shorter and longer rows: 128x16K 21.5
#: -> 23.1, 128x128K 84.5 -> 86.9; 16384 keys at 128x32K 35.0). The bracket's 16 steps each count the sample; the
#: select's steps count the candidates, whose number goes as the row length over the square root of the sample.
#: Session 35: their select emits its first candidate chunk from the registers of its first load
#: (``first_chunk_regs``; ``sgl10_bench.py`` ``pickk0``, µs v2 / page table, three rounds over sessions 34-35): 4096x8K
#: 150.6 / 155.7 -> 148.5 / 154.5, 149.6 / 155.3 -> 147.8 / 153.6, 149.8 / 155.4 -> 147.8 / 154.0. Even at 128x32K,
#: 512x128K, 1024x64K and 64x32K, and 128x128K's page table lost (58.8 -> 60.1): the other configs keep the re-read.
WARP_MANY_SMALL = replace(WARP_MANY, sample=1024, sbits=WARP_SELECT_SECANT, first_chunk_regs=True)
#: The page table's many short rows capped at 80 registers, 6 programs per SM not 5 (session 21, ``sgl10_bench.py``
#: ``m80``, one round, µs: 4096x8K 179.9 -> 173.4; the identity transform's 152.4 -> 152.0 kept; 16K rows not timed).
#: Session 28 (``sgl10_bench.py`` ``pickps`` / ``pickkb``, µs page table): the table's rows streamed beside the scores
#: (``page_stream``; v2 148.5): 4096x8K 171.8 -> 155.1, 2048x8K 95.1 -> 87.1; the late pass over all k slots at once
#: (the fallback where the table cannot be streamed): 4096x8K 172.7 -> 166.1 / 165.9, 2048x8K 95.1 -> 91.0.
WARP_MANY_SMALL_PAGE = replace(WARP_MANY_PAGE, sample=1024, sbits=WARP_SELECT_SECANT, maxnreg=80, late=False,
                               page_stream=True, late_kb=LATE_ALL_K, first_chunk_regs=True)
WARP_MANY_SMALL_N = 16384
#: With the guessed bracket (session 22, below) its wider candidate set takes chunks of 2048, not 1024 (128x32K, one
#: round, µs v2 / page: 27.65 / 29.75 -> 24.8 / 26.9; slack 1.5: 26.8 / 28.9; 4096 sampled keys: 24.4 / 26.7).
#: With runs of 8 (session 26, two rounds, µs v2 / page table) the sample is back to 4096 keys: 128x32K 24.2 / 26.3,
#: 24.1 / 26.2 -> 23.3 / 25.4, 23.3 / 25.4 (8192 single columns as before: 24.8 / 26.1 twice; 2048 keys 29.2 / 31.3;
#: runs of 16 or 32 at 4096 keys 23.1 / 24.8, 23.2 / 25.4); 150x32K 39.5 / 43.4 -> 38.1 / 42.0; 64x32K even.
WARP_FEW_LARGE_SAMPLE = 4096
#: ... and writes each candidate as one 64-bit word (``pack_cands``; session 27, ``sgl10_bench.py`` ``pickpack``, two
#: rounds, µs v2 / page table): 128x32K 23.1 / 25.4 -> 22.6 / 24.4, 23.2 / 25.4 -> 22.5 / 24.4. Other configs lose or
#: stay even (not taken): 128x128K 56.8 / 59.0 -> 58.4 / 60.2, 56.7 / 58.8 -> 58.0 / 60.4; 512x128K page 201.4 ->
#: 207.8; 1024x64K 183.0 / 194.2 -> 184.8 / 200.9; 4096x8K 149.0 / 172.3 -> 158.3 / 175.2 (80 -> 92 registers);
#: 256x32K and 64x32K even.
WARP_FEW_LARGE_PACK = True
#: Session 32 (``sgl10_bench.py`` ``pickqs2e``, µs v2 / page table, two rounds at 128x32K): the candidate select two key
#: bits a step (its three counts packed into one reduction, ``bisect_select._count3``; ~5.6 steps against ~10.6 on
#: randn rows, CPU model) and a search that ends on exactly the keys needed emitted without counting the keys above
#: (``emit_done``): 128x32K 22.1 / 23.2 -> 22.0 / 22.4, 22.3 / 23.3 -> 21.9 / 22.6 (packed steps alone 22.2 / 22.7,
#: emit_done alone 22.2 / 23.2), 150x32K 36.4 / 38.4 -> 35.7 / 36.9, 64x32K even (22.4 / 23.1).
WARP_FEW_LARGE_SELECT = dict(sbits=2, emit_done=True)
#: The guess's slack (session 22: 2.5 against 1.5, 27.7 / 29.8 -> 28.2 / 30.3 µs at 128x32K). Session 33 tried less
#: slack because with 2.5 the bracket of a 32K row holds ~2180 candidates (~272 of the 4096 sampled keys, times 8),
#: more than the select's 2048-key chunk, so every search step of the longest rows reloads a second chunk (CPU
#: estimate; ~1890 at 1.5). ``sgl10_bench.py`` ``pickx<0|1>g<G>`` (µs v2 / page table, 2.5 with the pivot late ->):
#: 1.5 21.9 / 22.3 -> 22.0 / 22.6 (twice, with the pivot early; 22.0 / 22.6 late), 2.0 21.5 / 22.1 (one round, not
#: repeated). The stamps at 1.5: the select's median 10180 -> 9988 cycles, its max 15877 -> 14062, the row's max 42848
#: -> 43932 (session 32's stamps at 2.5). No gain: 2.5 stays.
WARP_FEW_LARGE_GUESS = 2.5
#: About one row per SM of 16K+ columns writes its sure columns and packed candidates to regions per warp
#: (``warp_regions``: no block-wide scan or barrier in the stream loop; the regions copied to the output and to one list
#: before the select). Session 35 (``sgl10_bench.py`` ``pickwrs`` / ``pickwrsp``, µs v2 / page table, two rounds at
#: 128x32K): 128x32K 21.8 / 22.4 -> 21.8 / 21.2, 21.9 / 22.3 -> 21.9 / 21.3; 150x32K 35.7 / 36.7 -> 35.9 / 35.8;
#: WARP_FEW_LONG[_PAGE] with packed candidates too (they had lost alone, above): 128x128K 57.2 / 59.0 -> 48.4 / 51.0.
#: Not the many-row configs: 4096x8K 147.0 / 153.6 -> 162.0 / 173.4 (with packed candidates); 512x32K 71.0 / 71.5 ->
#: 68.1 / 72.0 (one round, not taken).
WARP_FEW_REGIONS = True
#: About one row per SM of 16K+ columns samples its bracket in runs of 16 columns loaded as vectors (session 36,
#: ``sgl10_bench.py`` ``pickrun16vec``, after the regions per warp; µs v2 / page table, runs of 8 as single values ->):
#: 128x32K 21.4 / 21.2 -> 20.7 / 20.1, 21.6 / 21.0 -> 20.7 / 20.0 (runs of 16 alone 21.1 / 20.5, 21.0 / 20.5; of 32
#: 21.6 / 20.9; 8192 keys in runs of 16 21.7 / 21.2; runs of 16 two tiles ahead without vectors 20.4 / 21.2);
#: 150x32K 35.5 / 35.5 -> 34.5 / 34.6; 128x24K 19.7 / 19.2 -> 19.1 / 18.6; bf16 128x32K 21.7 / 21.1 -> 20.7 / 20.5;
#: 128x32K k = 512 21.5 / 20.7 -> 20.8 / 20.0; WARP_FEW_LONG 128x128K 48.0 / 50.3 -> 45.6 / 47.7, 128x64K 32.1 / 34.1
#: -> 31.5 / 33.4.
WARP_FEW_SAMPLE = dict(sample_run=16, sample_vec=True)
#: ... and float32 rows of WARP_FEW_LARGE without the page table stream two tiles ahead (``pickrun16ah2vec``, µs v2):
#: 128x32K 20.7 -> 20.1 (twice), 150x32K 34.5 -> 33.9, 128x24K 19.1 -> 18.8, k = 512 20.8 -> 20.5. Not 16-bit rows
#: (bf16 128x32K 20.7 -> 21.1) nor the page table's stream, whose tiles two ahead double the registers in flight
#: (20.1 -> 20.7).
WARP_FEW_LARGE_AHEAD_F32 = 2
WARP_FEW_LARGE_16 = replace(WARP_FEW, sample=WARP_FEW_LARGE_SAMPLE, cblock=2048, guess=WARP_FEW_LARGE_GUESS,
                            pack_cands=WARP_FEW_LARGE_PACK, warp_regions=WARP_FEW_REGIONS,
                            **WARP_FEW_LARGE_SELECT, **WARP_FEW_SAMPLE)
WARP_FEW_LARGE = replace(WARP_FEW_LARGE_16, ahead=WARP_FEW_LARGE_AHEAD_F32)
#: Its page table streamed beside the scores (session 28, ``pickps`` / ``pickpsah1``, µs, v2 22.1): 128x32K 24.5 ->
#: 23.8 (twice), 23.2 with one tile ahead (the late pass's two measured slower without it, session 25).
WARP_FEW_LARGE_PAGE = replace(WARP_FEW_PAGE, sample=WARP_FEW_LARGE_SAMPLE, cblock=2048, guess=WARP_FEW_LARGE_GUESS,
                              pack_cands=WARP_FEW_LARGE_PACK, late=False, page_stream=True,
                              warp_regions=WARP_FEW_REGIONS, **WARP_FEW_LARGE_SELECT, **WARP_FEW_SAMPLE)
WARP_FEW_LARGE_N = (16384, 32768)
#: 2-12 rows per SM of at least WARP_MID_LARGE_N columns, v2 and ragged: a 4096-key bracket sample and the select by
#: interpolation (session 19 call 9, two rounds, µs): 512x128K 243.0 / 242.2 -> 236.9 / 236.9, 1024x64K 226.8 / 227.4
#: -> 223.4 / 224.6, 256x128K 135.1 -> 134.0. The page table keeps WARP_MID_PAGE (256x128K 141.0 -> 142.7 with it).
#: Session 50 (``sgl10_bench.py`` ``picklf<F>``, an H100, µs v2 / page table): these rows past one program per SM
#: taken longest first, 512x128K 148.8 / 161.9 -> 138.3 / 152.0, 1024x64K 175.8 / 188.7 -> 169.6 / 183.9 (the order
#: kernel as the row kernel's programmatic primary; 2 or 3 programs per SM in index order no better, every row
#: ordered with the order serialized 2.6-5% slower; 4096x8K and 2048x8K no gain: WARP_MANY_SMALL keeps index order).
WARP_MID_LARGE_ORDER = dict(longest_first=True, first_wave=1)
WARP_MID_LARGE = replace(WARP_MID, sample=4096, sbits=WARP_SELECT_SECANT, **WARP_MID_LARGE_ORDER)
WARP_MID_LARGE_N = 65536
#: After the lean float32 classify (session 21, ``sgl10_bench.py``, one round, µs), on rows of at least
#: WARP_MID_LARGE_N columns: more than 6 rows per SM cap WARP_MID_LARGE at 80 registers (3 programs per SM, not 2;
#: 1024x64K 210.5 -> 199.7; 512x128K, 3.9 rows per SM, 200.6 -> 211.1 keeps it uncapped) and give the page table the
#: same 8-warp program (WARP_MID_PAGE with the 4096-key sample, capped: 223.5 -> 215.6; uncapped 232.6, WARP_MANY_PAGE
#: capped 231.9); about one row per SM selects by interpolation (128x128K 74.3 -> 72.9; session 19, before the lean
#: classify, measured 84.5 -> 84.9) over candidate chunks of 4096, not 1024, also with the page table (calls 8-10,
#: two rounds, µs v2 / page: 128x128K 72.7 / 75.9 -> 67.3 / 69.3 (chunks of 2048: 70.4 / 73.6, 8192: 69.8 / 71.9),
#: 128x64K 47.0 / 50.2 -> 43.2 / 45.4, 64x128K 71.5 / 74.5 -> 60.8 / 62.8; 128x32K (WARP_FEW_LARGE) no gain).
WARP_MID_LARGE_MANY = replace(WARP_MID_LARGE, maxnreg=80)
#: (Its late pass keeps blocks of ``block``: all k at once measured even, session 23, 1024x64K page 214.2 -> 214.6,
#: and session 28, 193.7 -> 193.5.) Session 28 (``pickps``): the table streamed beside the scores, 1024x64K page
#: 193.7 -> 189.9 (v2 183.5), although the table's window is read whole where the gathers touched ~30% of its sectors.
WARP_MID_LARGE_PAGE_MANY = replace(WARP_MID_PAGE, sample=4096, maxnreg=80, late_kb=0, **WARP_MID_LARGE_ORDER)
#: 2-6 rows per SM of at least WARP_MID_LARGE_N columns with the page table: the 4096-key sample (session 28,
#: ``pickrun8x4096``, µs page table, v2 in brackets): 512x128K 200.2 -> 189.9 and 201.0 -> 190.6 (183.0), 256x128K
#: 109.9 -> 104.1 (98.8), 300x64K 92.6 -> 83.7 (74.9); session 19 had measured it slower (256x128K 141.0 -> 142.7).
WARP_MID_LARGE_PAGE = replace(WARP_MID_PAGE, sample=4096, **WARP_MID_LARGE_ORDER)
#: 2-12 rows per SM of (WARP_NARROW_BRACKET_MAX_N, WARP_MID_LARGE_N) columns past a first wave longest first too
#: (session 51, ``sgl10_bench.py`` ``picklf<F>``, an H100, two rounds, µs v2 / page table): one program per SM in
#: index order, 512x32K 71.5 / 73.8, 71.5 / 73.4 -> 64.0 / 69.9, 63.7 / 69.8; 300x16K 35.5 / 37.5, 35.8 / 37.4 ->
#: 31.0 / 33.0, 30.9 / 33.0; 1024x32K v2 116.1, 115.9 -> 108.9, 108.3; 1024x16K v2 81.1 -> 75.7. The page table's
#: 6-12 rows per SM (4 warps) do better after three programs per SM: 1024x32K 126.9, 126.9 -> 124.3, 124.2 (one) and
#: 120.1, 119.9 (three); 1024x16K 84.5 -> 82.2 (one) and 78.5 (three). 8K rows: WARP_MID_NARROW_LF and after.
WARP_MID_LF = replace(WARP_MID, longest_first=True, first_wave=1)
WARP_MID_PAGE_LF = replace(WARP_MID_PAGE, longest_first=True, first_wave=1)
WARP_MID_PAGE_MANY_LF = replace(WARP_MID_PAGE_MANY, longest_first=True, first_wave=3)
#: Session 22 (``sgl10_bench.py`` ``pickg<S>``, two rounds, µs v2 / page table): the bracket guessed from the sample's
#: moments first (``WarpConfig.guess``, slack 2.5 / 1.5 square roots of the rank) on about one row per SM:
#: 128x32K (WARP_FEW_LARGE) 29.4 / 31.6 -> 27.7 / 29.8 / 28.2 / 30.3; 128x64K (WARP_FEW_LONG) 42.9 / 45.4 -> 39.5 /
#: 42.1 / 40.6 / 43.5; 128x128K 66.6 / 69.4 -> 69.3 / 71.7 / 64.5 / 66.3. More rows per SM lose (slack 2.5, µs v2):
#: 4096x8K 152.2 -> 172.0, 1024x64K 199.5 -> 204.3, 512x128K 200.3 -> 214.3: the bisection's chain hides behind other
#: rows there, and the guess's wider bracket costs more than its steps save.
WARP_FEW_LONG = replace(WARP_FEW, sbits=WARP_SELECT_SECANT, cblock=4096, guess=1.5, pack_cands=WARP_FEW_REGIONS,
                        warp_regions=WARP_FEW_REGIONS, **WARP_FEW_SAMPLE)
#: WARP_FEW_LONG_PAGE applies the page table as its select emits, the sure columns' entries gathered after their copy
#: and held through the select (``defer_sure``), the first candidate chunk's before its search (``page_early``), not
#: in a late pass over the k slots. Session 37 (``sgl10_bench.py`` ``pickdsp``, µs page table, the same kernel with the
#: identity transform in brackets): 128x128K 48.8 -> 48.3 (46.3), 128x64K 34.1 -> 33.9 (31.9); without the early
#: gathers (``pickds``) 50.0 and 35.3.
WARP_FEW_LONG_PAGE = replace(WARP_FEW_PAGE, cblock=4096, guess=1.5, pack_cands=WARP_FEW_REGIONS,
                             warp_regions=WARP_FEW_REGIONS, late=False, defer_sure=True, page_early=True,
                             **WARP_FEW_SAMPLE)
#: Rows of at most WARP_NARROW_BRACKET_MAX_N columns bracket on the top 12 key bits, not 16, whatever the config
#: (session 18, ``sgl10_bench.py`` ``pb<B>``, µs none / page): 4096x8K 187.6 / 209.9 -> 181.5 / 203.3 (11 and 13 bits
#: within 0.5), 2048x8K 100.5 / 112.8 -> 98.2 / 109.8, 1024x8K 56.7 / 64.7 -> 54.3 / 61.1, 1x8K 12.0 / 13.0 -> 11.2 /
#: 12.2; longer rows lose (the wider bracket lets more candidates through): 4096x16K 264.0 / 297.7 -> 267.7 / 303.2,
#: 128x32K 31.8 -> 33.3, 512x128K 240.1 -> 247.4, 1024x64K 226.2 -> 233.1 (14 bits: even within 2%).
WARP_NARROW_BRACKET_MAX_N = 8192
WARP_NARROW_BRACKET_BITS = 12
#: (WARP_FEW_LARGE[_16|_PAGE] take rows of more than WARP_FEW_LARGE_N[0] > WARP_NARROW_BRACKET_MAX_N columns only.)
_NARROW_BRACKET = {c: replace(c, bracket_bits=WARP_NARROW_BRACKET_BITS, ahead=1) for c in (
    WARP_FEW, WARP_MID, WARP_MANY, WARP_FEW_PAGE, WARP_MID_PAGE, WARP_MANY_PAGE, WARP_MANY_SMALL, WARP_MANY_SMALL_PAGE)}
#: 8K rows (the narrow bracket) past a first wave longest first too, and many rows of more than WARP_MANY_SMALL_N
#: columns without the page table (session 52, ``sgl10_bench.py`` ``picklf<F>``, an H100, two rounds, the second with
#: the ordered pick timed first, µs v2 / page table): 1024x8K 51.3 / 55.3, 51.4 / 55.6 -> 50.1 / 54.1, 50.2 / 54.4
#: after three programs per SM (one: 51.5 / 56.9); 512x8K v2 31.1, 31.2 -> 30.0, 30.1 after one (three: 31.0, 31.1),
#: its page table 32.5, 32.6 -> 33.3, 33.4 (kept in index order); 2048x32K (WARP_MANY) v2 193.3, 193.4 -> 184.2, 185.8
#: after six programs per SM (one: 189.0), its page table 216.9, 219.8 -> 222.7, 225.4 (kept). Not taken: 4096x16K
#: (WARP_MANY_SMALL) after six, v2 217.9, 218.2 -> 215.8, 217.4, page table 246.1, 249.6 -> 252.5, 255.8. WARP_MANY_LF
#: through the shipped picks on longer rows (``picknolf`` -> ``pick``): 2048x64K v2 321.9, 317.3 -> 297.2, 294.8;
#: 4096x32K 352.0, 349.4 -> 344.2, 342.6.
WARP_MID_NARROW_LF = replace(_NARROW_BRACKET[WARP_MID], longest_first=True, first_wave=1)
WARP_MID_NARROW_MANY_LF = replace(_NARROW_BRACKET[WARP_MID], longest_first=True, first_wave=3)
WARP_MID_PAGE_MANY_NARROW_LF = replace(_NARROW_BRACKET[WARP_MID_PAGE_MANY], longest_first=True, first_wave=3)
WARP_MANY_LF = replace(WARP_MANY, longest_first=True, first_wave=6)
#: Every key at or above the bracket's low bound a packed candidate (``all_cands``; session 32, ``sgl10_bench.py``
#: ``pickallc`` / ``pickqa`` / ``pickqac<C>``, µs v2 / page table, shipped -> all_cands; the stream's SASS per key drops
#: by a third (fp32 128x32K 51.4 -> 33.5), the select ranks k more candidates). Where it pays:
#: - float32 rows of 2-12 per SM of at least WARP_MID_LARGE_N columns (and WARP_ALL_CANDS_MIN_RATIO x k) with chunks
#:   of 2048 (two rounds where two are given): 512x128K v2 184.8 -> 159.3, 183.1 -> 161.8 and page table (2-6 rows per
#:   SM) 188.4 -> 183.0, 187.8 -> 185.6; 256x128K 97.7 / 102.4 -> 86.7 / 99.2; 1024x64K v2 183.9 -> 171.0, 182.4 ->
#:   176.9. Its page table at 6-12 rows per SM lost with the table streamed (1024x64K 190.0 -> 192.7, 189.1 -> 201.3)
#:   and gains applied as the select emits (below); chunks of 1024 (the
#:   configs' own) lose (512x128K 177.3, 1024x64K 188.3). Shorter rows (WARP_MID) took it in the session's committed
#:   run and lost there: 512x32K v2 / ragged 74.5 / 73.8 against 70.7-72.3 / 68.8-69.3 in the five runs before (256x32K
#:   had gained, 42.3 -> 40.1, its page table lost, 40.4 -> 42.7), so they keep their config.
#: - about one row per SM of long rows (WARP_FEW_LONG[_PAGE]) for 16-bit rows (chunks of 8192) and k <= 1024 (chunks
#:   of 4096): 128x128K bf16 60.7 / 62.7 -> 53.2 / 55.1 (chunks of 4096: 55.2 / 57.4), k = 512 56.9 / 57.3 -> 49.6 /
#:   50.6 (8192: 54.2 / 55.2). Not float32 at k = 2048 (128x128K 57.3 -> 59.7 / 62.3 with 4096, 57.2 / 59.4 with 8192;
#:   128x64K gained, 35.6 -> 33.6, twice, not taken on one cell).
#: - Not many rows per SM of short rows, where a third of the row is sure (4096x8K 150.7 -> 246.0, 2048x8K 82.2 ->
#:   139.3), nor 128x32K (22.2 -> 23.8, 26.0 with the search over the whole key range).
WARP_ALL_CANDS_MIN_RATIO = 16
WARP_ALL_CANDS_MID_CBLOCK = 2048
#: With all_cands a streamed page table (the page configs of 2-12 rows per SM; 6-12 take all_cands since session 34)
#: is applied as the select emits each slot, the entries of its first candidate chunk gathered before its search
#: (``page_early``): neither the table's whole window beside the scores nor a pass over the k slots after the select
#: (session 33 had it go ``late``: 512x128K 184.8 -> 167.8-168.7, 256x128K 98.8 -> 89.3, 300x64K 91.8 -> 85.2).
#: Session 34 (``sgl10_bench.py``, µs page table, two rounds where two are given, v2 in brackets): 512x128K late
#: 168.3 / 169.2 -> ``pickemitp`` 163.6 / 163.1 (161.9 / 162.1; emission without the early gathers, ``pickemit``,
#: 167.3 / 167.8); 256x128K 89.4 / 89.7 -> 87.6 / 88.0 (86.7 / 86.0); 300x64K 85.5 -> 81.4 (82.4); 1024x64K streamed
#: without all_cands 189.8 / 189.1 -> ``pickemitap`` 180.6 / 179.4 (176.1 / 177.0; all_cands emitting without the
#: early gathers 188.1; v2's pick emitting, ``pickve``, 187.7).
#: With all_cands, 2-6 rows per SM stream two tiles ahead for every transform (session 25 had measured it slower
#: on the identity transform, before all_cands; session 34, ``pickah2`` and ``pickpc``, the page config on the
#: identity transform, which differs from v2's only in it, µs v2): 512x128K 161.9 / 162.1 -> 158.7 / 158.9 and 158.4
#: / 159.2 (session 33's ``pickpc`` 157.9, its committed run 159.1 against 161.6); 256x128K 86.7 -> 84.3 (session 33
#: 86.8 -> 85.1); 300x64K 82.4 -> 80.0. Not 6-12 rows per SM (1024x64K 176.1 / 177.0 -> 177.5 / 178.1).
WARP_ALL_CANDS_MID_AHEAD = 2
#: Every all_cands pick appends its candidates to a scratch region per warp (``warp_regions``: in-warp scans, no
#: barrier in the stream loop; the regions copied to one list before the select). Session 35 (``sgl10_bench.py``
#: ``pickwr``, µs v2 / page table, two rounds where two are given): 512x128K 158.1 / 162.4 -> 139.5 / 148.7, 159.1 /
#: 163.1 -> 139.3 / 148.2; 1024x64K 175.9 / 179.2 -> 165.8 / 173.9; 256x128K 84.9 / 87.0 -> 75.3 / 79.5; bf16
#: 128x128K 53.2 / 55.2 -> 42.9 / 47.5; 128x128K k = 512 49.4 / 50.6 -> 43.0 / 44.0. Forced on the other one-row-per-SM
#: picks with all_cands (``pickwra`` against ``pickwrax``): 128x32K 24.3 / 23.9 -> 22.7 / 22.9 (the pick: 21.8 /
#: 22.4), 128x128K 61.5 / 63.4 -> 55.8 / 59.3 (the pick: 56.8 / 58.7): not taken there.
WARP_ALL_CANDS_REGIONS = True
#: ... but not where a row is short for its k (session 53, ``sgl10_bench.py`` ``pickdsrp``, an H100, two rounds, µs v2
#: / page table, all_cands -> without it: the candidates packed in a region per warp, two tiles ahead, and the page
#: table's sure entries gathered after their copy and held through the select, ``defer_sure``, the candidates' as the
#: select emits, their first chunk's early). The select's k extra candidates cost as much as the lighter stream saves
#: when the row is short for its k: n < 48 k takes the regions config. n / k = 32: 300x64K 73.7 / 77.3, 73.9 / 77.5 ->
#: 63.0 / 70.3, 62.7 / 70.1; 512x64K 97.0 / 105.3, 97.2 / 105.1 -> 89.7 / 101.4, 90.0 / 101.6; 700x64K 136.4 / 147.1,
#: 136.1 / 147.1 -> 112.9 / 140.2, 112.8 / 139.8; 800x64K 143.2 / 151.5, 142.8 / 151.5 -> 128.8 / 147.8, 128.3 / 147.9;
#: 1024x64K 169.8 / 184.2, 169.9 / 183.9 -> 151.7 / 179.3, 151.7 / 180.1; 1500x64K 238.9 / 260.9, 239.0 / 260.5 ->
#: 221.0 / 257.1, 220.8 / 257.0; k = 4096: 512x128K 167.9 / 185.8, 167.4 / 185.7 -> 158.5 / 180.0, 158.3 / 180.5,
#: 1024x128K 298.2 / 336.6, 298.1 / 336.7 -> 265.4 / 337.4, 265.5 / 337.5. n / k = 48 (96K), even: 512x96K 118.5 /
#: 129.8, 118.7 / 130.0 -> 120.5 / 134.1, 120.2 / 134.1; 1024x96K 209.2 / 230.3, 209.2 / 229.8 -> 203.2 / 235.9, 203.1
#: / 236.5. n / k = 64, all_cands faster: 512x128K 138.6 / 152.4, 138.6 / 151.8 -> 144.6 / 156.3 (defer_sure without
#: the early gathers), 145.4 / 159.4, 144.9 / 159.7; 256x128K 81.8 / 87.9, 81.9 / 88.7 -> 87.9 / 92.5, 87.8 / 92.4;
#: 700x128K page 211.8, 211.6 -> 222.4, 222.5 (v2 193.9, 192.7 -> 184.6, 184.7); 1024x128K 252.3 / 275.2, 251.1 / 275.0
#: -> 252.0 / 286.9, 251.1 / 286.2; 512x64K k = 1024 78.5 / 84.9, 78.7 / 84.8 -> 85.6 / 92.1, 86.0 / 92.4; 1024x64K k =
#: 1024 137.5 / 149.1, 137.4 / 149.1 -> 147.5 / 162.0, 148.3 / 162.3; k = 512 (n / k = 128) 134.8 / 140.2, 135.2 / 139.7
#: -> 148.5 / 155.3, 149.5 / 156.5.
WARP_ALL_CANDS_MID_MIN_RATIO = 48
WARP_REGIONS_MID_AHEAD = 2
#: 16-bit rows (never all_cands here) take the same regions config where n <= 64 k (session 53, ``sgl10_bench.py``
#: ``pickreg16``, an H100, two rounds, bfloat16, µs v2 / page table, the config before -> regions): 300x64K 75.3 / 77.6,
#: 75.2 / 78.1 -> 65.3 / 71.4, 65.2 / 71.3; 700x64K 145.2 / 151.6, 145.3 / 151.7 -> 125.7 / 140.7, 125.7 / 140.7;
#: 1024x64K 183.9 / 190.4, 183.6 / 190.4 -> 156.1 / 172.8, 157.1 / 172.5; 512x128K 176.4 / 183.6, 176.3 / 183.8 ->
#: 149.4 / 162.6, 149.4 / 163.1. Longer rows for their k (n > 64 k) were not measured.
WARP_REGIONS_16_MAX_RATIO = 64


def mid_regions_config(config: WarpConfig, cblock: int) -> WarpConfig:
    """A 2-12-rows-per-SM config of rows short for their k without ``all_cands`` (session 53, above): candidates in
    regions per warp, chunks of ``cblock``; the page table's sure entries held through the select (``defer_sure``),
    the candidates' applied as it emits, their first chunk's gathered early; the other transforms two tiles ahead
    (the page configs already are)."""
    regions = dict(cblock=cblock, pack_cands=True, warp_regions=True)
    if config.page_stream:
        return replace(config, page_stream=False, late=False, page_early=True, defer_sure=True, **regions)
    return replace(config, ahead=WARP_REGIONS_MID_AHEAD, **regions)


def all_cands_config(config: WarpConfig, n: int, k: int, elem_bytes: int) -> WarpConfig:
    """``config`` with ``all_cands`` (and ``warp_regions``) where sessions 32, 34 and 35 measured it faster (above),
    else ``config``; a streamed page table is then applied as the select emits each slot, its first chunk's entries
    gathered early, and a deferred one (``defer_sure``) goes back to the late pass. The 2-12-rows-per-SM configs' rows
    under ``WARP_ALL_CANDS_MID_MIN_RATIO`` k take ``mid_regions_config`` instead, and so do their 16-bit rows up to
    ``WARP_REGIONS_16_MAX_RATIO`` k (session 53)."""
    mid = config in (WARP_MID_LARGE, WARP_MID_LARGE_MANY, WARP_MID_LARGE_PAGE, WARP_MID_LARGE_PAGE_MANY)
    if mid and elem_bytes == 2 and n <= WARP_REGIONS_16_MAX_RATIO * k:
        return mid_regions_config(config, max(config.cblock, WARP_ALL_CANDS_MID_CBLOCK))
    if mid and elem_bytes == 4 and n >= WARP_ALL_CANDS_MIN_RATIO * k:
        cblock = max(config.cblock, WARP_ALL_CANDS_MID_CBLOCK)
        if n < WARP_ALL_CANDS_MID_MIN_RATIO * k:
            return mid_regions_config(config, cblock)
    elif config in (WARP_FEW_LONG, WARP_FEW_LONG_PAGE) and (elem_bytes == 2 or k <= 1024):
        cblock = 4096 if k <= 1024 else 8192
    else:
        return config
    if config.defer_sure:  # no sure regions to defer: the late pass
        page = dict(defer_sure=False, late=True, page_early=False)
    elif config.page_stream:
        page = dict(page_stream=False, late=False, page_early=True)
    else:
        page = {}
    ahead = dict(ahead=WARP_ALL_CANDS_MID_AHEAD) if config == WARP_MID_LARGE else {}
    return replace(config, all_cands=True, pack_cands=True, cblock=cblock, warp_regions=WARP_ALL_CANDS_REGIONS, **page,
                   **ahead)


@dataclass(frozen=True)
class ResidentConfig:
    """The resident path (``resident.py``): one program of ``warps`` per row holding the whole window in registers
    (the row rounded up to a power of two: at most ``RESIDENT_MAX_KEYS_PER_THREAD`` keys per thread)."""

    warps: int = 8
    sbits: int = 1  # key bits per bisection step (2: half the steps, three counts per key each)
    reread: bool = False  # the slots placed from a second read of the row (fewer registers: 32 warps fit)
    secant: bool = False  # the k-th key by interpolation (resident._kth_key_secant), not bisection
    guess: bool = False  # with secant: its first two probes from the row's moments (session 22; shipped in 23)
    # With secant: where the search ends with exactly k keys at or above its bound, the slots from one scan of them
    # (no block-wide count of the keys above it first; session 25, prepared; timed and shipped on RESIDENT in 26).
    one_scan: bool = False


#: Keys per thread the resident path holds at most (registers: the keys, their columns and the scan's fields).
RESIDENT_MAX_KEYS_PER_THREAD = 32


#: The resident path (session 18, ``sgl10_bench.py`` ``r8``, µs none / page table, k = 2048), one program of 8 warps
#: per row for at most RESIDENT_MAX_ROWS_PER_SM x SMs rows of RESIDENT_N (lo, hi] columns, every dtype: float32
#: 1x8K 11.2 / 12.1 (warp path, 8 warps, 12-bit bracket) -> 10.4 / 10.7, 8x8K 12.1 / 13.0 -> 11.6 / 12.0, 32x8K
#: 13.3 / 14.2 -> 12.6 / 13.0, 64x8K 14.3 / 15.2 -> 13.8 / 14.1, 128x8K 16.5 / 16.9 (16 warps) -> 14.3 / 14.7;
#: bfloat16 1x8K 18.0 / 19.3 (two-launch path) -> 10.1 / 10.5, 128x8K 23.0 / 24.2 -> 12.3 / 12.6; float16 1x8K
#: 19.4 / 20.7 -> 9.8 / 10.1. More rows lose (one program per SM at ~214 registers): 200x8K 19.0 -> 24.0,
#: 256x8K 19.8 -> 25.1, 1024x8K 54.2 -> 88.3. Two bits per bisection step: no gain (1x8K 10.3, 128x8K 14.4). 16
#: warps on 1x16K: 18.0 (not compared); 32 warps on 32K rows spill (8x32K 44.6 against 22.6). Shorter rows (call 11,
#: against the two-launch path they took before): 1x5K 19.6 / 20.9 -> 9.8 / 9.9, 1x7K 19.5 / 20.7 -> 10.0 / 10.3,
#: 64x6K 22.4 / 23.6 -> 12.9 / 13.1, 128x5K bf16 21.0 / 22.7 -> 11.6 / 11.4.
#: Session 19 (``r8sec``, two rounds, µs none / page table): the k-th key by interpolation on float32 rows, 1x8K
#: 10.3 / 10.6 -> 9.6 / 10.0, 8x8K 11.6 / 11.9 -> 10.9 / 11.5, 64x8K 13.7 / 14.0 -> 12.9 / 13.7, 128x8K 14.4 / 14.7
#: -> 13.5 / 14.2, 1x5K 9.8 / 9.8 -> 8.9 / 9.2; 16-bit rows keep bisection (16 steps at most): bf16 1x8K 9.6 / 9.9
#: -> 9.4 / 10.1, on the keys instead of the values 10.8 / 11.4. The row's loads issued before its length is known
#: (no row_starts) were slower: 1x8K 10.3 -> 10.9, with interpolation 9.6 -> 10.0.
#: Session 23 (``r8secg`` / ``r16secg``): the first two probes from the row's moments (``ResidentConfig.guess``), on
#: every dtype, µs none / page table: 1x8K 9.6 / 10.1 -> 8.4 / 9.0, 8x8K 11.0 / 11.7 -> 9.9 / 10.6, 128x8K 13.5 /
#: 14.4 -> 13.4 / 14.1, 1x5K 8.9 / 9.3 -> 8.0 / 8.5; 16-bit rows (bisection before) bf16 1x8K 9.6 / 9.9 -> 7.6 / 7.9,
#: fp16 9.2 / 9.5 -> 7.7 / 8.0. float32 rows of 8K-16K columns on 16 warps (RESIDENT_WIDE; the two-launch path
#: before): 1x16K 15.7 / 17.2 -> 13.9 / 13.8, 1x12K 15.9 / 17.2 -> 14.0 / 13.7, 32x16K 18.9 / 20.6 -> 18.5 / 18.2,
#: 128x16K 20.3 / 21.5 -> 20.2 / 20.1, 8x16K 16.0 / 17.6 -> 16.5 / 16.2. float32 rows of RESIDENT_N on 16 warps
#: (half the keys per thread, now that the search is no longer the cost): 1x8K 8.5 / 9.2 -> 7.8 / 8.0, 8x8K 9.9 /
#: 10.6 -> 9.6 / 9.8, 64x8K 12.9 / 13.6 -> 11.5 / 11.7, 1x5K 8.0 / 8.7 -> 7.5 / 7.8; bf16 1x8K 7.7 -> 7.9 (8 kept).
#: Session 26 (``pickos``, one round, µs none / page table): float32 8K rows place their slots by one scan where the
#: search ends on exactly k keys (``one_scan``): 1x8K 7.8 / 8.0 -> 7.5 / 7.8 (twice), 8x8K 9.6 / 9.7 -> 9.4 / 9.5,
#: 128x8K 12.0 / 12.1 -> 11.8 / 11.8, 1x5K 7.5 / 7.7 -> 7.3 / 7.5. RESIDENT_WIDE and 16-bit rows: not timed, not taken.
RESIDENT = ResidentConfig(16, secant=True, guess=True, one_scan=True)
RESIDENT_16 = ResidentConfig(8, secant=True, guess=True)
RESIDENT_N = (4096, 8192)
#: float32 rows of (RESIDENT_N[1], RESIDENT_WIDE_MAX_N] columns, at most RESIDENT_MAX_ROWS_PER_SM per SM: 16 warps.
RESIDENT_WIDE = ResidentConfig(16, secant=True, guess=True)
RESIDENT_WIDE_MAX_N = 16384
RESIDENT_MAX_ROWS_PER_SM = 1.0
#: Where the warp path is the default (else the two-launch path): k <= WARP_MAX_K, N >= WARP_MIN_N and
#: N >= WARP_MIN_RATIO x k, and rows >= WARP_MIN_ROWS_PER_SM x SMs (fewer rows of N <= RESIDENT_N[1] are
#: resident). Other k: not timed. 16-bit rows since session 31 (before: the two-launch path), on float32's configs;
#: below 16 warps with half the 16-byte runs per tile (``a``), so that a tile holds as many keys (with float32's ``a``
#: ptxas took 166-187 registers or spilled 80-192 bytes; with half, 80-108 and at most 8 bytes; 16 warps keep theirs:
#: 126-128 registers, at most 16 bytes of spills, one program per SM either way). ``sgl10_bench.py`` ``pick16w``
#: (``a`` halved everywhere), one round, µs v2 / page table, bf16 two-launch -> warp: 128x128K 83.5 / 91.3 -> 61.6 /
#: 64.6, 512x128K 252.2 / 267.3 -> 197.5 / 204.3, 4096x8K 292.8 / 306.7 -> 162.2 / 161.1, 1024x64K 251.3 / 274.3 ->
#: 197.9 / 206.2, 128x32K 35.5 / 37.5 -> 23.1 / 22.7; fp16 128x128K 89.7 / 97.3 -> 61.9 / 64.4. Then 16 warps with
#: float32's ``a`` (``pick16a2``): bf16 128x128K 61.7 / 64.6 -> 60.6 / 62.7 (twice: 61.6 / 64.4 -> 60.6 / 62.5),
#: 128x32K 23.1 / 22.8 -> 22.5 / 22.5; fp16 128x128K 61.7 / 64.4 -> 60.9 / 62.7.
WARP_MIN_ROWS_PER_SM = 0.9
WARP_MAX_K = 4096
WARP_MIN_RATIO = 4
WARP_MIN_N = 8192
#: ... and its candidate scratch (rows x cap keys and columns) within this many bytes.
WARP_MAX_SCRATCH = 1 << 30


def resident_config(elem_bytes: int) -> ResidentConfig:
    """The resident path's shipped config for rows of ``elem_bytes``-byte logits."""
    return RESIDENT if elem_bytes == 4 else RESIDENT_16


def resident_row(n: int) -> int:
    """Columns a resident program covers for rows of ``n`` columns (a power of two, >= 512)."""
    return max(512, 1 << max(n - 1, 0).bit_length())


def resident_constexprs(config: ResidentConfig, n: int, key_bits: int, transform: int, has_starts: bool) -> dict:
    """``resident_kernel``'s compile-time arguments (also built by the sm_90 compile test)."""
    th = 32 * config.warps
    v = 128 // key_bits
    row = resident_row(n)
    if row % (v * th) or row // th > RESIDENT_MAX_KEYS_PER_THREAD:
        raise ValueError(f"config: {config.warps} warps cannot hold rows of {n} columns "
                         f"(1 to {RESIDENT_MAX_KEYS_PER_THREAD} keys per thread in 16-byte runs)")
    if config.sbits not in (1, 2):
        raise ValueError(f"config: sbits must be 1 or 2, got {config}")
    return dict(KEY_BITS=key_bits, A=row // (v * th), V=v, TH=th, BLOCK=min(1024, th * 4), TRANSFORM=transform,
                HAS_STARTS=has_starts, **({"SB": 2} if config.sbits == 2 else {}),
                **({"REREAD": True} if config.reread else {}), **({"SECANT": True} if config.secant else {}),
                **({"GUESS": True} if config.secant and config.guess else {}),
                **({"ONE_SCAN": True} if config.secant and config.one_scan and not config.reread else {}), SU=1)


def all_k_block(warps: int, k: int) -> int:
    """A block that takes all k slots at once (one dependent round trip per row) up to 16 per thread of ``warps``, so
    that its registers stay bounded. At 4096x8K it measured no faster than blocks of ``block`` slots (230.5 against
    229.2 µs, session 11 call 2), so the many-row configs keep those."""
    return min(1 << max(k - 1, 0).bit_length(), 16 * 32 * warps)


def _defer_sure(config: WarpConfig, transform: int, k: int) -> dict:
    """``defer_sure``'s constexprs where it applies (the page table applied as the select emits): DS, and DSK the
    slots whose entries are held through the select (all k up to 4 a thread)."""
    if not (config.defer_sure and transform == 1 and not config.late and not config.page_stream):
        return {}
    return dict(DS=True, DSK=min(all_k_block(config.warps, k), 4 * 32 * config.warps))


def warp_constexprs(config: WarpConfig, key_bits: int, transform: int, has_starts: bool, k: int,
                    order: int = 0) -> dict:
    """``warp_kernel``'s compile-time arguments (also built by the sm_90 compile test). ``order``: its ORDER
    (``row_order.ordered_row``; ``row_order.launch_order`` gives it)."""
    late = config.late and transform == 1
    kb = 0
    if late:
        kb = all_k_block(config.warps, k) if config.late_kb == LATE_ALL_K else config.late_kb or config.block
    # The newer flags are always given: a build from explicit constants (ASTSource) binds no defaults.
    return dict(KEY_BITS=key_bits, A=config.a, V=128 // key_bits, TH=32 * config.warps, SAMPLE=config.sample,
                CBLOCK=config.cblock, BLOCK=config.block, TRANSFORM=transform, HAS_STARTS=has_starts,
                BISECT=config.bisect, LATE=late, LATE_KB=kb, SB=config.sbits,
                BB=config.bbits, **({"LAZY": True} if late and config.lazy else {}),
                BPB=config.bracket_bits, GUESS=float(config.guess), **({"AHEAD": 2} if config.ahead == 2 else {}),
                SRUN=config.sample_run, SVEC=config.sample_vec, PACK=config.pack_cands, ALLC=config.all_cands,
                EMIT_DONE=config.emit_done, X0E=config.early_pivot, PE=config.page_early,
                K0=config.first_chunk_regs, WR=config.warp_regions, **_defer_sure(config, transform, k),
                PSTREAM=config.page_stream and transform == 1,
                **({"HEAD": True} if has_starts and config.aligned_windows
                   and not (config.page_stream and transform == 1) else {}), SU=1,
                ORDER=order)
