"""Every kernel variant ``launch`` can pick compiles for a CUDA sm_90 target, on CPU.

Variants: dtype x transform (none / page_table / ragged) x launch config (BLOCK, warps,
two-pass or stream). row_starts, cu_seqlens_q and return_values are runtime flags.
The fast lane compiles 9 (every dtype and transform), the two-launch path's kernels for
each dtype, the warp path's (``warp.py``) for two and the resident path's (``resident.py``) twice; ``slow``
compiles every variant, in four parts that parallel workers share (CI runs those and deselects the fast lane,
a subset of them).
The compiles run in a child process without TRITON_INTERPRET, so the test also works
inside an interpreter run.
Run by hand: ``python tests/test_compile_sm90.py all|every [variants,split,warp,resident]`` ("every": the whole
dtype x transform x config product of the one-kernel and two-launch paths).
"""

import itertools
import os
import subprocess
import sys
from dataclasses import replace

import pytest

DTYPES = {"fp32": 32, "bf16": 16, "fp16": 16}
TRANSFORMS = [0, 1, 2]


def _gpu_picks(pick):
    """Every config ``pick`` returns on a GPU (few / many rows, short / long rows), also inside
    an interpreter run."""
    saved = os.environ.pop("TRITON_INTERPRET", None)
    try:
        picks = {pick(rows, n, 2048, 132) for rows in (1, 4096) for n in (8192, 131072)}
    finally:
        if saved is not None:
            os.environ["TRITON_INTERPRET"] = saved
    return sorted(picks, key=repr)


def configs():
    """The one-kernel path's launch configs."""
    from topk_sgl_fused import launch

    return _gpu_picks(launch.pick_config)


def variants(which: str):
    """The one-kernel path's builds: each dtype x transform once, cycling the configs (``launch`` runs that path only
    for an explicit ``Config``; the exact fallback it shares with the default paths is built with theirs); "every":
    the whole product (by hand)."""
    if which == "every":
        return list(itertools.product(DTYPES, TRANSFORMS, range(len(configs()))))
    return [(d, t, i % len(configs())) for i, (d, t) in enumerate(itertools.product(DTYPES, TRANSFORMS))]


def compile_variant(dtype, transform, config):
    import triton
    from triton.backends.compiler import GPUTarget

    from topk_sgl_fused.kernel import sgl_topk_kernel

    signature = {
        "logits_ptr": f"*{dtype}", "stride_row": "i32", "n": "i32", "rows": "i32",
        "seq_lens_ptr": "*i32", "next_n": "i32", "compress_ratio": "i32", "row_starts_ptr": "*i32",
        "has_starts": "i32", "k": "i32", "out_idx_ptr": "*i32", "out_val_ptr": f"*{dtype}", "return_values": "i32",
        "page_ptr": "*i32", "page_stride": "i32", "cu_ptr": "*i32", "has_cu": "i32", "num_req": "i32",
        "offsets_ptr": "*i32", "cand_ptr": "*i32", "cap": "i32", "n_slots": "i32",
    }
    constexprs = dict(KEY_BITS=DTYPES[dtype], BLOCK=config.block, TRANSFORM=transform, STREAM=config.stream,
                      ATOMIC=config.atomic, FAST=config.fast, SAMPLE=config.sample, CBLOCK=config.cblock,
                      THREADS=32 * config.num_warps, FBLOCK=config.fast_block or config.block)
    signature.update({name: "constexpr" for name in constexprs})
    src = triton.compiler.ASTSource(sgl_topk_kernel, signature, constexprs)
    options = {"num_warps": config.num_warps}
    if config.maxnreg:
        options["maxnreg"] = config.maxnreg
    compiled = triton.compile(src, target=GPUTarget("cuda", 90, 32), options=options)
    assert ".target sm_90" in compiled.asm["ptx"], "PTX is not for sm_90"
    assert compiled.metadata.num_warps == config.num_warps
    return compiled


def split_configs():
    """The two-launch path's configs (one-tile and two-pass chunks; 8x128K: chunks of 8192 on 16 warps)."""
    from topk_sgl_fused import launch

    saved = os.environ.pop("TRITON_INTERPRET", None)
    try:
        one_wave = launch.pick_split(8, 131072, 2048, 132)
    finally:
        if saved is not None:
            os.environ["TRITON_INTERPRET"] = saved
    assert one_wave.warps == launch.SPLIT_ONE_WAVE_WARPS
    return _gpu_picks(launch.pick_split) + [one_wave]


