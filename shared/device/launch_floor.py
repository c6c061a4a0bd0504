"""Dev: the per-call floor of the bench harness (CUDA-graph replay), from trivial kernels.

Usage (device): bash shared/device/run.sh python3 shared/device/launch_floor.py
"""

import torch

from topk_core.bench.timing import time_graph

with torch.cuda.stream(torch.cuda.Stream()):
    one = torch.zeros(1, device="cuda")
    row = torch.randn(1, 131072, device="cuda")
    for name, fn in [("add_(1) on 1 element", lambda i: one.add_(1)),
                     ("max of one 128K fp32 row", lambda i: row.amax(dim=1)),
                     ("copy of one 128K fp32 row", lambda i: row.clone())]:
        for i in range(32):
            fn(i)
        torch.cuda.synchronize()
        print(f"launch_floor: {name}: {time_graph(fn, 32, replays=20):.2f} us per call")
