"""Dev (CPU, session 42): random calls through the configs sgl_fused *ships* (``launch.pick_warp`` / ``pick_split`` at
GPU geometries: the resident, warp and two-launch paths with their GPU sizes), under the Triton interpreter.

The test suite forces small configs on CPU and runs the shipped ones on the GPU; this puts the shipped configs on
CPU inputs with random combinations: row kind, lengths (mixed: 0, negative numerators, <= k, > N), next_n and
compress_ratio, row_starts windows, return_values, and the page-table (cu_seqlens_q, random tables) or ragged
transform. Every result is checked exactly (``check_topk``, transforms inverted first); a failure prints its case.

``--gvr`` (session 43): the same through topk-gvr's configs instead (``gvr_config``: the two-launch path with the
bracket from a hint, ``launch_split(..., hint=)``), with hints of every ``make_hint`` mode (exact, previous with
noise 0.05-1.0, random, empty) and the calls' own transforms.

Usage: python3 shared/dev/fuzz_picks.py SEED CASES [MINUTES] [-v] [--gvr]
"""

from __future__ import annotations

import os
import random
import sys
import time
import traceback
import warnings

os.environ["TRITON_INTERPRET"] = "1"  # before any kernel import
warnings.filterwarnings("ignore")

import torch  # noqa: E402

from topk_core.testing import (  # noqa: E402
    as_layout,
    check_topk,
    local_columns,
    make_hint,
    make_logits,
    make_seq_lens,
    poisoned_call,
    random_page_tables,
)
from topk_sgl_fused import launch  # noqa: E402

GEOMETRIES = [(1, 8192), (8, 8192), (1, 12000), (1, 16384), (8, 32768), (32, 32768), (128, 32768), (512, 32768),
              (32, 131072), (128, 131072), (512, 131072), (4096, 8192), (1024, 65536), (2048, 16384), (1, 1 << 20),
              (8, 65536), (300, 65536), (64, 16384)]
DTYPES = {4: torch.float32, 2: torch.bfloat16}
KINDS = ("randn", "int_ties", "plateau", "inf", "nan", "sorted", "reversed", "zeros_denormals", "constant")
LAST = {"label": ""}  # the running case, for the failure report
GVR = "--gvr" in sys.argv
HINT_MODES = ("exact", "previous", "previous", "random", "empty")


def shipped(rows: int, n: int, k: int, transform: str, elem_bytes: int):
    """What ``launch.launch`` (or, with --gvr, topk-gvr's launch) would run on an H200 (132 SMs) for this
    geometry."""
    os.environ.pop("TRITON_INTERPRET")
    try:
        if GVR:
            from topk_gvr.launch import gvr_config
            return gvr_config(rows, n, k, 132)
        cfg = launch.pick_warp(rows, n, k, 132, transform, elem_bytes)
        return cfg if cfg is not None else launch.pick_split(rows, n, k, 132)
    finally:
        os.environ["TRITON_INTERPRET"] = "1"


