"""Dev only (H200): the sgl_fused warp path (``warp.py``) beside the current default, issue 6 cells.

Each (cell, variant, transform) runs through ``topk_core.sgl`` (``fast_topk_v2`` / the page-table
function), is checked exact against the reference on every rotating input, then timed like
``topk bench`` (CUDA-graph replay over rotating inputs). Variant "old" is the default
before the warp path (``launch.WARP = False``); the others force a ``WarpConfig``.
Kernels are compiled first in parallel worker processes (the Triton disk cache then serves most).
Variant names: a key of ``V`` ("w8", ..) plus suffixes (session 11): "s4" / "s2" (4 / 2 bits per step of
the candidate select and of the bracket), "sel4" (select only), "br4" (bracket only), "late" (page table
at the end, one block of all k = 2048 slots: ``launch.late_block``), "lateold" (session 10's late pass:
blocks of ``block`` slots, ``launch``'s default since session 11);
"lazy" (session 13: the late pass's page-table request found after the stream, so that it holds no registers
across the loop; ``WarpConfig.lazy``; "pf", session 16's page-table prefetch into L2, measured slower and removed
after commit b839370),
"oldbis" (session 16: the two-launch path with its select by bisection; suffixes "sw8" / "cb2048" set the
select's warps / candidate chunk; "oldearly" the filter's first tile loaded before its bracket; session 19:
"oldsec" its select by interpolation, and "w<W>sec.." the warp path's ("w<W>brsec..", its bracket by
interpolation, and "w<W>secbrsec..", both, were measured slower in session 20 and removed; so was "pickpdl", the
two-launch path's select as a programmatic dependent launch; "pickbb" / "pickbb12" the picks with the two-launch
filter's bracket by bisection on 16 / 12 key bits); "pick" the launch's own choice (warp,
resident or two-launch) and "picksec" the same with its candidate select by interpolation; "pickg<S>" (session 22)
the picks with the bracket guessed from the sample's moments first, slack S / 10 (default 25; "pickg0": never
guessed, the bisection as before session 22); "pickfat" (session 21,
the picks before the lean float32 classify, removed with its flag after commit 2780fed),
"m80" (a register cap: ``maxnreg=80``, 6 programs of 4 warps / 3 of 8 per SM);
late variants run with the page table only. "old" is prepended to each cell unless it lists "noold".
"x<S>" a bracket sample of S keys, "a<A>" (session 21, last) tiles of A 16-byte runs per thread,
"c<C>" candidate chunks of C, "pb<B>" the bracket on B prefix bits (session 17;
"g<S>" (session 22, last; also on "old..") the bracket guessed first with slack S / 10;
"oldx<S>" the two-launch path's sample). E.g. ``w4lateoldlazym80``: 4 warps, session 10's late pass, lazy request,
80 registers; ``w4x1024pb12``: 4 warps, 1024 sampled keys, the bracket on 12 prefix bits.
"r<W>" (session 18): the resident path (``resident.py``, the row in registers) on W warps; "r<W>b2" two key bits
per bisection step; "r<W>rr" the slots placed from a second read of the row; "r<W>sec" (session 19) the k-th key
by interpolation (``_kth_key_secant``; "r<W>secearly", the row's loads issued before its length is known, was
measured slower in session 19 and removed); "r<W>secg" (session 22) its first two probes from the row's moments.
"pickkb" (session 23) the picks with their page-table pass over all k slots in one block (warp configs with
``late``: ``late_kb``; two-launch configs: ``page_kb``), "pickks" the same with the two-launch select's sure
columns also copied in one block (``sure_kb``; both shipped since), "pickkb0" the picks with both in blocks of
``block`` (as before session 23); "pickke", the sure columns' page entries gathered during the
candidate select, was measured no faster than "pick" in session 23 and removed. "pickch<C>[w<W>][m<M>]" (session
24) the picks with the two-launch filter's chunks of C columns (C <= 8192: one tile each; default 4 warps below 8192,
else 8), on W warps, its register cap M (0: none; default SplitConfig's 128); a suffix "s<S>" ("picks160",
"pickch2048s160") caps the two-launch select's registers at S (``SplitConfig.select_maxnreg``). E.g.
"pickch8192w16": 2 runs per thread, no spills (the shipped 8192 x 8 warps spills 48 bytes at 128 registers). A suffix
"pf" (session 25, removed after: the page entries of the sure and candidate columns prefetched to L2 by inline
``prefetch.global.L2``) measured no faster anywhere and slower on many rows (NOTES.md, session 25).
"pickkb<KB>" (session 28) the warp picks' late page pass in blocks of KB slots; "picknolate" the warp picks with
the page table applied as each slot is written (page table only); "pickps[ah1]" the warp picks with the page-table
row streamed beside the scores (``WarpConfig.page_stream``) [one tile ahead], and the two-launch picks' too
(``SplitConfig.page_stream``); "pickpssplit" the two-launch picks' alone ("pickpg", the filter gathering the kept
keys' entries instead, was measured slower and removed after commit 34bb1e7). "pickpsab" (session 29, prepared) as
"pickpssplit" with the filter's page tile loaded after its bracket (``SplitConfig.page_after_bracket``); "picknops"
(session 29, prepared) the picks without the page stream (the late pass each config falls back to). "picknoaw"
(session 30) the picks with row_starts windows streamed from their unaligned starts (``aligned_windows=False``);
"picknosu" without the row stride's unit (``launch.stride_unit``); "pickold30" without either (as before session 30).
"pickah2" / "pickah1" (session 25) the picks with the warp path's stream two tiles / one tile ahead
(``WarpConfig.ahead``; the page-table configs of 2-12 rows per SM and WARP_FEW_LARGE_PAGE ship 2). "pickos"
(session 25, prepared) the picks with the float32 resident path's one-scan placement (``ResidentConfig.one_scan``).
"pickrun<R>[ah2][x<S>][c<C>][sec][vec]" (session 26) the picks with the warp path's bracket sample in runs of R
adjacent columns (``WarpConfig.sample_run``), optionally two tiles ahead, S sampled keys, candidate chunks of C and
the select by interpolation; "picksrun<R>" the two-launch filter's sample in runs of R.
"pickvec" / "pickvecoff" (session 27) the picks with the bracket sample's runs loaded as vectors (``sample_vec``, warp
and two-launch paths) / as single values ("pickdefer", the page entries of the sure columns stored a tile after their
gather, was measured slower and removed after commit e41a4e2); "pickpack" the warp path's candidates as one 64-bit
scratch word each (``WarpConfig.pack_cands``). "pickallc[c<C>][sec]" (session 32) the warp picks with every key
above the bracket's low bound a packed candidate (``WarpConfig.all_cands``), candidate chunks of C, the select by
interpolation; "pickq[s2][e][a][l][c<C>]" the warp picks [whose select bisects one bit a step: two a step, the
three counts packed into one reduction] [``emit_done``] [``all_cands``] [the page table over the k slots at the end,
not streamed] [candidate chunks of C]; "pickvl[b]" (session 33) the page table on the identity transform's warp
pick with the late pass over all k slots [in blocks of ``block``] ("pickvps": with the table streamed);
"pickve" (session 34) the same applied as the select emits each slot; "pickemit[a][p][c<C>]" (session 34)
the page-table warp picks with the table applied as the select emits each slot (no late pass, no stream) [with
all_cands] [the first candidate chunk's entries gathered before the select's search: ``page_early``] [chunks of C];
"pickw<W>[a<A>][m<M>][allc]" (session 35) the 16-warp warp picks on W warps [A 16-byte runs a tile] [a
register cap] [with all_cands and the page table's early gathers].
"pickwrs[p]" (session 35) the packed picks without all_cands with regions per warp for their sure columns and
candidates (``warp_regions``) [every bisection pick given pack_cands].
"pickwr[a][x]" (session 35) the all_cands warp picks with a candidate region per warp (``warp_regions``) [every
bisection pick forced to all_cands first] [without the regions].
"pickds[p][s]" (session 37) the late-pass page-table picks with regions on ``defer_sure`` [with ``page_early``] [the
streamed ones too].
"pickold53" (session 53) the picks of 0.27.5 (all_cands on every 2-12-per-SM float32 row of 64K+ columns);
"pickold54" the picks before sgl_fused 0.27.7 (its 16-bit rows without regions; session 53's regions_16bit.patch);
"pickreg16" (session 53) 0.27.6's regions configs on 16-bit rows of 2-12 per SM of 64K+ columns;
"pickdsr[p]" (session 53) the all_cands page-table picks without all_cands, regions and ``defer_sure`` [with
``page_early``]; "none" runs the same config. "pickpsr[ah1]" (session 37) the all_cands page-table picks without
all_cands, the table streamed into the regions per warp (identity transform: the same config unstreamed) [one tile
ahead].
"picklf<F>[s]" (session 39) the warp picks with the rows past a first wave of F programs per SM taken longest first
(``WarpConfig.longest_first``) [the order kernel serialized, not the row kernel's programmatic primary]; "picknolf"
(session 51) the warp picks in index order (as before sessions 50-51 where they ship it).
"pickold36" (session 36) the one-row-per-SM picks as before session 36 (sample runs of 8 single values, one tile
ahead). "pickcopy" / "picknope" (session 36, removed after: the page table's all_cands picks gathering every candidate's
entry as the regions are copied to the list / at emission only) measured slower / even (NOTES.md, session 36).
"pickk0[a|off]" (session 34, prepared) the warp picks' select emitting its first candidate chunk from the
registers of its first load (``first_chunk_regs``) [with all_cands] [session 35: every pick without it];
"pickx<0|1>[g<G>]" the warp picks with the bracket guess's pivot loaded beside the sample
(``WarpConfig.early_pivot``) off / on [WARP_FEW_LARGE[_PAGE]'s guess slack G / 10]; "pickpc" every transform on the
page table's pick (the page-table kernel with the identity transform: issue 6's 5% bound on the same kernel).
"pick16w" / "pick16s" / "pick16sh" (session 31) timed 16-bit rows on float32's warp picks (half the 16-byte runs per
tile) and two-launch picks (with / without the select by interpolation), "pick16a2" the 16-warp ones with float32's
runs per tile; shipped, then removed (NOTES.md, session 31).
A cell label "k<K>" after N ("1x128Kk512") times that k; one ending in "bf16" / "fp16" ("1x8Kbf16") times 16-bit
logits; one ending in "rs" ("16x128Krs", after
the dtype) windows at runtime starts of 1-3 columns in a buffer of N + 4 (``row_starts``: unaligned scores; session 29).
Usage: [SGL_PLAN="cell:variant,..;.."] python3 shared/device/sgl10_bench.py [budget_seconds]
"""

