#!/bin/bash
# Session 43 (CPU only: no device was lent), prepared for the next device session. It puts first what session 43's
# audits changed, then session 42's plan (check42.sh's header) unchanged:
# 1. (this script, carry .carry/dsl, ~4 minutes) every backend's GPU conformance cases that the audits touched:
#    seq_lens at the int32 ends (test_int32_extreme_seq_lens: the Triton length formula wrapped at -2**31 before
#    topk-core 0.2.3; the CuTe kernels never did, this shows it on the GPU) and NaN rows (check_topk now compares
#    NaN values bit for bit on both sides), constant rows (every column equal: 1.5, ±inf, ±NaN, -2, a denormal)
#    and logits rows that are views into a wider NaN buffer (padded, and
#    unaligned: one column in, stride N + 5), then the Triton builds' length guard under compute-sanitizer memcheck:
#      bash shared/device/run.sh bash shared/device/check43.sh
#    Then (carry none on the warm machine, or .carry/dsl) radix_filter's four new GPU tests from session 43's review:
#      bash shared/device/run.sh bash -c 'timeout 500 python3 -m pytest -q -p no:cacheprovider -m gpu -k \
#        "unaligned_long or constant_long or next_n_ratio or signed_zero_at_kth" \
#        packages/topk-radix-filter/tests/test_conformance.py 2>&1 | tail -5'
# 2. within 30 s, carry .carry/flashinfer: the bench's new path on a few cells before any committed run (every input
#    set checked after the timed replays, fi.top_k[native] / fi.ragged[native], the permuting page table):
#      TOPK_COMMIT=<hash> bash shared/device/bench.sh bash -c 'python3 -m topk_core bench --grid dsa --sgl \
#        --limit 4 --replays 3 --out $OUT --tag smoke43'
#    If a candidate is WRONG after the timed replays, that is news about the timed path (FlashInfer's CUB under
#    capture included): read its note before the committed run.
# 3. session 42's three calls (check42.sh, the plateau bench, check42b.sh), then the committed run. The committed
#    dsa+decode pair took ~380 s in session 41; the new checks and two more FlashInfer columns add to it, so run the
#    grids in two calls (GRIDS=dsa, then GRIDS=decode) if the first nears the 600 s limit.
set -u
echo "=== int32 ends and NaN rows, every backend's GPU class ($(date +%T))"
timeout 300 python3 -m pytest -q -p no:cacheprovider -m gpu -k "int32_extreme or strided or (kinds and (nan or constant))" \
  packages/topk-core/tests/test_reference_conformance.py packages/topk-radix/tests/test_conformance.py \
  packages/topk-radix-filter/tests/test_conformance.py packages/topk-radix-cutlass/tests \
  packages/topk-sgl-fused/tests/test_conformance.py packages/topk-gvr/tests/test_conformance.py \
  > "$OUT/pytest-audit.log" 2>&1
echo "=== rc $?"; tail -8 "$OUT/pytest-audit.log"
echo "=== memcheck: sgl_fused and gvr at seq_lens -2**31 with next_n 2 ($(date +%T))"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 - <<'PY' 2>&1 | tail -6
import torch
from topk_core import top_k_varlen
from topk_core.testing import check_topk, make_hint, make_logits
x = make_logits("randn", 8, 20000, torch.float32, "cuda", seed=1, k=2048)
s = torch.tensor([-2**31, 20001, -2**31 + 1, 2**31 - 1], dtype=torch.int32, device="cuda")
for backend, hint in (("sgl_fused", None), ("gvr", make_hint(x, s, 2048, next_n=2))):
    idx, vals = top_k_varlen(x, s, 2048, next_n=2, return_values=True, backend=backend, pre_idx=hint)
    check_topk(x, s, 2048, idx, vals, next_n=2)
    print(backend, "exact; rows 0-1 empty:", bool((idx[:2] == -1).all()))
PY
echo "=== done ($(date +%T))"
