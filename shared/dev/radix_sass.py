"""Dev (CPU): registers, spills and SASS counts of radix's register kernel (regs.py).

Usage: python shared/dev/radix_sass.py C T E [dtype] [gwx] [--dump FILE]
  gwx: variant letters: g (gather 8192), w (warp_emit), x (early), f (fkey), o (emit1), z (nozero),
  p (preclear), u (upscan), b (emitb, with o), s (spare), q (push0), r (relaxed_exit); '-' for none.
Compiles for sm_90a through CuTe DSL (CUTE_DSL_ARCH=sm_90a, PTX kept), then runs Triton's
ptxas -v on that PTX for the register/spill report and cuobjdump for SASS opcode counts
(sass_tools.py).
"""

import os
import sys

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
os.environ["CUTE_DSL_KEEP_PTX"] = "1"
from sass_tools import counts, ptx_sass  # noqa: E402  (same folder)

from topk_radix import launch  # noqa: E402


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    dump = sys.argv[sys.argv.index("--dump") + 1] if "--dump" in sys.argv else None
    if dump in args:
        args.remove(dump)
    c, t, e = (int(x) for x in args[:3])
    dtype = args[3] if len(args) > 3 else "float32"
    flags = args[4] if len(args) > 4 else "gwx"
    vec = 4 if dtype == "float32" else 8
    fn = launch.compile_regs(dtype, c, t, e, vec, False, gather=8192 if "g" in flags else 0,
                             warp_emit="w" in flags, early="x" in flags, fkey="f" in flags, emit1="o" in flags,
                             nozero="z" in flags, preclear="p" in flags, upscan="u" in flags,
                             emitb="b" in flags, spare="s" in flags, push0="q" in flags,
                             relaxed_exit="r" in flags)
    report, sass = ptx_sass(fn.__ptx__)
    print(report)
    ops = counts(sass)
    print(sum(ops.values()), "instructions:", dict(ops.most_common(25)))
    if dump:
        with open(dump, "w") as f:
            f.write(sass)


if __name__ == "__main__":
    main()
