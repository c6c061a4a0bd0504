"""Dev (CPU): SASS from PTX or a cubin with Triton's bundled ptxas/cuobjdump, and opcode counts.

Shared by filter_sass.py, radix_sass.py and dsmem_exchange_sass.py.
"""

import collections
import os
import re
import subprocess
import tempfile

import triton

BIN = os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin")
_INSTR = re.compile(r"\s+/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]+)")


def cubin_sass(cubin: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        return subprocess.run([os.path.join(BIN, "cuobjdump"), "-sass", f.name], capture_output=True, text=True,
                              check=True).stdout


def ptx_sass(ptx: str, arch: str = "sm_90a") -> tuple[str, str]:
    """(ptxas -v report, SASS) of PTX text. Triton's ptxas reads PTX 8.7; the kernels built here
    use nothing newer, so a newer ``.version`` line is rewritten."""
    with tempfile.TemporaryDirectory() as d:
        src, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        with open(src, "w") as f:
            f.write(re.sub(r"^\.version \d+\.\d+", ".version 8.7", ptx, flags=re.M))
        rep = subprocess.run([os.path.join(BIN, "ptxas"), "-v", f"-arch={arch}", src, "-o", cubin],
                             capture_output=True, text=True, check=True)
        with open(cubin, "rb") as f:
            return rep.stdout + rep.stderr, cubin_sass(f.read())


def counts(sass: str) -> collections.Counter:
    """SASS opcodes (without modifiers) by count, predicated ones included."""
    ops = collections.Counter()
    for line in sass.splitlines():
        m = _INSTR.match(line)
        if m:
            ops[m.group(2).split(".")[0]] += 1
    return ops
