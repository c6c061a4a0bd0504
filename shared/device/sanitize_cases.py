"""Representative small calls of every installed GPU backend, for compute-sanitizer.

Usage: compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize_cases.py [BACKEND...]
Each case is checked exactly too; the exit code is the number of failures.
"""

import os
import sys

import torch

import topk_core
from topk_core.testing import HINT_MODES, check_topk, make_hint, make_logits, make_seq_lens, poison_like

#: Backends that refuse calls without a pre_idx hint: their cases cycle through the kit's hint modes (session 40).
NEEDS_HINT = {"gvr"}

CASES = [  # rows, n, k, dtype, kind, next_n, compress_ratio
    (4, 3000, 64, torch.float32, "int_ties", 1, 1),
    (4, 9000, 100, torch.bfloat16, "nan", 2, 4),
    (2, 20000, 8, torch.float32, "plateau", 1, 1),
    (3, 700, 1000, torch.float16, "inf", 1, 1),
    (1, 40000, 2048, torch.float32, "randn", 1, 1),
    # split paths (radix_cutlass: chunks + merge; radix: clusters)
    (2, 131072, 2048, torch.float32, "int_ties", 1, 1),
    (4, 70001, 300, torch.bfloat16, "plateau", 2, 1),
    (1, 1 << 20, 2048, torch.float16, "randn", 1, 1),
    # radix_filter's many-CTA variants (DEFAULT 65+ rows, clusters of two at 33-64 rows, LIGHT 265+)
    (72, 20000, 300, torch.float32, "randn", 1, 1),
    (40, 70000, 2048, torch.float32, "nan", 1, 1),
    (300, 17000, 512, torch.float32, "randn", 1, 1),
    # float32's 256-thread variants on 132 SMs: LIGHT_ONE_WAVE (397-528 rows), SHORT_MANY (2048+ rows, N < 16K)
    (450, 17000, 1024, torch.float32, "int_ties", 1, 1),
    (2100, 3000, 256, torch.float32, "randn", 1, 1),
    # float32's two-read path with fastkey/pstore1/early (SHORT_F32: < 2048 rows, N < 16K; next_n = 2 takes the
    # prologue's divisions, a plateau overflows the candidates)
    (6, 12001, 300, torch.float32, "nan", 2, 1),
    (5, 8191, 2048, torch.float32, "plateau", 1, 1),
    # SHORT_F32_WIDE_8K (397-2047 rows on 132 SMs, N <= 8K: registers capped for 4 CTAs per SM, 2048 candidates;
    # the plateau overflows them, int_ties' threshold bin of ~900 keys fits) and SHORT_F32_WIDE (8K < N < 16K)
    (500, 6000, 1024, torch.float32, "plateau", 1, 1),
    (600, 8000, 2048, torch.float32, "int_ties", 1, 1),
    (450, 12000, 512, torch.float32, "randn", 1, 1),
    # LIGHT_16 (16-bit rows, 265+ rows of 16K-64K: registers capped for 4 CTAs per SM)
    (300, 20000, 512, torch.bfloat16, "int_ties", 1, 1),
    # radix_filter's FEW_HUGE_ROWS (N > 512K; the 1M fp16 row above goes there too)
    (2, 600000, 2048, torch.float32, "plateau", 1, 1),
    # radix_filter's bfloat16 word filter and one-digit select (DEFAULT, 65+ rows)
    (72, 40000, 2048, torch.bfloat16, "randn", 1, 1),
    (80, 30000, 1024, torch.float16, "randn", 1, 1),
    # radix's side rows: 30 clusters of 8 fit a 132-SM H200 at once, the other 2 rows run on a forked stream
    (32, 131072, 2048, torch.float32, "randn", 1, 1),
    # sgl_fused's resident path (session 18: at most one row per SM of 4K-8K columns, any dtype; WARP_SHORT before)
    (2, 8192, 2048, torch.float32, "int_ties", 1, 1),
    (100, 5000, 700, torch.bfloat16, "plateau", 1, 1),
    (8, 8000, 2048, torch.float16, "nan", 2, 1),
    # session 17: sgl_fused's warp path with 1024 sampled keys (WARP_MANY_SMALL: > 12 rows per SM, N <= 16K) and
    # with 8192 (WARP_FEW_LARGE: ~1 row per SM, 16K < N <= 32K)
    (1700, 9000, 2048, torch.float32, "plateau", 1, 1),
    (130, 24000, 2048, torch.float32, "int_ties", 1, 1),
    # session 36: sgl_fused's WARP_FEW_LARGE_16 (16-bit rows, one tile ahead; both sample in runs of 16 as vectors)
    (128, 30000, 2048, torch.bfloat16, "nan", 1, 1),
    # session 19: sgl_fused's WARP_MID_LARGE (2-12 rows per SM, N >= 64K: 4096 sampled keys, the select by
    # interpolation); the two-launch selects by interpolation take 1x40000, 2x131072, 40x70000 and 32x131072
    (400, 70000, 2048, torch.float32, "nan", 1, 1),
    # session 22: sgl_fused's WARP_FEW_LONG with its bracket guessed from the sample's moments (~1 row per SM, N >= 64K;
    # a plateau makes the guess's check fail); WARP_FEW_LARGE (130x24000) and the two-launch filters of 64K-128K
    # rows (2x131072, 40x70000, 32x131072) guess too
    (130, 66000, 2048, torch.float32, "plateau", 1, 1),
    # session 23: sgl_fused's 16-warp resident path (float32, at most one row per SM of 8K-16K columns, the k-th key
    # from the moments' guess; 16-bit resident rows guess too: 100x5000, 8x8000 above)
    (3, 16000, 2048, torch.float32, "plateau", 1, 1),
    # session 24: sgl_fused's two-launch filter in chunks of 1024 (4x30000) and 2048 (6x32768) where 8192 would leave
    # SMs idle (the page-table cases 8x32768 and 2x131072 take chunks of 2048 too)
    (4, 30000, 1000, torch.float32, "int_ties", 1, 1),
    (6, 32768, 2048, torch.float32, "nan", 1, 1),
    # session 25: sgl_fused's two-launch filter in chunks of 8192 on 16 warps (at most one program per SM)
    (32, 32768, 2048, torch.float32, "plateau", 1, 1),
    (16, 65536, 512, torch.float32, "nan", 1, 1),
    # session 31: sgl_fused's bracket guessed for k a small share of the row (no sure keys: the top key for hi) on
    # the warp path (WARP_FEW_LONG) and the two-launch path (16-bit rows there take float32's rules now)
    (130, 70000, 300, torch.float32, "randn", 1, 1),
    (8, 100000, 256, torch.bfloat16, "randn", 1, 1),
    # session 32: sgl_fused's all_cands picks (every key above the bracket's low bound a candidate): ~1 row per SM of
    # long rows at k <= 1024 and in 16-bit (chunks of 4096 / 8192), float32 2-12 rows per SM of long rows
    # (WARP_MID_LARGE_MANY; 300x33000 is WARP_MID, which took it in the session's final checks and no longer does);
    # the packed two-bit select steps of WARP_FEW_LARGE run on 130x24000 above
    (120, 70000, 512, torch.float32, "randn", 1, 1),
    (120, 70000, 2048, torch.bfloat16, "plateau", 1, 1),
    (800, 66000, 2048, torch.float32, "int_ties", 1, 1),
    (300, 33000, 2048, torch.float32, "nan", 1, 1),
    # session 35: sgl_fused's regions per warp (``warp_regions``) without all_cands on WARP_FEW_LONG (130x66000's
    # plateau above overflows a region into the exact path) and WARP_FEW_LARGE (130x24000 above); with it on every
    # all_cands pick (120x70000, 800x66000, 400x70000 above)
    (130, 131072, 2048, torch.float32, "nan", 1, 1),
]