import json
import multiprocessing as mp
import os
import re
import sys
import time
from dataclasses import dataclass, replace

import torch

from topk_core.bench.candidates import SglTransform, make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.run import _check
from topk_core.bench.timing import rotations, time_graph
from topk_core.kernels import toolchain
from topk_sgl_fused import launch
from topk_sgl_fused.launch import WarpConfig as W

K = 1024
SGLANG = {"1x8K": 7.9, "8x32K": 22.4, "32x128K": 62.8, "128x32K": 25.6, "128x128K": 87.3, "512x128K": 278.3,
          "4096x8K": 268.5, "1024x64K": 259.4}
V = {
    "w1r80": W(1, 2, 512, 256, 256, maxnreg=80), "w2": W(2, 2, 1024, 512, 256),
    "w2late": W(2, 2, 1024, 512, 256, late=True), "w4": W(4, 2, 2048, 512, 512), "w8": W(8, 2, 2048, 1024, 1024),
    "w8late": W(8, 2, 2048, 1024, 1024, late=True), "w16": W(16, 2, 4096, 1024, 1024),
    "w4late": W(4, 2, 2048, 512, 512, late=True), "w16late": W(16, 2, 4096, 1024, 1024, late=True),
    "w32": W(32, 2, 4096, 1024, 1024),
}
PLAN = [  # (cell, variants): most important first; a spent budget cuts the tail
    (Shape(4096, 8 * K), ["w2", "w4", "w1r80", "w2late"]),
    (Shape(1024, 64 * K), ["w4", "w8", "w2"]),
    (Shape(512, 128 * K), ["w8", "w4", "w16", "w8late"]),
    (Shape(128, 128 * K), ["w16", "w8"]),
    (Shape(128, 32 * K), ["w8", "w4", "w16"]),
    (Shape(32, 128 * K), ["w16"]),
    (Shape(8, 32 * K), ["w16"]),
    (Shape(1, 8 * K), ["w16"]),
]


