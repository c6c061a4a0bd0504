"""The ``topk`` command: info | explain | check | bench."""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import sys
from dataclasses import replace
from pathlib import Path

import torch

from . import __version__, registry
from .api import explain
from .protocol import Problem
from .testing.inputs import HINT_NOISE, KINDS


def _device_line() -> str:
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        return f"{p.name} (sm_{p.major}{p.minor}, {p.multi_processor_count} SMs, {p.total_memory >> 30} GiB)"
    return "no CUDA device (CPU only)"


#: The JSON's method string (what ``run_grid`` does; benchmarks/results/README.md has the long form).
METHOD_GPU = ("CUDA-graph replay over rotating input sets (up to 32, 256 MB in all where 32 sets reach it; smaller "
              "cells stay partly in L2; per-cell rotations and set_bytes in the results), median of replays "
              "(spreads_us: min, quartiles, max), each queued behind a sleep kernel so host launch latency is not "
              "counted; seq_lens uniform in [N/2, N]; every input set checked exactly after the eager pass and "
              "again after the timed replays; floor_us reads all N columns, floor_valid_us the valid ones")
METHOD_CPU = ("wall clock over 2 input sets, median of 3 passes (no graphs; the plumbing, not a measurement); "
              "every input set checked exactly before and after")


def _commit() -> str | None:
    """The tree's commit: TOPK_COMMIT (a device copy has no .git) or ``git rev-parse HEAD``; None if neither."""
    import os
    import subprocess

    if os.environ.get("TOPK_COMMIT"):
        return os.environ["TOPK_COMMIT"]
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or None if out.returncode == 0 else None
    except Exception:
        return None


def cmd_info(args) -> int:
    print(f"topk-core {__version__}  torch {torch.__version__}  python {platform.python_version()}")
    print(f"device: {_device_line()}")
    for name, entry in sorted(registry.entries().items()):
        if entry.backend is None:
            status = f"failed to load: {entry.error}"
        else:
            status = entry.backend.environment() or "ready"
        print(f"  {name:<14} {entry.dist} {entry.version:<8} {status}")
    return 0


def cmd_explain(args) -> int:
    cap = tuple(torch.cuda.get_device_capability(0)) if torch.cuda.is_available() and args.device == "cuda" else None
    problem = Problem(rows=args.rows, n=args.n, k=args.k, dtype=args.dtype, device=args.device, capability=cap,
                      next_n=args.next_n, compress_ratio=args.compress_ratio, has_hint=args.hint,
                      return_values=args.return_values)
    print(explain(problem=problem))
    return 0


def _runs(name: str, device: str, **facts) -> bool:
    """Whether backend ``name`` takes a typical call (4 x 4096 float32, k = 64) with these facts on ``device``."""
    from .auto import judge

    capability = torch.cuda.get_device_capability() if device == "cuda" else None
    plain = Problem(rows=4, n=4096, k=64, dtype="float32", device=device, capability=capability)
    return judge(name, replace(plain, **facts)).usable


def _check_hint(name: str, device: str) -> str | None:
    """"previous" for a backend that runs a typical call only with a pre_idx hint (gvr), else None: without one,
    ``topk check`` would see nothing but its refusals."""
    return "previous" if not _runs(name, device) and _runs(name, device, has_hint=True) else None