#: sgl_fused's page-table function on each warp-path config (the late page pass or, session 28, the table streamed
#: beside the scores), run first: rows, n, k
#: (1x8192: the resident path (session 18; WARP_SHORT_PAGE before); 150 rows: WARP_FEW_LARGE_PAGE; 300:
#: WARP_MID_PAGE; 1100: the 4-warp one; 1700 rows: WARP_MANY_SMALL_PAGE, on 132 SMs; session 23: 4x12000 the 16-warp
#: resident path, 8x32768 and 2x131072 the two-launch select's page pass over all k slots at once; session 25: 8x131072
#: the 16-warp filter; session 31: 16-bit rows on float32's picks, 300x20000 bf16 on WARP_MID_PAGE, 8x32768 fp16 on
#: the two-launch page stream; session 34: 300x70000 and 900x66000 apply it as the select emits, its first chunk's
#: entries gathered before the search, at 2-6 and 6-12 rows per SM; session 35: 130x131072 WARP_FEW_LONG_PAGE's late
#: pass after regions per warp)
PAGE_CASES = [(1, 8192, 2048), (150, 20000, 2048), (300, 17000, 1024), (1100, 9000, 2048), (1700, 9000, 2048),
              (4, 12000, 2048), (8, 32768, 2048), (2, 131072, 600), (8, 131072, 2048),
              (300, 20000, 2048, torch.bfloat16), (8, 32768, 2048, torch.float16), (300, 70000, 2048),
              (130, 30000, 2048), (900, 66000, 2048), (130, 131072, 2048)]
PAGE_OFFSET = 7  # table[r, j] = j + 7, so the output minus 7 must be an exact top-k


def page_cases() -> int:
    from topk_core import sgl

    failures = 0
    for rows, n, k, *dtype in PAGE_CASES:
        dtype = dtype[0] if dtype else torch.float32
        label = f"sgl_fused page_table {rows}x{n} k={k} {str(dtype)[6:]} randn"
        try:
            logits = make_logits("randn", rows, n, dtype, "cuda", seed=rows + n, k=k)
            lens = make_seq_lens(rows, n, seed=n, mode="uniform", device="cuda")
            table = (torch.arange(n, dtype=torch.int32, device="cuda") + PAGE_OFFSET).repeat(rows, 1)
            out = sgl.fast_topk_transform_fused(logits, lens, table, None, k, backend="sgl_fused")
            torch.cuda.synchronize()
            check_topk(logits, lens, k, torch.where(out >= 0, out - PAGE_OFFSET, out))
            print("ok     ", label, flush=True)
        except Exception as exc:
            failures += 1
            print("FAIL   ", label, type(exc).__name__, str(exc)[:300], flush=True)
    return failures