def variant(name):
    """The ``WarpConfig`` of a variant name (see the module docstring); "r<W>" the resident path on W warps."""
    m = re.fullmatch(r"r(\d+)(?:b(\d))?(rr)?(sec)?(g)?", name)
    if m:
        return launch.ResidentConfig(int(m.group(1)), int(m.group(2) or 1), bool(m.group(3)), bool(m.group(4)),
                                     guess=bool(m.group(5)))
    m = re.fullmatch(r"(w\d+(?:r80)?)((?:s2|s4|sel2|sel4|br2|br4|secbrsec|brsec|sec)?)(late|lateold)?(lazy)?(?:m(\d+))?"
                     r"(?:x(\d+))?(?:c(\d+))?(?:pb(\d+))?(?:a(\d+))?(?:g(\d+))?", name)
    if not m:
        raise KeyError(name)
    cfg = V[m.group(1)]
    bits = {"": {}, "s2": dict(sbits=2, bbits=2), "s4": dict(sbits=4, bbits=4), "sel2": dict(sbits=2),
            "sel4": dict(sbits=4), "br2": dict(bbits=2), "br4": dict(bbits=4), "sec": dict(sbits=0)}[m.group(2)]
    late = {None: {}, "late": dict(late=True, late_kb=launch.late_block(cfg, 2048)),
            "lateold": dict(late=True, late_kb=cfg.block)}[m.group(3)]
    extra = dict(lazy=True) if m.group(4) else {}
    if m.group(5):
        extra["maxnreg"] = int(m.group(5))
    if m.group(6):
        extra["sample"] = int(m.group(6))
    if m.group(7):
        extra["cblock"] = int(m.group(7))
    if m.group(8):
        extra["bracket_bits"] = int(m.group(8))
    if m.group(9):
        extra["a"] = int(m.group(9))
    if m.group(10):
        extra["guess"] = int(m.group(10)) / 10
    return replace(cfg, **bits, **late, **extra)


def page_only(name):
    return "late" in name


@dataclass(frozen=True)
class WindowedShape(Shape):
    """A cell whose rows are windows of a wider buffer at runtime starts of 1-3 columns (``row_starts``): the
    scores are not 16-byte aligned, as in SGLang's shared score buffers (session 29: scalar loads, more registers).
    The buffer has N + ``pad`` columns ("rs": 4 for fp32, 8 for 16-bit rows; "rs16": 16, a stride of 16 columns)."""

    pad: int = 4

    @property
    def label(self) -> str:
        return super().label + f" rs{self.pad}"


def _inputs(shape, device="cuda"):
    """The cell's rotating inputs and, for a WindowedShape, the wide buffers and starts its calls read (the inputs'
    logits are then the windows' contents, which the checks compare against)."""
    inputs = make_inputs(shape, rotations(shape.nbytes), device)
    if not isinstance(shape, WindowedShape):
        return inputs, None
    g = torch.Generator(device=device).manual_seed(29)
    starts = torch.randint(1, 4, (shape.rows,), generator=g, device=device, dtype=torch.int32)
    cols = starts[:, None].long() + torch.arange(shape.n, device=device)[None, :]
    wide = []
    for x in inputs.logits:  # a stride of N + pad: 16 bytes' multiple, not 16 columns' with pad 4 (fp32) / 8
        w = torch.randn(shape.rows, shape.n + shape.pad, generator=g, device=device).to(x.dtype)
        wide.append(w.scatter(1, cols, x))
    return inputs, (wide, starts)


def _prepare(shape, transform, inputs, windows):
    """sgl_fused's ``SglTransform`` (for a WindowedShape with ``row_starts``; results are window columns either way)."""
    return SglTransform("sgl_fused", transform, windows).prepare(shape, inputs)


if os.environ.get("SGL_PLAN"):  # e.g. SGL_PLAN="128x32K:w16,w16late;1x8K:w16": cells and variants in this order
    PLAN = []
    for part in os.environ["SGL_PLAN"].split(";"):
        label, names = part.split(":")
        rows, n = label.split("x")
        m = re.search(r"rs(16)?$", n)  # "16x128Krs": windows at runtime starts (WindowedShape); "rs16" pad 16
        windowed = m is not None
        n = n[:m.start()] if windowed else n
        dtype = {"bf16": "bfloat16", "fp16": "float16"}.get(n[-4:], "float32")  # "1x8Kbf16": a 16-bit cell
        n = n[:-4] if dtype != "float32" else n
        n, _, k = n.partition("k")  # "1x128Kk512": k = 512 (session 31)
        shape = Shape(int(rows), int(n.rstrip("K")) * K, k=int(k or 2048), dtype=dtype)
        if windowed:
            pad = 16 if m.group(1) else 4 if dtype == "float32" else 8
            shape = WindowedShape(shape.rows, shape.n, k=shape.k, dtype=dtype, pad=pad)
        PLAN.append((shape, names.split(",")))