def compile_split(dtype, transform, config, aligned=False, hint_k=0):
    """Both kernels of the two-launch path (``split.py``) for one dtype, transform and config, with the config's
    register caps (``aligned``: 16-byte aligned pointers and row stride, as a launch specializes them); returns the
    filter's build. ``hint_k`` > 0: the filter's bracket from a hint of that many columns (``launch_split``'s
    ``hint``)."""
    import triton
    from triton.backends.compiler import GPUTarget

    from topk_sgl_fused import launch, split

    common = {"logits_ptr": f"*{dtype}", "stride_row": "i32", "n": "i32", "seq_lens_ptr": "*i32", "next_n": "i32",
              "compress_ratio": "i32", "row_starts_ptr": "*i32", "k": "i32"}
    scratch = {"ctr_ptr": "*i32", "lists_ptr": "*i32", "cap": "i32"}
    bits = DTYPES[dtype]
    filt, _ = launch.split_constexprs(config, bits, bits // 8, transform, has_starts=False, stream=True)
    filt = {**filt, "HINT": launch.hint_lanes(hint_k)} if hint_k else {**filt, "hint_ptr": None}
    _, sel = launch.split_constexprs(config, bits, bits // 8, transform, has_starts=True, stream=True)
    select_sig = {**common, "rows": "i32", "out_idx_ptr": "*i32", "out_val_ptr": f"*{dtype}", "return_values": "i32",
                  "page_ptr": "*i32", "page_stride": "i32", "cu_ptr": "*i32", "has_cu": "i32", "num_req": "i32",
                  "offsets_ptr": "*i32", **scratch}
    page = {"page_ptr": "*i32", "page_stride": "i32", "cu_ptr": "*i32", "has_cu": "i32", "num_req": "i32"}
    builds = []
    for fn, sig, const, warps, maxnreg in (
            (split.filter_kernel, {**common, **scratch, **page, **({"hint_ptr": "*i32"} if hint_k else {})}, filt,
             config.warps, config.maxnreg),
            (split.select_kernel, select_sig, sel, config.select_warps, config.select_maxnreg)):
        sig = {**sig, **{name: "constexpr" for name in const}}
        attrs = {(i,): [["tt.divisibility", 16]] for i, (name, ty) in enumerate(sig.items())
                 if aligned and (ty.startswith("*") or name == "stride_row")}
        options = {"num_warps": warps, **({"maxnreg": maxnreg} if maxnreg else {})}
        compiled = triton.compile(triton.compiler.ASTSource(fn, sig, const, attrs=attrs),
                                  target=GPUTarget("cuda", 90, 32), options=options)
        assert ".target sm_90" in compiled.asm["ptx"], "PTX is not for sm_90"
        builds.append(compiled)
    return builds[0]


def ptxas_usage(compiled) -> tuple[int, int]:
    """(registers, spill-store bytes) of a build, from ``ptxas -v`` (Triton's own) on its PTX (its ``.version`` set to
    8.7, the newest that ptxas reads; these kernels use nothing newer)."""
    import re
    import tempfile

    import triton

    ptxas = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas")
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.ptx")
        with open(src, "w") as f:
            f.write(re.sub(r"^\.version \d+\.\d+", ".version 8.7", compiled.asm["ptx"], flags=re.M))
        rep = subprocess.run([ptxas, "-v", "-arch=sm_90a", src, "-o", os.path.join(d, "k.cubin")],
                             capture_output=True, text=True, check=True)
    text = rep.stdout + rep.stderr
    return int(re.search(r"Used (\d+) registers", text)[1]), int(re.search(r"(\d+) bytes spill stores", text)[1])


def page_after_bracket_usage() -> dict:
    """ptxas usage of the 32x128K two-launch filter (8192 columns on 8 warps, 128 registers) streaming the page
    table: both early tiles live across the bracket (as ``page_stream`` alone) and the page tile after it."""
    from topk_sgl_fused import launch

    config = replace(launch.pick_split(32, 131072, 2048, 132), page_stream=True)
    assert (config.chunk, config.warps, config.early, config.maxnreg) == (8192, 8, True, 128), config
    return {name: ptxas_usage(compile_split("fp32", 1, replace(config, page_after_bracket=after), aligned=True))
            for name, after in (("early", False), ("after", True))}


def _page_only(config) -> bool:
    """Whether ``pick_warp`` returns ``config`` for the page table alone (late pass or early gathers)."""
    return config.late or config.page_early


def warp_configs():
    """Every config ``pick_warp`` returns on a GPU (few / many rows, long / short rows, transforms)."""
    from topk_sgl_fused import launch

    saved = os.environ.pop("TRITON_INTERPRET", None)
    try:
        picks = {launch.pick_warp(rows, n, 2048, 132, t) for rows in (1, 128, 512, 1024, 4096)
                 for n in (8192, 32768, 65536, 131072) for t in ("none", "page_table")}
    finally:
        if saved is not None:
            os.environ["TRITON_INTERPRET"] = saved
    return sorted((c for c in picks if isinstance(c, launch.WarpConfig)), key=repr)


def _compile_row_kernel(fn, dtype, const, options, has_starts, scratch):
    """One program per row kernel (the warp or resident path) built for sm_90 with the launch's signature
    (``scratch``: the candidate scratch's two arguments) and aligned rows; returns the build."""
    import triton
    from triton.backends.compiler import GPUTarget

    sig = {"logits_ptr": f"*{dtype}", "stride_row": "i32", "n": "i32", "seq_lens_ptr": "*i32", "next_n": "i32",
           "compress_ratio": "i32", "row_starts_ptr": "*i32", "k": "i32", "out_idx_ptr": "*i32",
           "out_val_ptr": f"*{dtype}", "return_values": "i32", "page_ptr": "*i32", "page_stride": "i32",
           "cu_ptr": "*i32", "has_cu": "i32", "num_req": "i32", "offsets_ptr": "*i32",
           **({"scratch_ptr": "*i32", "cap": "i32"} if scratch else {}), **{name: "constexpr" for name in const}}
    if scratch:  # the warp kernel's row order: runtime arguments only with ORDER (else None and 1, as the launch)
        order = {"order_ptr": "*i32", "order_first": "i32"} if const.get("ORDER") else {}
        sig = {**sig, **{name: order.get(name, "constexpr") for name in ("order_ptr", "order_first")}}
        const = {**const, **({} if order else {"order_ptr": None, "order_first": 1})}
    # Aligned rows (pointer and stride 16-divisible) and page table (pointer), as the launch specializes them: the
    # 16-byte loads (the page stream's too).
    attrs = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 11)}
    compiled = triton.compile(triton.compiler.ASTSource(fn, sig, const, attrs=attrs), target=GPUTarget("cuda", 90, 32),
                              options=options)
    assert ".target sm_90" in compiled.asm["ptx"], "PTX is not for sm_90"
    if not has_starts:  # a runtime window start hides the alignment
        assert "ld.global.v4" in compiled.asm["ptx"], "full runs should load 16 bytes per lane"
    return compiled


