"""Dev: radix_filter's shipped variant per cell against its alternatives (now: ``old`` session 7's
kernel (no interp, no relsel, clusters of two), ``late`` the first tile loaded after the sample's
histogram, ``g2``/``g3`` other cluster sizes, ``g4t512``/``g4t512u4`` clusters of four 512-thread CTAs
(session 14), ``c`` compact, ``s11`` a narrower sample digit (9 bits
on 11-bit builds), ``cs`` both, ``t256`` 256-thread CTAs (5 per SM: 512 rows in one wave), ``t256s`` with a 2048-key
sample, ``t256u8``/``t256su8`` those with 8 vectors in flight (4 per SM),
``w12``/``w12c`` 12-bit digits on 256 threads (and compact, an 11-bit sample),
``t256c``/``t256c1``/``t128c`` the two-read path on 256 threads and 2048/1024 candidates, or 128 threads,
``smp1k``/``smp1k512`` the sampled filter with a 1024-key sample on N < 16K (256/512 threads; ``smp1kp``,
``smp512p``, ``smp1kp512`` with predicated stores, session 17: slower),
``r2`` the rank's root as floor(sqrt(mu)) + 2 (session 9's; + 1 ships since session 10), ``s8k`` an 8192-key
sample, ``s2k`` a 2048-key one (session 17), ``c16k`` 16384 candidates per CTA of a cluster, ``f0`` the two-read
path without fastkey/pstore1/early (session 11's), ``fp`` without early, ``vu0`` any variant without vclear and
unitdiv (session 12), ``fh``/``ts``/``fts`` (session 58, no faster on an H100, removed after commit 71e2d46) the
filter counting kept keys' first relative digit (``fhist``), the select's pass above the k-th key's bin in tiles of
four candidates a thread (``tilesel``), both,
``s1`` the two-read path with pass 1's candidates written by a loop over their bits (sparse1, session 13); ``rb``
sparse1 with pass 0 counting raw bins of x + 0.0, permuted to key bins after the pass (rawbin, session 13b);
``tt`` (session 20) keys above a second sample threshold written by the filter (``twot``: slower, removed; commit
32242f9 has it);
``tr1k``/``tr1k4``/``tr1k13`` the two-read path on 1024 threads at 32K rows (session 20: slower); ``fr`` FEW_ROWS'
flags on DEFAULT's cells (session 61: 8 vectors a thread loaded with the sample, a whole 32K row at 1024 threads;
session 61's cold stamps put DEFAULT's 128x32K filter 1.6K cycles above its warm one, FEW_ROWS' 32x32K 50);
``wr`` (session 62; shipped on since session 63, so now it times builds without it) ``wrank`` toggled: compact's
list of the k-th key's bin, when it holds at most 32 keys, ranked
by one warp instead of the level-two bin search and the last pass;
``sf``/``sfu8`` (session 62; slower on an H200 in session 66, removed after commit a75a532) ``sfirst``: the first
tile's loads issued right after the sample's (not before them, nor after its histogram) [with 8 vectors a thread:
a whole 32K row at 1024 threads]; session 8's ``sfirst`` (the sample's loads before the tile's, on the kernel of
then) changed nothing at 32x32K;
``lf<F>``/``lf<F>s`` (session 42; shipped in session 45, ``nolf`` without it) rows past the first wave of F CTAs
per SM by falling length
(``row_order``, PDL or serialized); ``m8``/``m8c1`` 8 CTAs per SM (min_ctas, 32 registers; 1024 candidates),
``t128``/``t128c1``/``t128c1m12``
(session 37: slower) 128-thread CTAs [1024 candidates] [12 per SM], ``cs1`` (session 37, slower: ``cstore1``, removed
after commit b272f3b), ``u2``/``u8``/``u8m6`` other unroll
counts on SHORT_MANY, session 14; ``fb12`` SHORT_MANY's first digit of 12 bits (session 16: slower, 4096x8K
67.1 -> 74.9 µs; 10 bits would make the second digit wider than the first, which RadixTopK now refuses);
``ah<R>[l]`` (session 53, 10-31% slower at 4096x8K, removed after commit 4056665) CTA p prefetching row p + R
into L2 [only its valid columns]; ``stg``/``stgu2``/``stgu8`` (session 55, 20-35% slower on an H100, removed after
commit 5001b6f) the two-read path with rows of up to 8192 columns staged in shared memory by ``cp.async`` [2 / 8
vectors per pass-0 step];
FIND_AB=name,... keeps only those), and
radix_cutlass (FIND_AB=...,cutlass), timed side by side in one process. Session 7's other
alternatives (coarse threshold, groups, pipelined filter, carveout) are in the commits named in
benchmarks/results/2026-11-29-cuda-session7-iterations.log.

``c<n>`` (session 64, prepared) the two-read path with a quarter or half of its candidate buffer (more L1 for the
rows in flight); ``c<n>v<p>`` the same launched with a named carveout of p% (``carveout.py``). FIND_KIND=<kit
kind> times rows of that kind instead of randn (e.g. int_ties: buffers overflow more).

Every configuration is checked exact (check_topk) on its first input before it is timed. With
``stamps`` in argv: clock64 stamps of the shipped variant around each find_bin and the filter.
Session 6's calls compared against session 5's kernel (serial find_bin, per-key appends); that
control is gone with the code it built: the commits named in
benchmarks/results/2026-11-29-cuda-session6-iterations.log still have it.
Usage (device): bash shared/device/run.sh python3 shared/device/find_ab.py [stamps]   (STAMP_COLD=1: on a cold row)
CPU: CUTE_DSL_ARCH=sm_90a python3 shared/device/find_ab.py --sass   (registers, SASS counts)
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import asdict

if "--sass" in sys.argv:  # read when cutlass is imported
    os.environ["CUTE_DSL_KEEP_PTX"] = "1"
if re.search(r"v\d", os.environ.get("FIND_AB", "")):  # carved builds: the DSL's file cache does not key the carveout
    os.environ["CUTE_DSL_DISABLE_FILE_CACHING"] = "1"
import cutlass
import cutlass.cute as cute
from cutlass import Int32


def stamped_class():
    """SampledFilter that stores thread 0's clock64 (cycles since ``_select`` began) around every
    find_bin and the filter into the value row (dev: a with_values=False build never writes it, so
    the caller passes a dbg tensor as ``values``). Slot names come from trace order."""
    from topk_core.kernels.cute_radix import RadixTopK
    from topk_radix_filter.sampled import SampledFilter

    class Stamped(SampledFilter):
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            self.names = []

        def __repr__(self):
            return "Stamped_" + super().__repr__()

        def mark(self, name: str, tid):
            self.names.append(name)
            self._stamp(len(self.names) - 1, tid)

        @cute.jit
        def _stamp(self, slot: cutlass.Constexpr, tid: Int32):
            vr = self._vr
            t0 = self._t0
            if tid == 0:
                if cutlass.const_expr(self.bits == 32):
                    vr[slot] = Int32(cute.arch.clock64() - t0)
                else:  # a 16-bit value row: units of 16 cycles
                    vr[slot] = self.elem(Int32((cute.arch.clock64() - t0) >> 4))

        @cute.jit
        def _select(self, xstart, length, k, out, hist, ckey, cidx, ctl, tid):
            self._vr = out[1]
            self._t0 = cute.arch.clock64()
            SampledFilter._select(self, xstart, length, k, out, hist, ckey, cidx, ctl, tid)
            self.mark("end", tid)

        @cute.jit
        def _find_bin(self, hist, nbins: cutlass.Constexpr, krem: Int32, ctl, tid: Int32):
            self.mark(f"find{nbins}_in", tid)
            b, r = RadixTopK._find_bin(self, hist, nbins, krem, ctl, tid)
            self.mark(f"find{nbins}_out", tid)
            return b, r

        @cute.jit
        def _rank_listed(self, listed, k, krem, lkey, lcol, out, lane):
            # wrank: warp 0 alone calls it, so lane 0 is thread 0
            self.mark("rank_in", lane)
            SampledFilter._rank_listed(self, listed, k, krem, lkey, lcol, out, lane)
            self.mark("rank_out", lane)

        @cute.jit
        def _filter(self, xv, v0, v1, tail, xr, length, t, ckey, cidx, ctl, tid, pre, with_tail, hist=None):
            # hist: the filter of shared/dev/patches/fhist-tilesel.diff takes the histogram too
            self.mark("filter_in", tid)
            if cutlass.const_expr(hist is None):
                SampledFilter._filter(self, xv, v0, v1, tail, xr, length, t, ckey, cidx, ctl, tid, pre, with_tail)
            else:
                SampledFilter._filter(self, xv, v0, v1, tail, xr, length, t, ckey, cidx, ctl, tid, pre, with_tail,
                                      hist)
            self.mark("filter_out", tid)

    return Stamped


def stamp_profile(shape, variant, inputs, dev, cold: bool = False) -> str:
    """Median and max over rows of each stamp (cycles), for the sampled path's slots. ``cold`` (STAMP_COLD=1, session
    58's next step): input 0's rows are read after every other input set went through the kernel (256 MB where the
    rotation reaches it), so they come from DRAM as in the timed replays, not from L2."""
    import torch

    from topk_core.kernels.cute_launch import compile_row_topk
    from topk_core.protocol import Call

    op = stamped_class()(shape.dtype, False, **asdict(variant))
    fn = compile_row_topk(op, shape.dtype)
    names = list(op.names)
    wide = shape.dtype == "float32"
    dbg = torch.full((shape.rows, shape.k), -1, dtype=torch.int32 if wide else torch.int16, device=dev)
    out = torch.empty(shape.rows, shape.k, dtype=torch.int32, device=dev)
    from topk_core.kernels.cute_launch import launch_row_topk

    def launch_stamped(i):
        launch_row_topk(fn, Call(logits=inputs.logits[i], seq_lens=inputs.seq_lens[i], top_k=shape.k, indices=out,
                                 values=dbg.view(inputs.logits[i].dtype)))

    # the last launch's stamps: warm (input 0 three times), or cold (input 0, the other sets, input 0 again)
    order = [0] + list(range(1, len(inputs.logits))) + [0] if cold else [0, 0, 0]
    for i in order:
        launch_stamped(i)
    torch.cuda.synchronize()
    st = dbg[:, :len(names)].cpu().to(torch.int64) * (1 if wide else 16)
    parts = []
    for j, name in enumerate(names):
        col = st[:, j]
        col = col[col >= 0]
        if len(col):
            parts.append(f"{name}={int(col.median())}/{int(col.max())}")
    longest = int(inputs.seq_lens[0].argmax())
    row = " ".join(f"{name}={int(st[longest, j])}" for j, name in enumerate(names))
    return (("cold " if cold else "") + "stamps(median/max cycles) " + " ".join(parts) +
            f"\n    longest row ({int(inputs.seq_lens[0][longest])} columns): {row}")


_BUILT = {}


def build_filter(dtype, variant, vec: bool = True, carveout: int | None = None):
    """``carveout`` (session 64): launched with that ``preferred_smem_carveout`` (percent of the SM's shared memory
    maximum), whatever ``min_ctas`` is; the shipped launch names 100 where ``min_ctas`` is set, else none."""
    from topk_core.kernels.cute_launch import compile_row_topk
    from topk_radix_filter.sampled import SampledFilter

    key = (dtype, variant, vec, carveout)
    if key not in _BUILT:  # cells share variants: compile each once
        cls = SampledFilter if carveout is None else carved_class(carveout)
        _BUILT[key] = compile_row_topk(cls(dtype, False, vec=vec, **asdict(variant)), dtype)
    return _BUILT[key]


def carved_class(percent: int):
    """SampledFilter whose one-CTA-per-row launch names ``preferred_smem_carveout=percent``."""
    from carveout import carved_launch_rows

    from topk_radix_filter.sampled import SampledFilter

    return type("Carved", (SampledFilter,), {"_launch_rows": carved_launch_rows(percent)})


def build_cutlass(dtype, threads: int, first_bits: int, fcmp: bool = True):
    from topk_core.kernels.cute_launch import compile_row_topk
    from topk_core.kernels.cute_radix import RadixTopK

    return compile_row_topk(RadixTopK(dtype, False, threads=threads, cand=4096, unroll=4, unroll1=2,
                                      first_bits=first_bits, fcmp=fcmp), dtype)


def sass_report():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "dev"))
    from sass_tools import counts, ptx_sass

    from topk_radix_filter import launch as rf

    for name in ("DEFAULT", "FEW_ROWS", "MANY_ROWS", "LIGHT", "SHORT"):
        for dtype in ("float32", "bfloat16"):
            fn = build_filter(dtype, getattr(rf, name))
            rep, sass = ptx_sass(fn.__ptx__)
            ops = counts(sass)
            regs = [ln.strip() for ln in rep.splitlines() if "registers" in ln]
            print(name, dtype, sum(ops.values()), "instr, LDS", ops.get("LDS", 0), "BAR", ops.get("BAR", 0),
                  "STL", ops.get("STL", 0), regs[-1:] if regs else "")


AB = os.environ.get("FIND_AB", "")


def configs(rows: int, n: int, dtype: str = "float32"):
    """(name, build thunk) to time for a cell: the shipped variant first."""
    from topk_radix_cutlass import launch as rc

    alts = dict(configs_variants(rows, n, dtype))
    # FIND_AB=name,...: time only these (and new)
    keep = set(AB.split(",")) | {"new"} if AB else set(alts)
    out = [(name, (lambda w=w, n=name: ("launch", w) if w.longest_first
                   else build_filter(dtype, w, carveout=carveout_of(n))))
           for name, w in alts.items() if name in keep]
    if (rows, n) in ((4096, 8192), (128, 32768)) and dtype == "float32" and "cutlass" in keep:
        threads, bits = rc.plan(rows, n)
        out.append(("cutlass_new", lambda: build_cutlass("float32", threads, bits)))
    return out


def carveout_of(name: str) -> int | None:
    """The carveout percent an alternative's name ends with (``c512v43``: 43), or None."""
    m = re.search(r"v(\d+)$", name)
    return int(m.group(1)) if m else None


