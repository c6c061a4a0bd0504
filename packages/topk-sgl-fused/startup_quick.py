"""Dev only: first-call time of one geometry in a fresh process (compile, or disk-cache load).

Run it twice with the same TOPK_CACHE_DIR: the first run compiles (cold), the second
loads Triton's disk cache (warm). Prints seconds for the first and a second call.
"""

import time

t0 = time.perf_counter()
import torch  # noqa: E402

from topk_core import sgl  # noqa: E402
from topk_core.kernels import toolchain  # noqa: E402

x = torch.randn(128, 131072, device="cuda")
lens = torch.full((128,), 100000, dtype=torch.int32, device="cuda")
table = torch.arange(131072, device="cuda", dtype=torch.int32)[None].expand(128, -1).contiguous()
torch.cuda.synchronize()
t1 = time.perf_counter()
sgl.fast_topk_transform_fused(x, lens, table, None, 2048, backend="sgl_fused")
torch.cuda.synchronize()
t2 = time.perf_counter()
sgl.fast_topk_transform_fused(x, lens, table, None, 2048, backend="sgl_fused")
torch.cuda.synchronize()
t3 = time.perf_counter()
print(f"startup: imports+inputs {t1 - t0:.2f} s, first call {t2 - t1:.3f} s, second call {(t3 - t2) * 1e3:.2f} ms, "
      f"build_seconds {[round(v, 3) for v in toolchain.build_seconds.values()]}")