def compile_warp(dtype, transform, config, has_starts=False, k=2048, order=0):
    """The warp path's kernel (``warp.py``) for one dtype, transform and config (the late page-table
    pass's block from ``k``; ``order``: its ORDER, ``row_order.launch_order``); returns the build."""
    from topk_sgl_fused import launch, warp

    const = launch.warp_constexprs(config, DTYPES[dtype], transform, has_starts, k, order)
    options = {"num_warps": config.warps, **({"maxnreg": config.maxnreg} if config.maxnreg else {})}
    return _compile_row_kernel(warp.warp_kernel, dtype, const, options, has_starts, scratch=True)


def compile_order(has_starts: bool, pdl: bool = True):
    """``row_order.order_kernel`` as ``row_order.launch_order`` launches it; returns the build."""
    import triton
    from triton.backends.compiler import GPUTarget

    from topk_sgl_fused import row_order

    const = dict(HAS_STARTS=has_starts, CHUNK=row_order.ORDER_CHUNK, BUCKETS=row_order.ORDER_BANDS, PDL=pdl)
    sig = {"seq_lens_ptr": "*i32", "next_n": "i32", "compress_ratio": "i32", "row_starts_ptr": "*i32", "n": "i32",
           "rows": "i32", "first": "i32", "order_ptr": "*i32", **{name: "constexpr" for name in const}}
    compiled = triton.compile(triton.compiler.ASTSource(row_order.order_kernel, sig, const),
                              target=GPUTarget("cuda", 90, 32), options={"num_warps": 16})
    assert ("griddepcontrol.launch_dependents" in compiled.asm["ptx"]) == pdl, "PDL's trigger as asked"
    return compiled


def compile_resident(dtype, transform, config, n, has_starts=False):
    """The resident path's kernel (``resident.py``) for rows of ``n`` columns; returns the build."""
    from topk_sgl_fused import launch, resident

    const = launch.resident_constexprs(config, n, DTYPES[dtype], transform, has_starts)
    return _compile_row_kernel(resident.resident_kernel, dtype, const, {"num_warps": config.warps}, has_starts,
                               scratch=False)


