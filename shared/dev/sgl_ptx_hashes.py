"""Dev (CPU): sha1 of the normalized sm_90 PTX of every warp-path build ``pick_warp`` can return (fp32, each
transform), to show a refactor leaves the shipped kernels' code unchanged (the DWARF sections and debug lines
dropped; session 27's changes reordered some address arithmetic, so a diff of the PTX itself is the next step).

Usage: python shared/dev/sgl_ptx_hashes.py > before.txt (then after the change; diff the two files)
"""

import hashlib
import os
import re
import sys

os.environ.pop("TRITON_INTERPRET", None)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "packages", "topk-sgl-fused", "tests"))
from test_compile_sm90 import compile_warp, warp_configs  # noqa: E402


def norm(ptx: str) -> str:
    ptx = ptx.split(".section\t.debug")[0]  # the DWARF sections hold source lines and columns
    return "\n".join(line for line in ptx.splitlines()
                     if not re.match(r"\s*(\.loc|\.file|//|\$L__)", line))


for i, config in enumerate(warp_configs()):
    for transform in (0, 1, 2):
        ptx = norm(compile_warp("fp32", transform, config).asm["ptx"])
        print(i, transform, hashlib.sha1(ptx.encode()).hexdigest()[:12], repr(config)[:60], flush=True)
