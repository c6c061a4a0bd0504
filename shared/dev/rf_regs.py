"""Dev (CPU): ptxas registers, spill bytes and stack of every radix_filter planned build and radix_cutlass's
first builds, one line each, so that a change to the shared ``cute_radix`` code shows what it costs the kernels.

Usage (from a scratch directory):  CUTE_DSL_ARCH=sm_90a CUTE_DSL_KEEP_PTX=1 python shared/dev/rf_regs.py > regs.txt
"""

import os
import re
import sys

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
os.environ.setdefault("CUTE_DSL_KEEP_PTX", "1")
sys.path.insert(0, os.path.dirname(__file__))
from sass_tools import ptx_sass  # noqa: E402

from topk_radix_cutlass import launch as rcl  # noqa: E402
from topk_radix_filter.launch import PLANNED, build  # noqa: E402

BUILDS = (("float32", False, True), ("float32", True, True), ("bfloat16", True, True), ("float32", False, False))


def regs(fn) -> str:
    rep, _ = ptx_sass(fn.__ptx__)
    used = re.findall(r"Used (\d+) registers", rep)
    spill = re.findall(r"(\d+) bytes spill stores", rep)
    stack = re.findall(r"(\d+) bytes stack frame", rep)
    return f"regs {used[-1] if used else '?'} spill {spill[-1] if spill else '?'} stack {stack[-1] if stack else '?'}"


for name, v in sorted(PLANNED.items()):
    for dtype, wv, vec in BUILDS:
        if dtype != "float32" and v.threads == 256:  # the 256-thread variants are float32's
            continue
        print(f"rf {name} {dtype} v{int(wv)} vec{int(vec)}", regs(build(dtype, wv, v, vec=vec)), flush=True)
for args in rcl.variants()[:6]:
    print("rc", args, regs(rcl.build(*args)), flush=True)