def compile_resident_part(which: str) -> None:
    """The resident path's shipped config in every dtype and transform (fast lane: two of them)."""
    from topk_sgl_fused import launch

    for i, (dtype, transform) in enumerate(itertools.product(DTYPES, TRANSFORMS)):
        if which == "all" or i in (1, 5):
            config = launch.RESIDENT if dtype == "fp32" else launch.RESIDENT_16  # 16 / 8 warps (session 24)
            compile_resident(dtype, transform, config, launch.RESIDENT_N[1], has_starts=i == 5)
    if which == "all":  # 16K float32 rows on 16 warps; 8K rows without the one-scan placement (shipped in session 26)
        compile_resident("fp32", 1, launch.RESIDENT_WIDE, launch.RESIDENT_WIDE_MAX_N)
        compile_resident("fp32", 0, replace(launch.RESIDENT, one_scan=False), launch.RESIDENT_N[1])
    print("compiled the resident kernels")


#: The one-kernel path's variants; the two-launch, warp and resident kernels.
PARTS = ("variants", "split", "warp", "resident")


def _compile_in_child(which: str, parts: tuple = PARTS) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    proc = subprocess.run([sys.executable, __file__, which, ",".join(parts)], env=env, capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]
    expected = {"variants": f"compiled {len(variants(which))} variants", "split": "compiled the two-launch kernels",
                "warp": "compiled the warp kernels", "resident": "compiled the resident kernels"}
    for part in parts:
        assert expected[part] in proc.stdout


@pytest.mark.minutes(2)
def test_compiles_for_sm90_fast_lane():
    _compile_in_child("fast")


#: Cold-CI minutes of each part (session 18, two busy cores), which conftest.py uses to start the longest first.
PART_MINUTES = {"warp": 8, "split": 4, "variants": 2, "resident": 1}


@pytest.mark.parametrize("part", [pytest.param(p, marks=pytest.mark.slow(minutes=PART_MINUTES[p])) for p in PARTS])
def test_compiles_for_sm90_every_variant(part):
    """In parts, so that parallel workers share the builds (cold, one part alone took ~12 minutes on CI's CPU)."""
    _compile_in_child("all", (part,))


def compile_warp_part(which: str) -> None:
    """The warp path's builds of the fast lane or of ``all`` (see below)."""
    # The warp path: fast lane each late config in fp32 with the page table (its plain twin is the same code
    # with the pass left out), the others in fp32 with it inline / bf16 with row_starts in turn, and one bf16
    # build with row_starts; all: every config in fp32 with each transform ``pick_warp`` runs it with (a late
    # config: the page table, whose pass is all it adds; the others: none and ragged), the page table inline
    # and each 16-bit dtype once (tests force those), and the 2- and 4-bit search steps (``sbits``/``bbits``,
    # forced by tests) with the late pass over several blocks (k = 4096, 4 warps).
    # A config that differs from an earlier one only in its sample or bracket bits (constants) builds once in
    # ``all``.
    warp_cfgs = warp_configs()
    seen = set()
    for i, c in enumerate(warp_cfgs):
        base = replace(c, sample=0, bracket_bits=16)
        if which == "all" and base in seen:
            compile_warp("fp32", 1 if _page_only(c) else 0, c)
            continue
        seen.add(base)
        if which == "all":
            for transform in (1,) if _page_only(c) else (0, 2):
                compile_warp("fp32", transform, c)
        elif _page_only(c):
            compile_warp("fp32", 1, c)
        elif replace(c, late=True) not in warp_cfgs:
            compile_warp(*(("fp32", 1) if i % 2 == 0 else ("bf16", 0)), c, has_starts=i % 2 == 1)
    if which == "all":
        plain = [c for c in warp_cfgs if not c.late]
        compile_warp("fp32", 1, plain[0])  # the page table at each store
        compile_warp("bf16", 2, plain[-1], has_starts=True)
        compile_warp("fp16", 1, [c for c in warp_cfgs if c.late][0])
    if which != "all":
        compile_warp("bf16", 0, warp_cfgs[0], has_starts=True)
    # the picks with every key above the bracket a candidate (``all_cands``, session 32): fast lane one of them
    from topk_sgl_fused.launch import pick_warp as _pick

    # (0.27.6 took all_cands off rows short for their k at 2-12 per SM, e.g. 1024x64K and 300x64K at k = 2048)
    allc = [(512, 131072, 2048, "none", 4), (512, 131072, 2048, "page_table", 4), (1024, 65536, 1024, "none", 4),
            (300, 131072, 2048, "ragged", 4), (128, 131072, 512, "none", 4), (128, 131072, 2048, "page_table", 2)]
    for rows, n, k, transform, eb in allc if which == "all" else allc[1:2]:  # fast lane: page_early's build
        c = _pick(rows, n, k, 132, transform, eb)
        assert c.all_cands, (rows, n, k, transform, eb)
        compile_warp("fp32" if eb == 4 else "bf16", ("none", "page_table", "ragged").index(transform), c, k=k)
    # longest first (``row_order``, session 39): the order kernel and a many-wave pick that waits for its order
    compile_order(has_starts=which == "all")
    ordered = compile_warp("fp32", 0, replace(_pick(1024, 65536, 2048, 132, "none", 4), longest_first=True), order=2)
    assert "griddepcontrol.wait" in ordered.asm["ptx"], "the ordered programs wait for the order kernel"
    if which == "all":
        from topk_sgl_fused.launch import WarpConfig, pick_warp

        compile_warp("fp32", 1, WarpConfig(4, 2, 2048, 512, 512, late=True, sbits=4, bbits=4), k=4096)
        compile_warp("bf16", 0, WarpConfig(8, 2, 2048, 1024, 1024, sbits=2, bbits=2))
        # the late pass's request found after the stream (``lazy``), with and without the register cap
        compile_warp("fp32", 1, WarpConfig(8, 2, 2048, 1024, 1024, late=True, lazy=True), has_starts=True)
        compile_warp("fp32", 1, WarpConfig(4, 2, 2048, 512, 512, late=True, lazy=True, maxnreg=80))
        # 16-bit rows' own picks (session 31: below 16 warps half the runs per tile) with the page table and without
        for rows, n in ((4096, 8192), (300, 20000), (512, 131072), (1024, 65536), (128, 131072)):
            for i, transform in enumerate(("none", "page_table")):
                compile_warp(("bf16", "fp16")[i], i, pick_warp(rows, n, 2048, 132, transform, 2))
    print("compiled the warp kernels")


