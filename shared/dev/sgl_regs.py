"""Dev (CPU): registers and stack bytes (``cuobjdump -res-usage``) of every sm_90a build ``sgl_ptx_hashes.py``
lists (the warp path's shipped configs x transforms; ``--split``: the two-launch filters) plus the resident path's
shipped configs, so that a change to shared Triton code (``topk_core.kernels.triton_common``) can be checked for
what ptxas does with it before a device session times it.

Usage: python shared/dev/sgl_regs.py [--split] > before.txt (then after the change; diff the two files)
"""

import os
import sys

os.environ.pop("TRITON_INTERPRET", None)
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "..", "packages", "topk-sgl-fused"),
                os.path.join(HERE, "..", "..", "packages", "topk-sgl-fused", "tests")]
from test_compile_sm90 import compile_resident, compile_split, compile_warp, warp_configs  # noqa: E402
from warp_sass import res_usage  # noqa: E402

from topk_sgl_fused import launch  # noqa: E402

SPLIT_SHAPES = ((1, 131072), (8, 32768), (16, 131072), (32, 131072), (64, 131072), (512, 131072), (1, 1 << 20))


def usage(build) -> str:
    regs, stack = res_usage(build.asm["cubin"])
    return f"regs {regs} stack {stack}"


if "--split" in sys.argv:
    for rows, n in SPLIT_SHAPES:
        for dtype in ("fp32", "bf16"):
            config = launch.pick_split(rows, n, 2048, 132)
            for transform in (0, 1, 2):
                print(f"{rows}x{n}", dtype, transform, usage(compile_split(dtype, transform, config, aligned=True)),
                      flush=True)
else:
    for dtype, config in (("fp32", launch.RESIDENT), ("bf16", launch.RESIDENT_16)):
        for transform in (0, 1, 2):
            print("resident", dtype, transform, usage(compile_resident(dtype, transform, config,
                                                                       launch.RESIDENT_N[1])), flush=True)
    for i, config in enumerate(warp_configs()):
        for transform in (0, 1, 2):
            print(i, transform, usage(compile_warp("fp32", transform, config)), repr(config)[:60], flush=True)
