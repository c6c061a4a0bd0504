"""Dev (CPU): registers, spills and SASS counts of the warp path's kernel (``warp.py``) per config.

Usage: python packages/topk-sgl-fused/warp_sass.py NAME [NAME ..] [--dump]
NAME is a variant of ``shared/device/sgl10_bench.py`` (``w4late``, ``w4pipe``, ..), built for an sm_90a target
as an aligned fp32 call with the page table (``TRANSFORM=1``) would be, k = 2048; ``NAME:none`` builds the
identity transform; ``r8@8192:none`` the resident path on 8 warps for rows of 8192. Prints registers,
stack/spill bytes, programs per SM (register bound), instructions in all and in the stream loop (the loop of the
SASS that holds the 16-byte row loads), and its opcodes.
"""

import os
import re
import subprocess
import sys
import tempfile

os.environ.pop("TRITON_INTERPRET", None)
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(ROOT, "shared/dev"), os.path.join(ROOT, "shared/device"), os.path.join(HERE, "tests")]

from sass_tools import BIN, counts, cubin_sass  # noqa: E402
from sgl10_bench import variant  # noqa: E402
from test_compile_sm90 import compile_resident, compile_warp  # noqa: E402

_LINE = re.compile(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?);")


def loops(sass: str):
    """``(start, end, lines)`` of every backward branch's body (by address), innermost first."""
    lines = [(int(m.group(1), 16), m.group(2), ln) for ln in sass.splitlines() if (m := _LINE.match(ln))]
    out = []
    for a, text, _ in lines:
        t = re.search(r"\bBRA\s+0x([0-9a-f]+)", text)
        if t and int(t.group(1), 16) < a:
            s = int(t.group(1), 16)
            out.append((s, a, [ln for b, _, ln in lines if s <= b <= a]))
    return sorted(out, key=lambda x: x[1] - x[0])


def res_usage(cubin: bytes) -> tuple[int, int]:
    """(registers, stack bytes) from ``cuobjdump -res-usage``."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        out = subprocess.run([os.path.join(BIN, "cuobjdump"), "-res-usage", f.name], capture_output=True, text=True,
                             check=True).stdout
    return int(re.search(r"REG:(\d+)", out).group(1)), int(re.search(r"STACK:(\d+)", out).group(1))


def report(name: str, dump: bool) -> None:
    vname, _, tname = name.partition(":")
    transform = 0 if tname == "none" else 1
    vname, _, cols = vname.partition("@")  # "r8@8192": the resident path on 8 warps for rows of 8192
    cfg = variant(vname)
    if cols:
        c = compile_resident("fp32", transform, cfg, int(cols))
    else:
        c = compile_warp("fp32", transform, cfg)
    sass = cubin_sass(c.asm["cubin"])
    regs, stack = res_usage(c.asm["cubin"])
    th = 32 * cfg.warps
    per_sm = min(65536 // (th * (-(-regs // 8) * 8)), 64 // cfg.warps)
    ops = counts(sass)
    body = [lp for lp in loops(sass) if any("LDG.E.128" in ln for ln in lp[2])][:1]
    print(f"{name}: {cfg}")
    print(f"  regs {regs} stack {stack} smem {c.metadata.shared} -> {per_sm} programs/SM; "
          f"instructions {sum(ops.values())}; STL {ops['STL']} LDL {ops['LDL']}")
    for s, e, lns in body:
        lops = counts("\n".join(lns))
        print(f"  stream loop [{s:#x}, {e:#x}]: {sum(lops.values())} instructions; "
              + " ".join(f"{k}:{v}" for k, v in lops.most_common(16)))
    if dump:
        path = f"/tmp/warp_{vname}_{tname or 'page'}.sass"
        with open(path, "w") as f:
            f.write(sass)
        print("  sass:", path)


if __name__ == "__main__":
    dump = "--dump" in sys.argv
    for arg in [a for a in sys.argv[1:] if not a.startswith("--")]:
        report(arg, dump)
