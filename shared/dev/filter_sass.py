"""Dev (CPU): SASS instruction counts, registers and spills of sgl_fused's two-launch filter for one call shape.

Usage: python shared/dev/filter_sass.py ROWS N [dtype] [--page] [--dump]
Builds ``filter_kernel`` for an sm_90a target as ``launch_split`` would on an H200 (132 SMs): the config of
``pick_split``, its register cap, aligned rows (``test_compile_sm90.compile_split``); ``--page``: the page table's
transform (streamed where the pick streams it). Static counts; loops are reported by their labels in --dump.
"""

import os
import sys

os.environ.pop("TRITON_INTERPRET", None)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "packages", "topk-sgl-fused", "tests"))
from sass_tools import counts, cubin_sass  # noqa: E402  (same folder)
from test_compile_sm90 import compile_split, ptxas_usage  # noqa: E402

from topk_sgl_fused import launch  # noqa: E402


def main():
    rows, n = int(sys.argv[1]), int(sys.argv[2])
    dtype = sys.argv[3] if len(sys.argv) > 3 and not sys.argv[3].startswith("-") else "fp32"
    cfg = launch.pick_split(rows, n, 2048, 132)
    c = compile_split(dtype, 1 if "--page" in sys.argv else 0, cfg, aligned=True)
    sass = cubin_sass(c.asm["cubin"])
    ops = counts(sass)
    regs, spills = ptxas_usage(c)
    print(f"{rows}x{n} {dtype} {cfg}")
    print(f"filter: instructions {sum(ops.values())}, registers {regs}, spill stores {spills} bytes")
    print("  " + " ".join(f"{k}:{v}" for k, v in ops.most_common(25)))
    if "--dump" in sys.argv:
        out = f"/tmp/filter_{rows}x{n}_{dtype}.sass"
        open(out, "w").write(sass)
        print("  sass:", out)


if __name__ == "__main__":
    main()