@pytest.mark.slow(minutes=1)
def test_split_page_after_bracket_spills_none():
    """``SplitConfig.page_after_bracket`` exists to keep the page tile out of registers across the bracket: its
    32x128K filter must fit 128 registers without spills (ptxas, session 29: 60 bytes with both tiles early)."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    proc = subprocess.run([sys.executable, __file__, "page_after"], env=env, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]
    import ast

    usage = ast.literal_eval(proc.stdout.strip().splitlines()[-1])  # the child's repr of page_after_bracket_usage()
    assert usage["after"][0] <= 128 and usage["after"][1] == 0, usage


if __name__ == "__main__":
    os.environ.pop("TRITON_INTERPRET", None)
    which = sys.argv[1] if len(sys.argv) > 1 else "fast"
    if which == "page_after":
        print(repr(page_after_bracket_usage()))
        sys.exit(0)
    parts = sys.argv[2].split(",") if len(sys.argv) > 2 else PARTS
    if "variants" in parts:
        cfgs = configs()
        for dtype, transform, c in variants(which):
            compile_variant(dtype, transform, cfgs[c])
        print(f"compiled {len(variants(which))} variants")
    if "split" in parts:
        # all: each config in float32 with every transform, and once in a 16-bit dtype (bf16 / fp16 and the transform
        # in turn; the 16-bit code differs from float32's in the key only, which every transform shares); fast: one
        # config per dtype; every (by hand): the whole product.
        split_cfgs = split_configs()
        for i, c in enumerate(split_cfgs):
            if which == "every":
                builds = list(itertools.product(DTYPES, TRANSFORMS))
            elif which == "all":
                builds = [("fp32", t) for t in TRANSFORMS] + [(("bf16", "fp16")[i % 2], TRANSFORMS[i % 3])]
            else:
                builds = [(d, TRANSFORMS[i % 3]) for j, d in enumerate(DTYPES) if j % len(split_cfgs) == i]
            for dtype, transform in builds:
                compile_split(dtype, transform, c)
        # the filter's bracket from a hint (``topk-gvr``, session 40) on a decode row's config: fast lane float32
        from topk_sgl_fused.launch import pick_split

        for dtype in DTYPES if which in ("all", "every") else ("fp32",):
            compile_split(dtype, 0, pick_split(1, 131072, 2048, 132), aligned=True, hint_k=2048)
        print("compiled the two-launch kernels")
    if "warp" in parts:
        compile_warp_part(which)
    if "resident" in parts:
        compile_resident_part(which)
