"""Dev (CPU): SASS instruction counts of sgl_fused's split kernels for one config.

Usage: python shared/dev/filter_sass.py ROWS N [dtype] [--dump]
Builds filter_kernel / select_kernel for an sm_90a target exactly as launch_split would on
an H200 (132 SMs), with the stride specialized as a real aligned call would be, then counts
SASS instructions by opcode (static counts; loops are reported by their labels in --dump).
"""

import os
import sys

os.environ.pop("TRITON_INTERPRET", None)
import triton  # noqa: E402
from sass_tools import counts, cubin_sass  # noqa: E402  (same folder)
from triton.backends.compiler import GPUTarget  # noqa: E402

from topk_sgl_fused import launch, split  # noqa: E402

KEY_BITS = {"fp32": 32, "bf16": 16, "fp16": 16}


def build(fn, sig, const, warps, maxnreg=None):
    sig = {**sig, **{name: "constexpr" for name in const}}
    # As a real call specializes: 16-byte aligned pointers, stride_row % 16 == 0.
    attrs = {(i,): [["tt.divisibility", 16]] for i, (name, ty) in enumerate(sig.items())
             if ty.startswith("*") or name == "stride_row"}
    src = triton.compiler.ASTSource(fn, sig, const, attrs=attrs)
    opts = {"num_warps": warps}
    if maxnreg:
        opts["maxnreg"] = maxnreg
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options=opts)


def main():
    rows, n = int(sys.argv[1]), int(sys.argv[2])
    dtype = sys.argv[3] if len(sys.argv) > 3 and not sys.argv[3].startswith("-") else "fp32"
    cfg = launch.pick_split(rows, n, 2048, 132)
    a, v, th = launch.tile(cfg, KEY_BITS[dtype] // 8)
    common = {"logits_ptr": f"*{dtype}", "stride_row": "i32", "n": "i32", "seq_lens_ptr": "*i32", "next_n": "i32",
              "compress_ratio": "i32", "row_starts_ptr": "*i32", "k": "i32"}
    scratch = {"ctr_ptr": "*i32", "lists_ptr": "*i32", "cap": "i32"}
    filt = dict(KEY_BITS=KEY_BITS[dtype], CHUNK=cfg.chunk, A=a, V=v, TH=th, SAMPLE=cfg.sample, HAS_STARTS=False)
    page = {"page_ptr": "*i32", "page_stride": "i32", "cu_ptr": "*i32", "has_cu": "i32", "num_req": "i32"}
    c = build(split.filter_kernel, {**common, **scratch, **page}, filt, cfg.warps, cfg.maxnreg)
    sass = cubin_sass(c.asm["cubin"])
    ops = counts(sass)
    print(f"{rows}x{n} {dtype} {cfg}")
    print(f"filter: instructions {sum(ops.values())}")
    print("  " + " ".join(f"{k}:{v}" for k, v in ops.most_common(25)))
    if "--dump" in sys.argv:
        out = f"/tmp/filter_{rows}x{n}_{dtype}.sass"
        open(out, "w").write(sass)
        print("  sass:", out)


if __name__ == "__main__":
    main()
