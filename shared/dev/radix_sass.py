"""Dev (CPU): registers, spills and SASS counts of radix's register kernel (regs.py).

Usage: python shared/dev/radix_sass.py C T E [dtype] [gwx] [--dump FILE]
  gwx: variant letters: g (gather 8192), w (warp_emit), x (early); '-' for none.
Compiles for sm_90a through CuTe DSL (CUTE_DSL_ARCH=sm_90a, PTX kept), then runs Triton's
ptxas -v on that PTX for the register/spill report and cuobjdump for SASS opcode counts.
"""

import collections
import os
import re
import subprocess
import sys
import tempfile

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
os.environ["CUTE_DSL_KEEP_PTX"] = "1"
import triton  # noqa: E402

from topk_radix import launch  # noqa: E402

BIN = os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    dump = sys.argv[sys.argv.index("--dump") + 1] if "--dump" in sys.argv else None
    if dump in args:
        args.remove(dump)
    c, t, e = (int(x) for x in args[:3])
    dtype = args[3] if len(args) > 3 else "float32"
    flags = args[4] if len(args) > 4 else "gwx"
    vec = 4 if dtype == "float32" else 8
    with tempfile.TemporaryDirectory() as d:
        os.environ["CUTE_DSL_DUMP_DIR"] = d
        fn = launch.compile_regs(dtype, c, t, e, vec, False, gather=8192 if "g" in flags else 0,
                                 warp_emit="w" in flags, early="x" in flags)
        ptx = fn.__ptx__
        src = os.path.join(d, "k.ptx")
        with open(src, "w") as f:
            # Triton's ptxas reads PTX 8.7; nothing this kernel uses is newer.
            f.write(re.sub(r"^\.version \d+\.\d+", ".version 8.7", ptx, flags=re.M))
        cubin = os.path.join(d, "k.cubin")
        rep = subprocess.run([os.path.join(BIN, "ptxas"), "-v", "-arch=sm_90a", src, "-o", cubin],
                             capture_output=True, text=True)
        print(rep.stdout + rep.stderr)
        sass = subprocess.run([os.path.join(BIN, "cuobjdump"), "-sass", cubin], capture_output=True,
                              text=True).stdout
    ops = collections.Counter()
    for line in sass.splitlines():
        m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]+)", line)
        if m:
            ops[m.group(2).split(".")[0]] += 1
    print(sum(ops.values()), "instructions:", dict(ops.most_common(25)))
    if dump:
        with open(dump, "w") as f:
            f.write(sass)


if __name__ == "__main__":
    main()
