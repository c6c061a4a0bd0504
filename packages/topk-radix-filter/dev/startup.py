"""Dev-only: seconds to the first radix_filter result in a fresh process (compile or disk cache)."""

import time

t0 = time.time()
import torch  # noqa: E402

from topk_core.api import top_k_varlen  # noqa: E402

x = torch.randn(4, 10000, device="cuda")
lens = torch.full((4,), 9000, dtype=torch.int32, device="cuda")
torch.cuda.synchronize()
t1 = time.time()
top_k_varlen(x, lens, 256, backend="radix_filter")
torch.cuda.synchronize()
t2 = time.time()
top_k_varlen(x.bfloat16(), lens, 256, return_values=True, backend="radix_filter")
torch.cuda.synchronize()
t3 = time.time()
print(f"startup: imports {t1 - t0:.2f}s, first call (fp32) {t2 - t1:.2f}s, second build (bf16+values) {t3 - t2:.2f}s")
