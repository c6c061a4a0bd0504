"""Dev only: time sgl_fused (transform off / page table / ragged) against torch.topk on masked logits.

Method: fp32 unless --dtype, k=2048 unless --k, lengths uniform in [N/2, N]. One CUDA graph
runs the op over R rotating input buffers (R * bytes >= 256 MiB, so L2 is cold); the time
per op is the median over replays of replay time / R. Floor = rows * N * itemsize / 4178 GB/s.
SGLang fast_topk_v2 and its 1.2x target are the issue's H200 numbers (same method).

Usage: python3 packages/topk-sgl-fused/bench_quick.py [--shapes 1x8192,...] [--dtype bfloat16]
       [--k 512] [--modes none,page,ragged] [--sweep]   (--sweep: every launch config, mode none)
"""

from __future__ import annotations

import argparse
import statistics

import torch

from topk_core import sgl

SHAPES = ("1x8192,1x32768,1x131072,8x32768,8x131072,32x32768,32x131072,128x32768,128x131072,"
          "512x32768,512x131072,4096x8192,1024x65536")
SGL = {"1x8192": 7.9, "1x32768": 17.5, "1x131072": 44.2, "8x32768": 22.4, "8x131072": 59.9, "32x32768": 24.2,
       "32x131072": 62.8, "128x32768": 25.6, "128x131072": 87.3, "512x32768": 88.3, "512x131072": 278.3,
       "4096x8192": 268.5, "1024x65536": 259.4}
TARGET_CELLS = {"1x8192", "8x32768", "32x131072", "128x32768", "128x131072", "512x131072", "4096x8192",
                "1024x65536"}


def time_graph(fn, bufs, replays=15):
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for b in bufs[:2]:
            fn(*b)  # eager warm-up on the capturing stream: compile + scratch
    stream.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        for b in bufs:
            fn(*b)
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / len(bufs))
    return statistics.median(times)


def make_bufs(rows, n, k, dtype, dev):
    nbytes = rows * n * dtype.itemsize
    count = max(2, min(64, (256 << 20) // nbytes + 1))
    torch.manual_seed(0)
    bufs = []
    for _ in range(count):
        x = torch.randn(rows, n, device=dev).to(dtype)
        lens = torch.randint(n // 2, n + 1, (rows,), device=dev, dtype=torch.int32)
        bufs.append((x, lens))
    return bufs


def ops(rows, n, k, dev):
    page = torch.arange(n, device=dev, dtype=torch.int32)[None, :].expand(rows, n).contiguous()
    offsets = torch.arange(rows, device=dev, dtype=torch.int32) * n

    def none(x, lens):
        sgl.fast_topk_v2(x, lens, k, backend="sgl_fused")

    def page_table(x, lens):
        sgl.fast_topk_transform_fused(x, lens, page, None, k, backend="sgl_fused")

    def ragged(x, lens):
        sgl.fast_topk_transform_ragged_fused(x, lens, offsets, k, backend="sgl_fused")

    cols = torch.arange(n, device=dev)

    def torch_masked(x, lens):
        masked = torch.where(cols[None, :] < lens[:, None], x, torch.full((), float("-inf"), dtype=x.dtype,
                                                                          device=dev))
        torch.topk(masked, k, dim=1)

    return {"none": none, "page": page_table, "ragged": ragged, "torch": torch_masked}


def sweep_configs(rows, n, k):
    """The configs pick_config chooses between, plus neighbours (threads, programs per SM, scan appends)."""
    from topk_sgl_fused.launch import Config

    out = [Config(2048, 8, 2, False, maxnreg=128), Config(4096, 16, 1, False), Config(1024, 4, 4, False)]
    if 2 * k + 2 * 4096 <= 1 << 16:
        out += [Config(4096, 16, 1, True), Config(4096, 16, 1, True, atomic=False), Config(2048, 8, 1, True),
                Config(8192, 16, 1, True), Config(2048, 8, 2, True, maxnreg=128)]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--k", type=int, default=2048)
    ap.add_argument("--modes", default="none,page,ragged,torch")
    ap.add_argument("--sweep", action="store_true")
    a = ap.parse_args()
    from topk_sgl_fused import launch

    dtype = getattr(torch, a.dtype)
    dev = torch.device("cuda")
    modes = a.modes.split(",")
    print(f"dtype {a.dtype} k {a.k}")
    if a.sweep:
        print(f"{'rows x N':>12} {'config':<34} {'us':>8}")
    else:
        print(f"{'rows x N':>12} {'floor':>6} " + " ".join(f"{m:>8}" for m in modes)
              + f" {'page/none':>9} {'SGL v2':>7} {'SGL/ours':>8}  config")
    picked = launch.pick_config
    for shape in a.shapes.split(","):
        rows, n = map(int, shape.split("x"))
        bufs = make_bufs(rows, n, a.k, dtype, dev)
        fns = ops(rows, n, a.k, dev)
        if a.sweep:
            for cfg in sweep_configs(rows, n, a.k):
                launch.pick_config = lambda *args, _c=cfg: _c
                try:
                    us = time_graph(fns["none"], bufs)
                    print(f"{shape:>12} {str(cfg)[7:-1]:<34} {us:8.1f}", flush=True)
                except Exception as exc:  # report and continue the sweep
                    print(f"{shape:>12} {str(cfg)[7:-1]:<34} failed: {type(exc).__name__}: {exc}", flush=True)
                finally:
                    launch.pick_config = picked
            continue
        res = {m: time_graph(fns[m], bufs) for m in modes}
        floor = rows * n * dtype.itemsize / 4178e3
        ref = SGL.get(shape) if a.dtype == "float32" and a.k == 2048 else None
        worst = max((res[m] for m in ("none", "page", "ragged") if m in res), default=None)
        ratio = f"{ref / worst:8.2f}" if ref and worst else f"{'':>8}"  # slowest of our modes
        page_over = f"{res['page'] / res['none']:9.3f}" if "page" in res and "none" in res else f"{'':>9}"
        mark = " *" if shape in TARGET_CELLS else ""
        cfg = launch.pick_config(rows, n, a.k, torch.cuda.get_device_properties(dev).multi_processor_count)
        print(f"{shape:>12} {floor:6.1f} " + " ".join(f"{res[m]:8.1f}" for m in modes)
              + f" {page_over} {ref if ref else '':>7} {ratio}{mark}  {str(cfg)[7:-1]}", flush=True)
        del bufs
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
