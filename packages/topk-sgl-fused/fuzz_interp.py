"""Dev only: random cases through every kernel path under the Triton interpreter (CPU).

Random rows, N, k, dtype, input kind, lengths (empty, negative, overlong), row_starts,
transforms (page table per row or by cu_seqlens_q, ragged), values on/off, and random
launch configs and scratch capacities (forcing overflow, compactions, scan or atomic
appends). Every result is checked exactly; failures are printed with their case.
Usage: python3 packages/topk-sgl-fused/fuzz_interp.py SEED CASES
"""

import os
import random
import sys
import warnings

os.environ["TRITON_INTERPRET"] = "1"  # before any kernel import
warnings.filterwarnings("ignore")

import torch  # noqa: E402

from topk_core.protocol import Call  # noqa: E402
from topk_core.reference import request_of_row  # noqa: E402
from topk_core.testing import KINDS, check_topk, make_logits, poison_like  # noqa: E402
from topk_sgl_fused import launch  # noqa: E402
from topk_sgl_fused.launch import Config  # noqa: E402

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
n_cases = int(sys.argv[2]) if len(sys.argv) > 2 else 100
rnd = random.Random(seed)
failures = 0
for case in range(n_cases):
    rows = rnd.randint(1, 5)
    n = rnd.choice([1, 5, 63, 64, 65, 200, 333, 700, 1100])
    k = rnd.choice([1, 2, 3, 7, 16, 31, 64, 100, 250, 700])
    dtype = rnd.choice([torch.float32, torch.bfloat16, torch.float16])
    kind = rnd.choice(KINDS)
    block = rnd.choice([32, 64, 128])
    stream = rnd.random() < 0.5
    cap = rnd.choice([k + block, 2 * k + block, 4 * k + 2 * block]) if stream else rnd.choice([4, 16, 64, 256, 4096])
    fast = rnd.random() < 0.6
    warps = rnd.choice([w for w in (1, 2, 4) if 32 * w <= block or not fast])
    cfg = Config(block, warps, rnd.choice([1, 2]), stream, atomic=rnd.random() < 0.6, fast=fast,
                 sample=rnd.choice([16, 64, 256]), cblock=rnd.choice([16, 32, 64]),
                 fast_block=rnd.choice([0, 2 * block]))
    x = make_logits(kind, rows, n, dtype, seed=case + 1000 * seed, k=k)
    lens = torch.tensor([rnd.choice([-5, 0, 1, k - 1, k, k + 1, n // 2, n, n + 10, rnd.randint(0, n)])
                         for _ in range(rows)], dtype=torch.int32)
    starts = None
    if rnd.random() < 0.4:
        starts = torch.tensor([rnd.randint(-3, n + 3) for _ in range(rows)], dtype=torch.int32)
    transform = rnd.choice(["none", "page_table", "ragged"])
    page = cu = offs = None
    if transform == "page_table":
        if rnd.random() < 0.5:
            page = (torch.arange(n)[None, :] + 100000 * torch.arange(rows)[:, None]).to(torch.int32)
        else:
            nreq = rnd.randint(1, 3)
            cuts = sorted(rnd.randint(0, rows) for _ in range(nreq - 1))
            cu = torch.tensor([0] + cuts + [rows], dtype=torch.int32)
            page = (torch.arange(n)[None, :] + 100000 * torch.arange(nreq)[:, None]).to(torch.int32)
    elif transform == "ragged":
        offs = torch.randint(0, 10**6, (rows,), dtype=torch.int32)
    idx = poison_like(torch.empty(rows, k, dtype=torch.int32))
    vals = poison_like(torch.empty(rows, k, dtype=dtype)) if rnd.random() < 0.5 else None
    call = Call(logits=x, seq_lens=lens, top_k=k, indices=idx, values=vals, row_starts=starts, transform=transform,
                page_table=page, cu_seqlens_q=cu, index_offsets=offs)
    try:
        launch.launch(call, config=cfg, cap=cap)
        if transform == "page_table":
            req = request_of_row(cu, rows, "cpu")
            local = torch.where(idx >= 0, idx - 100000 * req[:, None].int(), idx)
        elif transform == "ragged":
            local = torch.where(idx >= 0, idx - offs[:, None], idx)
        else:
            local = idx
        check_topk(x, lens, k, local.to(torch.int32), vals, row_starts=starts)
    except Exception as e:
        failures += 1
        facts = dict(rows=rows, n=n, k=k, dtype=dtype, kind=kind, cfg=cfg, cap=cap, transform=transform,
                     lens=lens.tolist(), starts=None if starts is None else starts.tolist())
        print("FAIL", case, facts, repr(e)[:300])
print(f"done: seed {seed}, {n_cases} cases, {failures} failures")
sys.exit(1 if failures else 0)