PLAN = [(shape, names if "noold" in names else ["old"] + names) for shape, names in PLAN]
PLAN = [(shape, [n for n in names if n != "noold"]) for shape, names in PLAN]


def _warm(job):
    """Compile one (shape, variant, transform) in a worker by running it on the same rotating inputs the
    timing uses (session 11: the main process rebuilt most kernels after a warm-up on one input; this rules
    out any argument specialization that differs between the two). Returns (error or None, cache dir)."""
    shape, name, transform = job
    try:
        _setup(name)
        inputs, windows = _inputs(shape)
        prep = _prepare(shape, transform, inputs, windows)
        for i in range(len(inputs.logits)):
            prep.step(i)
        torch.cuda.synchronize()
        return None, os.environ.get("TRITON_CACHE_DIR")
    except Exception as exc:
        return f"{shape.label} {name} {transform}: {type(exc).__name__}: {str(exc)[:300]}", None


ORIG_SPLIT = launch.pick_split
ORIG_WARP = launch.pick_warp
ORIG_UNIT = launch.stride_unit


def _sec(config):
    """A pick with its candidate select by interpolation (warp configs, and split configs that bisect)."""
    if isinstance(config, launch.WarpConfig) or (isinstance(config, launch.SplitConfig) and config.bisect):
        return replace(config, sbits=0)
    return config


def _guess(config, slack):
    """A pick with its bracket guessed first (warp and split configs; the resident path has no bracket)."""
    if isinstance(config, (launch.WarpConfig, launch.SplitConfig)):
        return replace(config, guess=slack)
    return config


def _one_page_block(config, k, sure=False, old=False):
    """A pick with its page-table pass over all k slots at once (``launch.late_block``; session 23); ``sure``:
    two-launch configs also copy the sure columns in one such block; ``old``: both in blocks of ``block`` (as
    before session 23)."""
    if isinstance(config, launch.WarpConfig) and config.late:
        return replace(config, late_kb=0 if old else launch.late_block(config, k))
    if isinstance(config, launch.SplitConfig):
        kb = 0 if old else launch.late_block(config, k)
        return replace(config, page_kb=kb, sure_kb=kb if sure or old else 0)
    return config


def _warp_picks_with(**change):
    """``pick_warp`` with ``change`` applied to the warp configs it picks (resident and None picks as they are)."""
    return lambda *a: replace(c, **change) if isinstance(c := ORIG_WARP(*a), launch.WarpConfig) else c


def _allc_cblock(config):
    """The candidate chunk of the variants that force all_cands: 4096 on 16 warps, else at least 2048."""
    return max(config.cblock, 4096 if config.warps >= 16 else 2048)


def _without_all_cands(change):
    """``pick_warp`` with the all_cands page-table picks (2-12 rows per SM) turned into packed candidates in regions
    per warp without all_cands, plus ``change(transform)``; every transform runs the page pick's config, so the
    identity transform times issue 6's same kernel ("pickpsr", "pickdsr")."""
    def pick(rows, n, k, sm, transform="none", elem_bytes=4):
        c = ORIG_WARP(rows, n, k, sm, "page_table", elem_bytes)
        if not (isinstance(c, launch.WarpConfig) and c.all_cands and c.page_early):
            return ORIG_WARP(rows, n, k, sm, transform, elem_bytes)
        return replace(c, all_cands=False, first_chunk_regs=False, pack_cands=True, warp_regions=True, late=False,
                       **change(transform))
    return pick


