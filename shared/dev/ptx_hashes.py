"""Dev (CPU): sha1 of the PTX of every radix_filter planned build (fp32 with and without values, bf16 with values,
fp32 scalar loads) and of radix_cutlass's first builds, to show a refactor leaves generated code byte-identical.

Usage (from a scratch directory: CUTE_DSL_KEEP_PTX writes files in the cwd):
  CUTE_DSL_ARCH=sm_90a CUTE_DSL_KEEP_PTX=1 PYTHONPATH=... python shared/dev/ptx_hashes.py > hashes.txt
(before and after the change; diff the two files). With ``--regs``: ptxas registers, spill stores and stack bytes
(sm_90a) of each build in place of the hash, so a change to shared kernel code shows what it costs every variant.
"""

import hashlib
import os
import re
import sys

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
from topk_radix_cutlass import launch as rcl  # noqa: E402
from topk_radix_filter.launch import PLANNED, build  # noqa: E402

BUILDS = (("float32", False, True), ("float32", True, True), ("bfloat16", True, True), ("float32", False, False))


def sha(fn) -> str:
    return hashlib.sha1(fn.__ptx__.encode()).hexdigest()[:12]


def regs(fn) -> str:
    sys.path.insert(0, os.path.dirname(__file__))
    from sass_tools import ptx_sass

    rep, _ = ptx_sass(fn.__ptx__)
    pats = (r"Used (\d+) registers", r"(\d+) bytes spill stores", r"(\d+) bytes stack")
    found = [re.findall(pat, rep) for pat in pats]
    return "regs {} spill {} stack {}".format(*(f[-1] if f else "?" for f in found))


digest = regs if "--regs" in sys.argv else sha


for name, v in sorted(PLANNED.items()):
    for dtype, wv, vec in BUILDS:
        if dtype != "float32" and v.threads == 256:  # the 256-thread variants are float32's
            continue
        print(f"rf {name} {dtype} v{int(wv)} vec{int(vec)}", digest(build(dtype, wv, v, vec=vec)), flush=True)
for args in rcl.variants()[:6]:
    print("rc", args, digest(rcl.build(*args)), flush=True)
for args in rcl.split_variants()[:4]:
    print("rcs", args, digest(rcl.build_split(*args)), flush=True)