#: sgl_fused's windows at runtime starts of 0-7 columns in buffers of N + 4 (float32) / N + 8 columns (session 30:
#: the stream from the window's start rounded down to 16 bytes, the row stride's unit): rows, n, dtype. 600x20000 and
#: 1700x9000 on the warp path, 8x32768 / 16x131072 / 64x32768 bf16 on the two-launch filter (one-tile and multi-tile
#: chunks); each through fast_topk_v2, the ragged offsets and the page table (its stream keeps unaligned scores).
WINDOW_CASES = [(600, 20000, "float32"), (1700, 9000, "float32"), (8, 32768, "float32"), (16, 131072, "float32"),
                (64, 32768, "bfloat16")]


def window_cases() -> int:
    from topk_core import sgl

    failures = 0
    k = 2048
    for rows, n, dtype in WINDOW_CASES:
        pad = 4 if dtype == "float32" else 8
        g = torch.Generator(device="cuda").manual_seed(rows + n)
        wide = torch.randn(rows, n + pad, generator=g, device="cuda").to(getattr(torch, dtype))
        starts = torch.randint(0, 8, (rows,), generator=g, device="cuda", dtype=torch.int32).clamp(max=pad)
        lens = make_seq_lens(rows, n, seed=n, mode="uniform", device="cuda")
        table = (torch.arange(n + pad, dtype=torch.int32, device="cuda") + PAGE_OFFSET).repeat(rows, 1)
        cu = torch.arange(rows + 1, dtype=torch.int32, device="cuda")
        offsets = torch.full((rows,), PAGE_OFFSET, dtype=torch.int32, device="cuda")
        for fn in ("v2", "ragged", "page_table"):
            label = f"sgl_fused windows {fn} {rows}x{n} k={k} {dtype} stride {n + pad}"
            try:
                if fn == "v2":
                    out = sgl.fast_topk_v2(wide, lens, k, row_starts=starts, backend="sgl_fused")
                elif fn == "ragged":
                    out = sgl.fast_topk_transform_ragged_fused(wide, lens, offsets, k, row_starts=starts,
                                                               backend="sgl_fused")
                else:
                    out = sgl.fast_topk_transform_fused(wide, lens, table, cu, k, row_starts=starts,
                                                        backend="sgl_fused")
                torch.cuda.synchronize()
                local = out if fn == "v2" else torch.where(out >= 0, out - PAGE_OFFSET, out)
                check_topk(wide, lens, k, local, row_starts=starts)
                print("ok     ", label, flush=True)
            except Exception as exc:
                failures += 1
                print("FAIL   ", label, type(exc).__name__, str(exc)[:300], flush=True)
    return failures


def main(names):
    names = names or [n for n in topk_core.available_backends() if n != "reference"]
    failures = 0
    picked = set(os.environ["SAN_CASES"].split(",")) if os.environ.get("SAN_CASES") else set()
    for name in names:
        # SAN_CASES=windows[,page][,ROWSxN..]: the windowed cases, without the page cases; "cases": neither
        if name == "sgl_fused" and "cases" not in picked:
            failures += (page_cases() if "windows" not in picked or "page" in picked else 0) + window_cases()
        for case, (rows, n, k, dtype, kind, next_n, ratio) in enumerate(CASES):
            if picked and f"{rows}x{n}" not in picked:
                continue  # SAN_CASES=ROWSxN,...: only those cases
            logits = make_logits(kind, rows, n, dtype, "cuda", seed=rows * n, k=k)
            lens = make_seq_lens(rows // next_n, n, next_n=next_n, compress_ratio=ratio, seed=n, device="cuda")
            lens[0] = -3
            mode = HINT_MODES[case % len(HINT_MODES)] if name in NEEDS_HINT else None
            hint = make_hint(logits, lens, k, next_n=next_n, compress_ratio=ratio, mode=mode) if mode else None
            label = f"{name} {rows}x{n} k={k} {dtype} {kind} nn={next_n} cr={ratio}" + (f" hint={mode}" if mode else "")
            try:
                idx = poison_like(torch.empty(rows, k, dtype=torch.int32, device="cuda"))
                val = poison_like(torch.empty(rows, k, dtype=dtype, device="cuda"))
                topk_core.top_k_varlen(logits, lens, k, pre_idx=hint, next_n=next_n, compress_ratio=ratio,
                                       return_values=True, out_indices=idx, out_values=val, backend=name)
                torch.cuda.synchronize()
                check_topk(logits, lens, k, idx, val, next_n=next_n, compress_ratio=ratio)
                print("ok     ", label, flush=True)
            except topk_core.BackendNotSupportedError as exc:
                print("refused", label, exc.reason, flush=True)
            except Exception as exc:
                failures += 1
                print("FAIL   ", label, type(exc).__name__, str(exc)[:300], flush=True)
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