def _setup(name):
    launch.pick_split = ORIG_SPLIT
    launch.pick_warp = ORIG_WARP
    launch.stride_unit = ORIG_UNIT
    if name == "pickos":  # session 25 (prepared): the resident path's one-scan placement where the search ends on k
        launch.WARP = True
        launch.pick_warp = lambda *a: (
            replace(c, one_scan=True) if isinstance(c := ORIG_WARP(*a), launch.ResidentConfig) and c.secant else c)
        return
    m = re.fullmatch(r"pickrun(\d+)(ah2)?(?:x(\d+))?(?:c(\d+))?(sec)?(vec)?", name)
    if m:  # session 26: the warp path's bracket sample in runs of R adjacent columns [two tiles ahead] [S keys]
        # [candidate chunks of C] [the select by interpolation] [session 27: the runs loaded as vectors]
        launch.WARP = True
        extra = dict(sample_run=int(m.group(1)), **({"ahead": 2} if m.group(2) else {}),
                     **({"sample": int(m.group(3))} if m.group(3) else {}),
                     **({"cblock": int(m.group(4))} if m.group(4) else {}), **({"sbits": 0} if m.group(5) else {}),
                     **({"sample_vec": True} if m.group(6) else {}))
        launch.pick_warp = _warp_picks_with(**extra)
        return
    m = re.fullmatch(r"picksrun(\d+)", name)
    if m:  # session 26: the two-launch filter's bracket sample in runs of R adjacent columns (warp picks as shipped)
        launch.WARP = True
        run = int(m.group(1))
        launch.pick_split = lambda *a, r=run: replace(ORIG_SPLIT(*a), sample_run=r)
        return
    if name == "pickpack":  # session 27: each warp-path candidate one 64-bit scratch word (bisect configs only)
        launch.WARP = True
        launch.pick_warp = lambda *a: (replace(c, pack_cands=True) if isinstance(c := ORIG_WARP(*a), launch.WarpConfig)
                                       and c.bisect else c)
        return
    m = re.fullmatch(r"pickq(s2)?(e)?(a)?(l)?(?:c(\d+))?", name)
    m_allc = re.fullmatch(r"pickallc(?:c(\d+))?(sec)?", name)
    if m or m_allc:  # session 32: the warp picks [whose select bisects one bit a step: two bits a step, packed
        # counts] [emit a search that ended on exactly the keys needed without counting the keys above] [all_cands]
        # [prepared, not timed: the page table's configs over the k slots at the end instead of streamed] [chunks of
        # C]; "pickallc[c<C>][sec]" = all_cands with chunks of C (default 4096 on 16 warps, else at least 2048) [the
        # select by interpolation]
        launch.WARP = True
        s2, emit, allc, late, chunks, sec = (*m.groups(), None) if m else (None, None, "a", None, *m_allc.groups())

        def q(*a):
            c = ORIG_WARP(*a)
            if not (isinstance(c, launch.WarpConfig) and c.bisect):
                return c
            cb = int(chunks) if chunks else (_allc_cblock(c) if m_allc else None)
            ch = dict(**({"sbits": 2} if s2 and c.sbits == 1 else {}), **({"sbits": 0} if sec else {}),
                      **({"emit_done": True} if emit else {}),
                      **({"all_cands": True, "pack_cands": True} if allc else {}),
                      **({"late": True, "page_stream": False, "late_kb": launch.LATE_ALL_K}
                         if late and c.page_stream else {}),
                      **({"cblock": cb} if cb else {}))
            return replace(c, **ch)
        launch.pick_warp = q
        return
    if name == "pickpc":  # session 32 (prepared, not timed): every transform on the page table's pick, so that v2
        # and ragged time the page-table calls' own kernel with the identity transform (issue 6's 5% bound)
        launch.WARP = True

        def pc(rows, n, k, sm, transform="none", elem_bytes=4):
            return ORIG_WARP(rows, n, k, sm, "page_table", elem_bytes)
        launch.pick_warp = pc
        return
    m = re.fullmatch(r"pickx([01])(?:g(\d+))?", name)
    if m:  # session 33: the warp picks with the bracket guess's pivot loaded beside the sample (``early_pivot``) on /
        # off [guess slack G / 10 on WARP_FEW_LARGE[_PAGE]]
        launch.WARP = True
        on = m.group(1) == "1"
        g = int(m.group(2)) / 10 if m.group(2) else None
        few_large = {replace(w, guess=0) for w in (launch.WARP_FEW_LARGE, launch.WARP_FEW_LARGE_PAGE)}
        launch.pick_warp = lambda *a, on=on, g=g: (
            replace(c, early_pivot=on, **({"guess": g} if g and replace(c, guess=0) in few_large else {}))
            if isinstance(c := ORIG_WARP(*a), launch.WarpConfig) else c)
        return
    m = re.fullmatch(r"pickemit(a)?(p)?(?:c(\d+))?", name)
    if m:  # session 34: the warp picks' page table applied as the select emits each slot (no late pass over the k
        # slots, no stream of the table) [with all_cands, chunks as "pickallc"] [the first chunk's entries gathered
        # before the select's search: ``page_early``] [candidate chunks of C]
        launch.WARP = True
        allc, early, chunks = m.group(1) is not None, m.group(2) is not None, m.group(3)

        def em(rows, n, k, sm, transform="none", elem_bytes=4):
            c = ORIG_WARP(rows, n, k, sm, transform, elem_bytes)
            if transform != "page_table" or not isinstance(c, launch.WarpConfig):
                return c
            ch = dict(late=False, page_stream=False)
            if allc and not c.all_cands and c.bisect:
                ch.update(all_cands=True, pack_cands=True, cblock=_allc_cblock(c))
            if early and c.bisect:
                ch["page_early"] = True
            if chunks:
                ch["cblock"] = int(chunks)
            return replace(c, **ch)
        launch.pick_warp = em
        return
    m = re.fullmatch(r"pickw(\d+)(?:a(\d+))?(?:m(\d+))?(allc)?", name)
    if m:  # session 35: the ~one-row-per-SM warp picks (16 warps) on W warps [A runs a tile] [a register cap of M]
        # [with all_cands, chunks as "pickallc"]
        launch.WARP = True
        w, a, cap, allc = int(m.group(1)), m.group(2), m.group(3), m.group(4) is not None

        def wide(*args):
            c = ORIG_WARP(*args)
            if not (isinstance(c, launch.WarpConfig) and c.warps == 16):
                return c
            ch = dict(warps=w, **({"a": int(a)} if a else {}), **({"maxnreg": int(cap)} if cap else {}))
            if allc and c.bisect and not c.all_cands:
                ch.update(all_cands=True, pack_cands=True, late=False, page_stream=False, page_early=True,
                          cblock=_allc_cblock(c))
            return replace(c, **ch)
        launch.pick_warp = wide
        return
    m = re.fullmatch(r"pickwrs(p)?", name)
    if m:  # session 35: the packed-candidate warp picks without all_cands with regions per warp for their sure columns
        # and candidates (``warp_regions``) ["p": every bisection pick given pack_cands first]
        launch.WARP = True
        pack = m.group(1) is not None

        def wrs(*a):
            c = ORIG_WARP(*a)
            if not (isinstance(c, launch.WarpConfig) and c.bisect) or c.all_cands:
                return c
            if pack:
                c = replace(c, pack_cands=True)
            return replace(c, warp_regions=c.pack_cands)
        launch.pick_warp = wrs
        return
    m = re.fullmatch(r"pickwr(a)?(x)?", name)
    if m:  # session 35: the all_cands warp picks with a candidate region per warp (``warp_regions``) ["a": every
        # bisection warp pick forced to all_cands (chunks as "pickallc"; the page table applied as the select emits,
        # its first chunk's entries gathered early)] ["x": without the regions, the baseline of "a"]
        launch.WARP = True
        force, regions = m.group(1) is not None, m.group(2) is None

        def wr(*a):
            c = ORIG_WARP(*a)
            if not (isinstance(c, launch.WarpConfig) and c.bisect):
                return c
            if force and not c.all_cands:
                c = replace(c, all_cands=True, pack_cands=True, cblock=_allc_cblock(c), late=False, page_stream=False,
                            page_early=True)
            return replace(c, warp_regions=regions and c.all_cands)
        launch.pick_warp = wr
        return
    m = re.fullmatch(r"pickds(p)?(s)?", name)
    if m:  # session 37: the page-table warp picks with regions and the late pass take defer_sure (the sure columns'
        # entries gathered after their copy, held through the select; the candidates' applied as the select emits)
        # [their first chunk's entries gathered before the search] [the streamed picks too, unstreamed]
        launch.WARP = True
        early, streamed = m.group(1) is not None, m.group(2) is not None

        def ds(rows, n, k, sm, transform="none", elem_bytes=4):
            c = ORIG_WARP(rows, n, k, sm, transform, elem_bytes)
            if (transform != "page_table" or not isinstance(c, launch.WarpConfig) or not c.warp_regions
                    or c.all_cands or not (c.late or (streamed and c.page_stream))):
                return c
            return replace(c, late=False, page_stream=False, defer_sure=True, page_early=early)
        launch.pick_warp = ds
        return
    m = re.fullmatch(r"pickpsr(ah1)?", name)
    if m:  # session 37: the all_cands page-table picks (2-12 rows per SM) without all_cands, with the table streamed
        # beside the scores into the regions per warp [one tile ahead]; the identity transform ("none") runs the same
        # config without the stream, so the pair is issue 6's same-kernel comparison
        launch.WARP = True
        ah1 = {"ahead": 1} if m.group(1) else {}
        launch.pick_warp = _without_all_cands(lambda t: dict(page_early=False, page_stream=t == "page_table", **ah1))
        return
    if name in ("pickold53", "pickold54"):  # session 53: the picks before 0.27.6 (all_cands on every 2-12-per-SM
        # float32 row of 64K+ columns) / before 0.27.7 (16-bit rows without regions)
        launch.WARP = True
        from topk_sgl_fused import warp_configs
        ratio = "WARP_ALL_CANDS_MID_MIN_RATIO" if name == "pickold53" else "WARP_REGIONS_16_MAX_RATIO"

        def old(*a):
            saved = getattr(warp_configs, ratio)
            setattr(warp_configs, ratio, 0)
            try:
                return ORIG_WARP(*a)
            finally:
                setattr(warp_configs, ratio, saved)
        launch.pick_warp = old
        return
    if name == "pickreg16":  # session 53: 0.27.6's regions configs (mid_regions_config) on 16-bit rows of 2-12 per SM
        launch.WARP = True

        def reg16(rows, n, k, sm, transform="none", elem_bytes=4):
            c = ORIG_WARP(rows, n, k, sm, transform, elem_bytes)
            if (elem_bytes != 2 or not isinstance(c, launch.WarpConfig) or c.warps != 8 or c.all_cands
                    or n < launch.WARP_MID_LARGE_N or not c.longest_first):
                return c
            return launch.mid_regions_config(c, launch.WARP_ALL_CANDS_MID_CBLOCK)
        launch.pick_warp = reg16
        return
    m = re.fullmatch(r"pickdsr(p)?", name)
    if m:  # session 53: the all_cands page-table picks (2-12 rows per SM) without all_cands, with regions per warp,
        # the sure columns' entries gathered after their copy and held through the select (``defer_sure``), the
        # candidates' as the select emits [their first chunk's before the search]; the identity transform ("none")
        # runs the same config (it ignores defer_sure), so the pair is issue 6's same-kernel comparison
        launch.WARP = True
        early = m.group(1) is not None
        launch.pick_warp = _without_all_cands(lambda t: dict(page_early=early, page_stream=False, defer_sure=True))
        return
    if name == "picknolf":  # session 51: the warp picks in index order
        launch.WARP = True
        launch.pick_warp = lambda *a: (replace(c, longest_first=False, first_wave=0)
                                       if isinstance(c := ORIG_WARP(*a), launch.WarpConfig) else c)
        return
    m = re.fullmatch(r"picklf(\d+)(s)?", name)
    if m:  # session 39: the warp picks with the rows past the first wave taken longest first (``longest_first``),
        # F programs per SM in index order [the order kernel serialized before the row kernel, not its PDL primary]
        launch.WARP = True
        first, serial = int(m.group(1)), m.group(2) is not None

        def lf(*a):
            c = ORIG_WARP(*a)
            if not isinstance(c, launch.WarpConfig):
                return c
            return replace(c, longest_first=True, first_wave=first, order_pdl=not serial)
        launch.pick_warp = lf
        return
    if name == "pickold36":  # session 36: the one-row-per-SM picks as before session 36 (the bracket sample in runs
        # of 8 single values, one tile ahead)
        launch.WARP = True
        launch.pick_warp = lambda *a: (
            replace(c, sample_run=8, sample_vec=False, ahead=1)
            if isinstance(c := ORIG_WARP(*a), launch.WarpConfig) and c.warps == 16 and c.sample_run == 16 else c)
        return
    m = re.fullmatch(r"pickk0(a|off)?", name)
    if m:  # session 34 (prepared): the warp picks' select emits its first candidate chunk from the registers of its
        # first load (``first_chunk_regs``) [with all_cands, chunks as "pickallc"] ["off": session 35, without it]
        launch.WARP = True
        allc = m.group(1) == "a"

        def k0(*a):
            c = ORIG_WARP(*a)
            if not (isinstance(c, launch.WarpConfig) and c.bisect):
                return c
            ch = dict(first_chunk_regs=m.group(1) != "off")
            if allc and not c.all_cands:
                ch.update(all_cands=True, pack_cands=True, cblock=_allc_cblock(c))
            return replace(c, **ch)
        launch.pick_warp = k0
        return
    m = re.fullmatch(r"pickv(l|lb|ps|e)", name)
    if m:  # session 33: the page table on the identity transform's pick with the late pass over all k slots at the
        # end [in blocks of ``block``] / with the table streamed beside the scores ("pickvps") / (session 34) applied
        # as the select emits each slot ("pickve")
        launch.WARP = True
        page = (dict(late=False, page_stream=True) if m.group(1) == "ps" else
                dict(late=False, page_stream=False) if m.group(1) == "e" else
                dict(late=True, page_stream=False, late_kb=0 if m.group(1) == "lb" else launch.LATE_ALL_K))

        def vl(rows, n, k, sm, transform="none", elem_bytes=4):
            c = ORIG_WARP(rows, n, k, sm, "none", elem_bytes)
            if transform == "page_table" and isinstance(c, launch.WarpConfig):
                c = replace(c, **page)
            return c
        launch.pick_warp = vl
        return
    if name in ("pickvec", "pickvecoff"):  # session 27: the sample's runs loaded as vectors (both paths) / as single
        # values (as before session 27; the two-launch path ships vectors)
        launch.WARP = True
        on = name == "pickvec"
        launch.pick_warp = _warp_picks_with(sample_vec=on)
        launch.pick_split = lambda *a, on=on: replace(ORIG_SPLIT(*a), sample_vec=on and ORIG_SPLIT(*a).sample_run > 1)
        return
    m = re.fullmatch(r"pickkb([1-9][0-9]*)", name)
    if m:  # session 28: the warp picks' late page-table pass in blocks of KB slots
        launch.WARP = True
        kb = int(m.group(1))
        launch.pick_warp = lambda *a, kb=kb: (
            replace(c, late_kb=kb) if isinstance(c := ORIG_WARP(*a), launch.WarpConfig) and c.late else c)
        return
    m = re.fullmatch(r"pickps(ah1)?", name)
    if m:  # session 28: the warp picks' page table streamed beside the scores (``page_stream``) [one tile ahead]
        launch.WARP = True
        extra = dict(late=False, late_kb=0, page_stream=True, **({"ahead": 1} if m.group(1) else {}))
        launch.pick_warp = lambda *a, extra=extra: (
            replace(c, **extra) if isinstance(c := ORIG_WARP(*a), launch.WarpConfig) and c.late else c)
        launch.pick_split = lambda *a: replace(ORIG_SPLIT(*a), page_stream=True)
        return
    if name in ("pickpssplit", "pickpsab"):  # session 28: the two-launch picks' page table streamed (warp picks as
        # shipped); session 29 (prepared): "pickpsab" with the page tile loaded after the bracket
        launch.WARP = True
        extra = dict(page_stream=True, page_after_bracket=name == "pickpsab")
        launch.pick_split = lambda *a, extra=extra: replace(ORIG_SPLIT(*a), **extra)
        return
    if name == "picknops":  # session 29 (prepared): the picks without the page stream (their fallback late pass)
        launch.WARP = True
        launch.pick_warp = lambda *a: (
            replace(c, page_stream=False, late=True)
            if isinstance(c := ORIG_WARP(*a), launch.WarpConfig) and c.page_stream else c)
        launch.pick_split = lambda *a: replace(ORIG_SPLIT(*a), page_stream=False)
        return
    if name in ("picknosu", "pickold30"):  # session 30: row strides of 16 bytes' multiple but not 16 columns' taken
        # as they come (no ``stride_unit``: scalar loads); "pickold30" also without aligned windows (as before)
        launch.WARP = True
        launch.stride_unit = lambda logits: 1
        if name == "pickold30":
            launch.pick_warp = _warp_picks_with(aligned_windows=False)
            launch.pick_split = lambda *a: replace(ORIG_SPLIT(*a), aligned_windows=False)
        return
    if name == "picknoaw":  # session 30: the picks with windows streamed from their unaligned starts, as before
        launch.WARP = True
        launch.pick_warp = _warp_picks_with(aligned_windows=False)
        launch.pick_split = lambda *a: replace(ORIG_SPLIT(*a), aligned_windows=False)
        return
    if name == "picknolate":  # session 28: the warp picks' page table applied as each slot is written (no late pass)
        launch.WARP = True
        launch.pick_warp = lambda *a: (
            replace(c, late=False, late_kb=0) if isinstance(c := ORIG_WARP(*a), launch.WarpConfig) else c)
        return
    if name in ("pickah1", "pickah2"):  # session 25: the warp path's stream with 1 / 2 tiles in flight ahead
        launch.WARP = True
        launch.pick_warp = _warp_picks_with(ahead=int(name[-1]))
        return
    # the launch's own picks (session 19), or with _sec, or with a guessed bracket
    if name in ("pick", "picksec", "pickbb", "pickbb12", "pickkb", "pickks", "pickkb0") or name.startswith("pickg"):
        launch.WARP = True
        if name in ("pickkb", "pickks", "pickkb0"):
            o = name == "pickkb0"
            launch.pick_warp = lambda *a, o=o: _one_page_block(ORIG_WARP(*a), a[2], old=o)
            launch.pick_split = lambda *a, s=name == "pickks", o=o: _one_page_block(ORIG_SPLIT(*a), a[2], s, o)
        if name.startswith("pickg"):  # session 22: the bracket guessed first; "pickg15": slack 1.5 (default 2.5)
            g = int(name[5:] or 25) / 10
            launch.pick_warp = lambda *a, g=g: _guess(ORIG_WARP(*a), g)
            launch.pick_split = lambda *a, g=g: _guess(ORIG_SPLIT(*a), g)
        if name.startswith("pickbb"):  # session 20: the two-launch filter's bracket by bisection (16 / 12 bits)
            launch.pick_split = lambda *a, b=int(name[6:] or 16): replace(ORIG_SPLIT(*a), bracket_bits=b)
        if name == "picksec":
            launch.pick_warp = lambda *a: _sec(ORIG_WARP(*a))
            launch.pick_split = lambda *a: _sec(ORIG_SPLIT(*a))
        return
    m = re.fullmatch(r"pick(?:ch(\d+)(?:w(\d+))?(?:m(\d+))?)?(?:s(\d+))?(ps)?", name)
    if m:  # session 24: the two-launch filter's chunks of C columns (one tile each), W warps, register cap M (0: none);
        # "s<S>": the select's register cap
        extra = {}
        if m.group(1):
            c = int(m.group(1))
            w = int(m.group(2) or (8 if c == 8192 else 4))
            extra.update(chunk=c, warps=w, r=c // (256 * w))
        if m.group(3):
            extra["maxnreg"] = int(m.group(3)) or None
        if m.group(4):
            extra["select_maxnreg"] = int(m.group(4))
        if m.group(5):  # session 28: with the page table streamed
            extra["page_stream"] = True
        launch.WARP = True
        launch.pick_split = lambda *a, extra=extra: replace(ORIG_SPLIT(*a), **extra)
        return
    m = re.fullmatch(r"old(bis|sec)?(?:sw(\d+))?(?:cb(\d+))?(early)?(?:x(\d+))?(?:g(\d+))?", name)
    if m:
        launch.WARP = False
        extra = {None: {}, "bis": dict(bisect=True), "sec": dict(bisect=True, sbits=0)}[m.group(1)]
        if m.group(2):
            extra["select_warps"] = int(m.group(2))
        if m.group(3):
            extra["cblock"] = int(m.group(3))
        if m.group(4):
            extra["early"] = True
        if m.group(5):
            extra["sample"] = int(m.group(5))
        if m.group(6):
            extra["guess"] = int(m.group(6)) / 10
        launch.pick_split = lambda *a, extra=extra: replace(ORIG_SPLIT(*a), **extra)
    else:
        launch.WARP = True
        cfg = variant(name)
        launch.pick_warp = lambda *a, cfg=cfg: cfg


def main():
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 150.0
    t0 = time.time()
    for _, names in PLAN:  # fail fast on a misspelt variant
        [variant(n) for n in names if not n.startswith(("old", "pick"))]
    jobs = [(shape, name, t) for shape, names in PLAN for name in names for t in ("none", "page_table")
            if not (page_only(name) and t == "none")]
    toolchain.use_disk_cache()  # TRITON_CACHE_DIR set before the workers start, so all share one disk cache
    dirs = set()
    with mp.get_context("spawn").Pool(min(14, os.cpu_count() or 4)) as pool:
        for err, cache in pool.imap_unordered(_warm, jobs):
            if err:
                print("warm failed:", err, flush=True)
            dirs.add(cache)
    print(f"compiled {len(jobs)} in {time.time() - t0:.0f}s; worker cache dirs {sorted(map(str, dirs))}, "
          f"main {os.environ.get('TRITON_CACHE_DIR')}", flush=True)
    orig = launch.pick_warp
    results = []
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for shape, names in PLAN:
            if time.time() - t0 > budget:
                print("budget spent; stopping", flush=True)
                break
            torch.cuda.empty_cache()
            inputs, windows = _inputs(shape)
            count = len(inputs.logits)
            row = {}
            for name in names:
                for transform in ("page_table",) if page_only(name) else ("none", "page_table"):
                    _setup(name)
                    t1 = time.time()
                    built = set(toolchain.build_seconds)
                    try:
                        prep = _prepare(shape, transform, inputs, windows)
                        for i in range(count):
                            prep.step(i)
                        torch.cuda.synchronize()
                        _check(shape, inputs, prep, count, name)  # every rotating input, exact
                        us, note = time_graph(prep.step, count, 20), ""
                    except Exception as exc:
                        us, note = None, f"{type(exc).__name__}: {str(exc)[:300]}"
                    finally:
                        launch.pick_warp = orig
                        launch.pick_split = ORIG_SPLIT
                        launch.WARP = True
                    row[(name, transform)] = us
                    slow = [v for key, v in toolchain.build_seconds.items() if key not in built and v > 2.0]
                    if slow:  # a build the warm-up should have left on disk
                        note += f" [built in this process: {max(slow):.1f}s]"
                    print(f"{shape.label:>10} {name:>8} {transform:>10} {f'{us:.1f} us' if us else 'FAILED'} "
                          f"({time.time() - t1:.1f}s) {note}", flush=True)
                    results.append(dict(cell=shape.label, variant=name, transform=transform, us=us, note=note))
            sg = SGLANG.get(shape.label)
            best = min(((v, k) for k, v in row.items() if v and k[1] == "none" and not k[0].startswith("old")),
                   default=None)
            best_p = min(((v, k) for k, v in row.items() if v and k[1] != "none" and not k[0].startswith("old")),
                     default=None)
            print(f"== {shape.label}: old {row.get(('old', 'none'))} / {row.get(('old', 'page_table'))}; "
                  f"best warp (none) {best}; (page) {best_p}; target {f'{sg / 1.2:.1f}' if sg else '-'}", flush=True)
    out = os.environ.get("OUT")
    if out:
        with open(os.path.join(out, os.environ.get("SGL_JSON", "sgl10.json")), "w") as f:
            json.dump(results, f, indent=1)
    print(f"done in {time.time() - t0:.0f}s")
    for r in results:
        print("RESULT", r["cell"], r["variant"], r["transform"], r["us"])


if __name__ == "__main__":
    main()
