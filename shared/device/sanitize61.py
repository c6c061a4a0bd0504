"""Dev (device): one small launch of radix_filter and sgl_fused each, for compute-sanitizer (session 61's calls 7-9,
what the budget left room for; ``sanitize_cases.py`` is the broader set, every backend over ties, NaN, plateaus and the
split and many-CTA variants, each checked exact, and the one to run when there is time).

8 float32 rows of 32768 columns, seq_lens uniform in [16384, 32768], k = 2048 through ``top_k_varlen``. Run it under
a tool with host API errors off: CuTe DSL's compute-capability probe calls cuGetProcAddress_v2 for entry points the
driver refuses, which memcheck otherwise counts as errors (34 in session 61, none of them in a kernel):
  bash shared/device/run.sh compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize61.py
  (the same with --tool racecheck; carry .carry/dsl)
"""

import torch

from topk_core import top_k_varlen

torch.manual_seed(61)
for backend in ("radix_filter", "sgl_fused"):
    x = torch.randn(8, 32768, device="cuda")
    seq_lens = torch.randint(16384, 32769, (8,), device="cuda", dtype=torch.int32)
    print("=== backend", backend, flush=True)
    top_k_varlen(x, seq_lens, 2048, backend=backend)
    torch.cuda.synchronize()
    print(backend, "done", flush=True)