#: CTAs per SM of the many-wave variants (ptxas registers and shared memory, launch.py's notes): longest_first's F.
FIRST_WAVE = {"SHORT_MANY": 6, "SHORT_F32_WIDE": 4, "SHORT_F32_WIDE_8K": 4, "SHORT_F32": 3, "LIGHT": 3,
              "LIGHT_16": 4, "MANY_ROWS": 2, "MANY_ROWS_F32": 2, "SHORT_MANY_LF": 6}


def configs_variants(rows: int, n: int, dtype: str = "float32") -> list:
    """(name, Variant) of the shipped variant ("new") and every alternative for a cell."""
    from dataclasses import replace

    from topk_radix_filter import launch as rf

    v = rf.plan(rows, n, dtype=dtype)
    alts = {"new": v}
    if dtype != "float32" and v.sampled:  # 16-bit: 0.6.0's filter and select; the word filter's branch per
        alts["b0"] = replace(v, bf16cmp=False, f16cmp=False, rel16=False)  # kept key (p0); fp16's order-key filter
        alts["p0"] = replace(v, pstore=False)  # (f0); session 11 call 2 measured bc/br (bf16cmp / rel16 alone)
        if dtype == "float16":
            alts["f0"] = replace(v, f16cmp=False)
    alts["vu0"] = replace(v, vclear=False, unitdiv=False)  # session 12: loop clears, prologue divisions
    if v.sampled:
        alts["sp"] = replace(v, sparse=not v.sparse)  # session 12: the filter's bit-loop writes, toggled
        alts["old"] = replace(v, interp=False, relsel=False, group=min(v.group, 2))
        alts["late"] = replace(v, late=True)
        alts["c"] = replace(v, compact=True)
        alts["s11"] = replace(v, sample_bits=11 if v.first_bits == 13 else 9)
        alts["cs"] = replace(v, compact=True, sample_bits=11 if v.first_bits == 13 else 9)
        alts["r2"] = replace(v, root_pad=2)
        if v.compact:  # session 62: the k-th key's bin of <= 32 listed keys ranked by one warp, toggled
            alts["wr"] = replace(v, wrank=not v.wrank)
        if v.cand >= 8192:
            alts["s8k"] = replace(v, sample=8192)
        alts["s2k"] = replace(v, sample=2048)  # session 17: a 2048-key sample (cheaper step on the row's chain)
        if v.group > 1 and v.cand < 16384:
            alts["c16k"] = replace(v, cand=16384)
        if v.group == 1 and v.threads == 1024:  # session 20: the two-read path (no sample) on 32K rows, 1024 threads
            alts["tr1k"] = replace(rf.SHORT_F32, threads=1024, cand=8192, unroll=8)
            alts["tr1k4"] = replace(rf.SHORT_F32, threads=1024, cand=8192, unroll=4)
            alts["tr1k13"] = replace(rf.SHORT_F32, threads=1024, cand=8192, unroll=8, first_bits=13)
        if v.group == 1 and v.threads == 1024 and v.unroll == 4:  # DEFAULT (session 14: two 512-thread CTAs a row)
            alts["fr"] = rf.FEW_ROWS
            alts["g2t512"] = replace(v, group=2, threads=512)
            alts["g2t512u8"] = replace(v, group=2, threads=512, unroll=8)
        if v.group == 1 and v.threads == 1024 and v.unroll == 8:  # FEW_ROWS
            alts["g2"] = replace(v, group=2)
            alts["g3"] = replace(v, group=3)
        if v.group > 1:
            alts["g" + str(5 - v.group)] = replace(v, group=5 - v.group)
            # session 14: clusters of four 512-thread CTAs (two fit an SM: 62 such clusters at once, not 30)
            alts["g4t512"] = replace(v, group=4, threads=512)
            alts["g4t512u4"] = replace(v, group=4, threads=512, unroll=4)
    per_sm = min((f for name, f in FIRST_WAVE.items() if getattr(rf, name) == v), default=0)
    if v.longest_first:  # session 45: shipped on SHORT_MANY_LF, LIGHT, MANY_ROWS_F32; "nolf" is the variant before
        alts["nolf"] = replace(v, longest_first=0)
    if per_sm and rows > 132 * per_sm:
        # session 42 (prepared): rows past the first wave (F CTAs per SM: the variant's occupancy, or half) by
        # falling length, the order kernel as the row kernel's programmatic primary ("s": serialized instead)
        for f in sorted({per_sm, max(per_sm // 2, 1)}):
            alts[f"lf{f}"] = replace(v, longest_first=f)
            alts[f"lf{f}s"] = replace(v, longest_first=f, order_pdl=False)
    if v.threads == 512 and v.group == 1 and v.sampled and v.cand == 4096:  # LIGHT: 4 CTAs per SM (session 14)
        alts["m4"] = replace(v, min_ctas=4)
    if v.threads == 512 and v.group == 1 and v.sampled:
        alts["t256"] = replace(v, threads=256)
        alts["t256s"] = replace(v, threads=256, sample=2048)
        alts["t256u8"] = replace(v, threads=256, unroll=8)
        alts["t256su8"] = replace(v, threads=256, unroll=8, sample=2048)
    if v.threads == 256 and v.sampled:
        alts["w12"] = replace(v, first_bits=12)
        alts["w12c"] = replace(v, first_bits=12, compact=True, sample_bits=11)
    if not v.sampled:
        alts["t256c"] = replace(v, threads=256, cand=2048)
        alts["t256c1"] = replace(v, threads=256, cand=1024)
        alts["t128c"] = replace(v, threads=128, cand=2048)
        alts["smp1k"] = replace(v, sampled=True, sample=1024, cand=4096, late=True)
        alts["smp1k512"] = replace(rf.LIGHT, sample=1024)
        # session 17: the sampled filter with predicated stores (a third of a short row is kept: the bit loop of
        # ``sparse`` runs long), 1024 or 512 sampled keys, 256 or 512 threads
        alts["smp1kp"] = replace(v, sampled=True, sample=1024, cand=4096, late=True, sparse=False)
        alts["smp512p"] = replace(v, sampled=True, sample=512, cand=4096, late=True, sparse=False)
        alts["smp1kp512"] = replace(v, sampled=True, sample=1024, cand=4096, late=True, sparse=False, threads=512)
        if dtype == "float32":  # session 12: the two-read path's cheaper key and predicated pass-1 writes
            alts["f0"] = replace(v, fastkey=False, pstore1=False, early=False, vclear=False, unitdiv=False)
            alts["fp"] = replace(v, early=False)
            alts["s1"] = replace(v, sparse1=True)  # session 13: pass 1's candidates by a loop over their bits
            alts["rb"] = replace(v, sparse1=True, rawbin=True)  # session 13b: pass 0 on raw bins of x + 0.0
            if v.threads == 256:  # session 14: 8 CTAs of 256 per SM (32 registers), not 6 (40)
                alts["m8"] = replace(v, min_ctas=8)
                alts["m8c1"] = replace(v, min_ctas=8, cand=1024)
                alts["u2"] = replace(v, unroll=2)  # session 14: vectors in flight per thread (40 registers)
                alts["u8"] = replace(v, unroll=8)  # 48 registers: 5 CTAs per SM
                alts["u8m6"] = replace(v, unroll=8, min_ctas=6)
                alts["fb12"] = replace(v, first_bits=12)  # pass 0's histogram of 4096 bins (session 16: slower)
                # session 37: 7 CTAs of 256 per SM (36 registers); 128-thread CTAs with today's flags, 2048 or
                # 1024 candidates (9 / 12 CTAs per SM: shared memory / registers)
                alts["t128"] = replace(v, threads=128)
                alts["t128c1"] = replace(v, threads=128, cand=1024)
                alts["t128c1m12"] = replace(v, threads=128, cand=1024, min_ctas=12)
            if v.threads == 512:  # SHORT_F32: 4 CTAs of 512 per SM (32 registers), not 3 (40)
                alts["m4"] = replace(v, min_ctas=4)
            # session 64 (prepared): a smaller candidate buffer, so that less shared memory leaves more L1 for the
            # rows in flight and pass 1's second read may hit L1, not L2 (68% busy in session 37's ncu)
            # ``v<p>``: launched with a preferred carveout of p% of 228 KB, the smallest configuration that holds
            # the CTAs per SM (43%: 100 KB, 57%: 132 KB; the driver's choice otherwise, 100% where min_ctas is set)
            for c, p in ((v.cand // 4, 43), (v.cand // 2, 57)):  # SHORT_MANY 512 / 1024, SHORT_F32(_WIDE) 1024 / 2048
                alts[f"c{c}"] = replace(v, cand=c)
                if not v.longest_first:  # the ordered entry launches through launch.py (no carveout there)
                    alts[f"c{c}v{p}"] = replace(v, cand=c)
            if v.cand < 4096:  # session 65: SHORT_F32_WIDE_8K's (and SHORT_MANY's) buffer doubled
                alts[f"c{2 * v.cand}"] = replace(v, cand=2 * v.cand)
            if v.min_ctas == 4:  # SHORT_F32_WIDE's own buffer: 4 x ~41 KB needs 196 KB (86%; ncu: the driver took 201)
                alts[f"c{v.cand}v86"] = v
    return list(alts.items())


def make_step(fn, inputs, outs, k: int):
    """``fn``: a build, or ``("launch", variant)`` for the variants that launch more than one kernel
    (``longest_first``: through ``launch.launch``)."""
    from topk_core.kernels.cute_launch import launch_row_topk
    from topk_core.protocol import Call
    from topk_radix_filter import launch as rf

    def step(i):
        call = Call(logits=inputs.logits[i], seq_lens=inputs.seq_lens[i], top_k=k, indices=outs[i])
        if isinstance(fn, tuple):
            rf.launch(call, fn[1])
        else:
            launch_row_topk(fn, call)

    return step


def main():
    import torch

    from topk_core.bench.candidates import make_inputs
    from topk_core.bench.grids import Shape
    from topk_core.bench.timing import rotations, time_graph
    from topk_core.testing import check_topk
    from topk_radix_filter import launch as rf

    K = 1024
    cells = [Shape(32, 32 * K), Shape(32, 128 * K), Shape(128, 32 * K), Shape(128, 128 * K), Shape(512, 32 * K),
             Shape(512, 128 * K), Shape(4096, 8 * K), Shape(1024, 64 * K), Shape(128, 128 * K, dtype="bfloat16"),
             Shape(128, 128 * K, k=512), Shape(64, 128 * K), Shape(16, 128 * K), Shape(64, 64 * K),
             Shape(128, 8 * K), Shape(512, 8 * K), Shape(1024, 8 * K), Shape(2048, 8 * K), Shape(32, 8 * K),
             Shape(1024, 4 * K, k=1024), Shape(1, 1024 * K), Shape(1, 256 * K), Shape(8, 512 * K),
             Shape(32, 128 * K, dtype="bfloat16"), Shape(512, 32 * K, dtype="bfloat16"),
             Shape(1, 128 * K, dtype="bfloat16"), Shape(128, 128 * K, dtype="float16"),
             Shape(1024, 64 * K, dtype="bfloat16"), Shape(1024, 64 * K, dtype="float16"),
             Shape(300, 32 * K, dtype="bfloat16"), Shape(3000, 8 * K),  # 29: SHORT_MANY_LF's cutoff (session 45)
             Shape(64, 32 * K), Shape(200, 32 * K), Shape(256, 64 * K)]  # 30-32: FEW_ROWS' and DEFAULT's edges
    if os.environ.get("FIND_CELLS"):  # e.g. FIND_CELLS=0,1: indices into the list above
        cells = [cells[int(i)] for i in os.environ["FIND_CELLS"].split(",")]
    dev = torch.device("cuda")
    for shape in cells:
        count = rotations(shape.nbytes)
        inputs = make_inputs(shape, count, dev, kind=os.environ.get("FIND_KIND", "randn"))
        outs = [torch.empty(shape.rows, shape.k, dtype=torch.int32, device=dev) for _ in range(count)]
        variant = rf.plan(shape.rows, shape.n, dtype=shape.dtype)
        line = [f"{shape.label:>12} {variant.threads}t{variant.first_bits}b"]
        built = {name: thunk() for name, thunk in configs(shape.rows, shape.n, shape.dtype)}
        res = {}
        for _ in range(2):  # alternate twice: drift shows as a difference between the two rounds
            for name, fn in built.items():
                step = make_step(fn, inputs, outs, shape.k)
                for i in range(count):
                    step(i)
                torch.cuda.synchronize()
                check_topk(inputs.logits[0], inputs.seq_lens[0], shape.k, outs[0])
                res.setdefault(name, []).append(time_graph(step, count, replays=10))
        line += [f"{name} " + "/".join(f"{t:.1f}" for t in ts) for name, ts in res.items()]
        stamped = shape.rows <= 128 and variant.group == 1  # they hook _select
        if "stamps" in sys.argv and stamped:
            cold = os.environ.get("STAMP_COLD") == "1"
            line.append(stamp_profile(shape, variant, inputs, dev, cold))
            for alt in os.environ.get("STAMP_ALTS", "").split(","):  # e.g. STAMP_ALTS=sffw, warm or cold alike
                alt_v = dict(configs_variants(shape.rows, shape.n, shape.dtype)).get(alt)
                if alt_v is not None and alt_v.group == 1:
                    line.append(f"[{alt}] " + stamp_profile(shape, alt_v, inputs, dev, cold))
        print(" | ".join(line), flush=True)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    if "--sass" in sys.argv:
        sass_report()
    else:
        import torch

        with torch.cuda.stream(torch.cuda.Stream()):
            main()
