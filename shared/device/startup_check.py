"""Start-up cost of the CuTe DSL backends with the on-disk compile cache (GPU only).

Runs each backend's first call in fresh processes sharing one new TOPK_CACHE_DIR:
``cold`` (empty cache: compile + store), then ``warm`` twice (load from disk). Each
child checks its result against torch.topk (and check_topk) and prints one JSON line.
Fails (exit 1) if a result is wrong or a warm process compiled instead of loading.

    bash shared/device/run.sh python3 shared/device/startup_check.py               # radix_cutlass
    bash shared/device/run.sh python3 shared/device/startup_check.py radix_cutlass radix_filter radix
"""

import json
import os
import subprocess
import sys
import tempfile
import time

#: (rows, n): few long rows (radix_cutlass splits them over CTAs) and many shorter rows.
SHAPES = ((8, 65536), (512, 16384))
K = 2048


def child(backend: str) -> None:
    t0 = time.perf_counter()
    import torch

    import topk_core
    from topk_core.kernels import toolchain
    from topk_core.testing.check import check_topk

    t1 = time.perf_counter()
    res = {"backend": backend, "import_s": round(t1 - t0, 3), "shapes": [], "matches_torch_topk": True}
    for rows, n in SHAPES:
        gen = torch.Generator(device="cuda").manual_seed(rows)
        logits = torch.randn(rows, n, device="cuda", generator=gen)
        seq_lens = torch.full((rows,), n, dtype=torch.int32, device="cuda")
        seq_lens[1] = n // 3  # one shorter row
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        idx, val = topk_core.top_k_varlen(logits, seq_lens, K, return_values=True, backend=backend)
        torch.cuda.synchronize()
        t3 = time.perf_counter()
        topk_core.top_k_varlen(logits, seq_lens, K, return_values=True, backend=backend)
        torch.cuda.synchronize()
        t4 = time.perf_counter()
        check_topk(logits, seq_lens, K, idx, val)
        ok = True
        for r in range(rows):  # the values' multiset equals torch.topk's over the row's valid length
            length = int(seq_lens[r])
            want = torch.topk(logits[r, :length], min(K, length)).values
            got = torch.sort(val[r, : min(K, length)], descending=True).values
            ok &= bool(torch.equal(got, want))
        res["matches_torch_topk"] &= ok
        res["shapes"].append(
            {
                "rows": rows,
                "n": n,
                "first_call_s": round(t3 - t2, 3),
                "second_call_ms": round((t4 - t3) * 1e3, 3),
                "ok": ok,
            }
        )
    res["compile_s"] = [round(v, 3) for v in toolchain.build_seconds.values()]
    res["disk_load_s"] = [round(v, 4) for v in toolchain.load_seconds.values()]
    print(json.dumps(res))


def main() -> int:
    backends = sys.argv[1:] or ["radix_cutlass"]
    cache = tempfile.mkdtemp(prefix="topk-startup-")
    env = dict(os.environ, TOPK_CACHE_DIR=cache)
    env.pop("CUTE_DSL_CACHE_DIR", None)
    print(f"TOPK_CACHE_DIR={cache}  shapes={SHAPES} k={K}")
    failed = False
    for backend in backends:
        for phase in ("cold", "warm", "warm"):
            start = time.perf_counter()
            out = subprocess.run(
                [sys.executable, __file__, "--child", backend], env=env, capture_output=True, text=True, timeout=600
            )
            wall = time.perf_counter() - start
            lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
            if out.returncode or not lines:
                print(f"{backend} {phase}: FAILED rc={out.returncode}\n{out.stderr[-3000:]}")
                failed = True
                continue
            res = json.loads(lines[-1])
            bad = not res["matches_torch_topk"] or (phase == "warm" and (res["compile_s"] or not res["disk_load_s"]))
            failed |= bad
            print(f"{backend:14s} {phase}: process {wall:6.2f} s | {json.dumps(res)}" + ("  <-- FAIL" if bad else ""))
    where = os.path.join(cache, "cute-dsl")
    files = sorted(f for f in os.listdir(where) if f.endswith(".bin")) if os.path.isdir(where) else []
    print(f"cache files in {where}: {files}")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        sys.exit(main())
