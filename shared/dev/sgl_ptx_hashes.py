"""Dev (CPU): sha1 of the normalized sm_90 PTX of every warp-path build ``pick_warp`` can return (fp32, each
transform), to show a refactor leaves the shipped kernels' code unchanged (the DWARF sections and debug lines
dropped; session 27's changes reordered some address arithmetic, so a diff of the PTX itself is the next step).
``--split``: the two-launch filter's builds instead, for the configs ``pick_split`` returns on a grid of shapes (fp32
and bf16, each transform, aligned rows, without row_starts).

``--regs``: registers and stack bytes (``cuobjdump -res-usage``) instead of the hash, plus the resident path's
shipped configs, so that a change to shared Triton code (``topk_core.kernels.triton_common``) can be checked for what
ptxas does with it before a device session times it (session 43).

Usage: python shared/dev/sgl_ptx_hashes.py [--split] [--regs] > before.txt (then after the change; diff the files)
"""

import hashlib
import os
import re
import sys

os.environ.pop("TRITON_INTERPRET", None)
SGL = os.path.join(os.path.dirname(__file__), "..", "..", "packages", "topk-sgl-fused")
sys.path[:0] = [os.path.join(SGL, "tests"), SGL]
from test_compile_sm90 import compile_resident, compile_split, compile_warp, warp_configs  # noqa: E402

from topk_sgl_fused import launch  # noqa: E402

SPLIT_SHAPES = ((1, 131072), (8, 32768), (16, 131072), (32, 131072), (64, 131072), (512, 131072), (1, 1 << 20))


def norm(ptx: str) -> str:
    ptx = ptx.split(".section\t.debug")[0]  # the DWARF sections hold source lines and columns
    return "\n".join(line for line in ptx.splitlines()
                     if not re.match(r"\s*(\.loc|\.file|//|\$L__)", line))


def digest(build) -> str:
    if "--regs" in sys.argv:
        from warp_sass import res_usage

        regs, stack = res_usage(build.asm["cubin"])
        return f"regs {regs} stack {stack}"
    return hashlib.sha1(norm(build.asm["ptx"]).encode()).hexdigest()[:12]


if "--split" in sys.argv:
    for rows, n in SPLIT_SHAPES:
        for dtype in ("fp32", "bf16"):
            config = launch.pick_split(rows, n, 2048, 132)
            for transform in (0, 1, 2):
                print(f"{rows}x{n}", dtype, transform, digest(compile_split(dtype, transform, config, aligned=True)),
                      flush=True)
else:
    if "--regs" in sys.argv:
        for dtype, config in (("fp32", launch.RESIDENT), ("bf16", launch.RESIDENT_16)):
            for transform in (0, 1, 2):
                print("resident", dtype, transform, digest(compile_resident(dtype, transform, config,
                                                                            launch.RESIDENT_N[1])), flush=True)
    for i, config in enumerate(warp_configs()):
        for transform in (0, 1, 2):
            print(i, transform, digest(compile_warp("fp32", transform, config)), repr(config)[:60], flush=True)