def one_case(rnd: random.Random, seed: int) -> str:
    g_rows, g_n = rnd.choice(GEOMETRIES)
    k = rnd.choice([2048, 2048, 1024, 512, 300, 64, 1])
    if k >= g_n:
        k = 64
    eb = rnd.choice([4, 4, 2])
    transform = rnd.choice(["none", "none", "page_table", "ragged"])
    cfg = shipped(g_rows, g_n, k, transform, eb)
    is_resident = isinstance(cfg, launch.ResidentConfig)
    # the call's own shape: a few rows; resident configs need n inside their width band
    n = g_n if is_resident else rnd.choice([g_n, min(g_n, rnd.randint(k + 1, 3 * k + 500)), rnd.randint(1, 4000)])
    n = max(min(n, 70000 if rnd.random() < 0.1 else 20000), 1)  # the interpreter's time grows with n
    next_n = 1 if transform == "page_table" else rnd.choice([1, 1, 2, 3])
    ratio = 1 if transform == "page_table" else rnd.choice([1, 1, 4])
    rows = next_n * rnd.randint(1, 3)
    kind = rnd.choice(KINDS)
    dtype = DTYPES[eb]
    x = make_logits(kind, rows, n, dtype, "cpu", seed=seed, k=k)
    layout = rnd.choice(["contiguous", "contiguous", "padded", "unaligned"])  # session 43: views into a NaN buffer
    x = as_layout(x, layout)
    mode = rnd.choice(["mixed", "uniform", "full", "extreme"])
    lens = make_seq_lens(rows // next_n, n, next_n=next_n, compress_ratio=ratio, seed=seed, mode=mode)
    values = rnd.random() < 0.5
    fields = dict(next_n=next_n, compress_ratio=ratio)
    starts = None
    if next_n == 1 and ratio == 1 and rnd.random() < 0.3:  # windows with every transform (session 43)
        starts = torch.randint(-50, n + 50, (rows,), dtype=torch.int32, generator=torch.Generator().manual_seed(seed))
        fields["row_starts"] = starts
    req = torch.arange(rows)
    inv = None
    if transform == "page_table":
        cut = sorted(rnd.randint(0, rows) for _ in range(rnd.randint(0, 2)))
        cu = torch.tensor([0, *cut, rows], dtype=torch.int32)
        req = torch.searchsorted(cu[1:], torch.arange(rows), right=True)
        table, inv = random_page_tables(len(cu) - 1, n, seed=seed)
        fields.update(transform="page_table", page_table=table, cu_seqlens_q=cu)
    elif transform == "ragged":
        offsets = torch.randint(0, 10**6, (rows,), dtype=torch.int32, generator=torch.Generator().manual_seed(seed))
        fields.update(transform="ragged", index_offsets=offsets)
    label = (f"seed={seed} cfg={type(cfg).__name__}({g_rows}x{g_n}) call={rows}x{n} k={k} {dtype} {kind} {mode} "
             f"nn={next_n} cr={ratio} starts={starts is not None} values={values} transform={transform} "
             f"layout={layout}")
    LAST["label"] = label
    hint = None
    if GVR:
        hmode = rnd.choice(HINT_MODES)
        noise = rnd.choice([0.05, 0.3, 1.0])
        hint = make_hint(x, lens, k, next_n=next_n, compress_ratio=ratio, mode=hmode, seed=seed, noise=noise)
        label += f" hint={hmode}" + (f"({noise})" if hmode == "previous" else "")
        LAST["label"] = label
    call = poisoned_call(x, lens, k, values=values, **fields)
    if GVR:
        launch.launch_split(call, cfg, hint=hint)
    else:
        launch.launch(call, config=cfg)
    idx = call.indices
    if transform == "page_table":
        idx = local_columns(idx, inv, req).to(torch.int32)
    elif transform == "ragged":
        idx = torch.where(idx >= 0, idx - offsets[:, None], idx)
    check_topk(x, lens, k, idx, call.values, next_n=next_n, compress_ratio=ratio, row_starts=starts)
    return label


def main():
    args = [a for a in sys.argv[1:] if a not in ("-v", "--gvr")]
    seed = int(args[0]) if args else 0
    cases = int(args[1]) if len(args) > 1 else 50
    minutes = float(args[2]) if len(args) > 2 else 1e9
    rnd = random.Random(seed)
    t0 = time.time()
    done = failed = 0
    for i in range(cases):
        if time.time() - t0 > 60 * minutes:
            break
        LAST["label"] = f"case {i} before its call"
        try:
            label = one_case(rnd, seed * 100000 + i)
            done += 1
            if "-v" in sys.argv:
                print("ok", label, flush=True)
        except Exception as exc:  # report and go on
            failed += 1
            print(f"FAIL {LAST['label']}: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
            traceback.print_exc(limit=3)
    print(f"{done} passed, {failed} failed in {time.time() - t0:.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