def cmd_check(args) -> int:
    """Run the conformance suite against each installed (or named) backend on this device."""
    import tempfile

    import pytest

    device = "cuda" if torch.cuda.is_available() else "cpu"
    names = args.backends or registry.available_backends()
    body = ["import pytest", "from topk_core.testing import BackendConformance, Claims, GpuConformance",
            "from topk_core.testing import TransformConformance"]
    for name in names:
        # the SGLang functions' suite for backends that serve them (they pass no hint and may fuse a transform)
        sgl_suite = ", TransformConformance" if _runs(name, device, transform="ragged", row_starts=True) else ""
        bases = "BackendConformance" + sgl_suite + (", GpuConformance" if device == "cuda" else "")
        cls = "Test_" + "".join(c if c.isalnum() else "_" for c in name)
        body += [f"class {cls}({bases}):", f"    backend = {name!r}", f"    device = {device!r}",
                 f"    scale = {'full' if device == 'cuda' else 'small'!r}",
                 "    claims = Claims(dtypes=())  # refusals allowed, but each must carry a reason",
                 f"    hint = {_check_hint(name, device)!r}"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "test_topk_check.py"
        path.write_text("\n".join(body) + "\n")
        print(f"topk check: {', '.join(names)} on {device}")
        return int(pytest.main([str(path), "-q", "-p", "no:cacheprovider", "-x"] + args.pytest_args))


def cmd_bench(args) -> int:
    from .bench import candidates as cands
    from .bench import report
    from .bench.grids import GRIDS
    from .bench.run import run_grid
    from .bench.timing import copy_bandwidth_gbs

    device = "cuda" if torch.cuda.is_available() else "cpu"
    grid = args.grid or ("dsa" if device == "cuda" else "cpu")
    shapes = GRIDS[grid]
    if device == "cpu" and grid != "cpu":
        print("topk bench: no GPU here; timing the reference backend on the small CPU grid")
        shapes = GRIDS["cpu"]
    if args.limit:
        shapes = shapes[: args.limit]
    candidates = cands.default_candidates(device, args.only, args.sgl)
    copy_gbs = copy_bandwidth_gbs() if device == "cuda" else None
    noise = args.hint  # --hint [NOISE]: a simulated previous decode step's top-k (make_hint), or None
    hint = None if noise is None else "previous"
    rows = run_grid(shapes, candidates, device, copy_gbs, replays=args.replays, hint=hint,
                    hint_noise=HINT_NOISE if noise is None else noise, kind=args.kind)
    names = [c.name for c in candidates if any(c.name in r.times for r in rows)]
    now = dt.datetime.now(dt.UTC)
    meta = dict(
        date=now.strftime("%Y-%m-%d %H:%M UTC"), command="topk " + " ".join(sys.argv[1:]), grid=grid,
        device=device, gpu=torch.cuda.get_device_name(0) if device == "cuda" else platform.processor() or "cpu",
        torch=torch.__version__, cuda=torch.version.cuda, topk_core=__version__,
        backends={n: e.version for n, e in registry.entries().items()},
        flashinfer=cands.flashinfer_version(), copy_gbs=copy_gbs, hint=hint,
        hint_noise=noise, kind=args.kind,
        method=METHOD_GPU if device == "cuda" else METHOD_CPU, commit=_commit(),
    )
    for mod in ("triton", "cutlass"):
        try:
            meta[mod] = __import__(mod).__version__
        except Exception:
            meta[mod] = None
    text = report.table(rows, names)
    hinted = f", pre_idx hints ({hint}, noise {meta['hint_noise']})" if hint else ""
    hinted += "" if args.kind == "randn" else f", {args.kind} rows"
    print(f"\ntopk bench: grid {grid} on {meta['gpu']}, copy {copy_gbs or 0:.0f} GB/s{hinted}, {meta['date']}")
    print(text)
    if not args.no_save:
        out = Path(args.out)
        # the default noise unnamed; another without a dot (the writer adds its own suffixes)
        noise_label = "" if noise in (None, HINT_NOISE) else f"{noise:g}".replace(".", "p")
        suffix = ("-hint" + noise_label if hint else "") + ("" if args.kind == "randn" else "-" + args.kind)
        suffix += ("-" + args.tag) if args.tag else ""
        stem = out / f"{now:%Y-%m-%d}-{device}-{grid}{suffix}"
        for path in report.write(rows, names, meta, stem):
            print(f"wrote {path}")
    wrong = [f"{r.shape.label}:{n}" for r in rows for n, why in r.notes.items() if why.startswith("WRONG")]
    if wrong:
        print("WRONG results (timing skipped): " + ", ".join(wrong))
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="topk", description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("info", help="installed backends, versions, environment, device").set_defaults(fn=cmd_info)
    p = sub.add_parser("explain", help="how auto ranks the backends for one shape")
    p.add_argument("--rows", type=int, default=1)
    p.add_argument("--n", type=int, default=131072)
    p.add_argument("--k", type=int, default=2048)
    p.add_argument("--dtype", default="float32", choices=["float32", "bfloat16", "float16"])
    p.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    p.add_argument("--next-n", type=int, default=1)
    p.add_argument("--compress-ratio", type=int, default=1)
    p.add_argument("--hint", action="store_true")
    p.add_argument("--return-values", action="store_true")
    p.set_defaults(fn=cmd_explain)
    p = sub.add_parser("check", help="run the conformance suite on the installed backends here")
    p.add_argument("backends", nargs="*")
    p.add_argument("--pytest-args", nargs=argparse.REMAINDER, default=[])
    p.set_defaults(fn=cmd_check)
    p = sub.add_parser("bench", help="time the backends and peers on a shape grid")
    p.add_argument("--grid", default=None, help="dsa | decode | small | cpu (default: dsa, or cpu without a GPU)")
    p.add_argument("--only", nargs="*", help="candidate names to time (auto is always timed)")
    p.add_argument("--sgl", action="store_true", help="also time topk_core.sgl with fused transforms")
    p.add_argument("--hint", nargs="?", type=float, const=HINT_NOISE, default=None, metavar="NOISE",
                   help="give every top_k_varlen call a pre_idx hint (a previous decode step's top-k: the scores "
                        f"plus NOISE x their deviation, default {HINT_NOISE}; ~1%% of entries corrupted), built "
                        "before timing; backends that need one run only with it")
    p.add_argument("--kind", default="randn", choices=KINDS,
                   help="the rows' values: randn (default) or another input kind of the conformance kit "
                        f"({', '.join(KINDS)}); plateau: a 0.0 plateau across every row's k-th value")
    p.add_argument("--limit", type=int, default=0, help="first N shapes only")
    p.add_argument("--replays", type=int, default=20)
    p.add_argument("--out", default="benchmarks/results")
    p.add_argument("--tag", default="")
    p.add_argument("--no-save", action="store_true")
    p.set_defaults(fn=cmd_bench)
    args = parser.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    raise SystemExit(main())
