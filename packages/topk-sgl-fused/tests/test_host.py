"""Host logic without a GPU: checks, scores, launch configuration, scratch sizing, entry point."""

import functools
import subprocess
import sys
from dataclasses import replace

import pytest

from topk_core.protocol import Problem
from topk_sgl_fused import checks, launch, split_configs
from topk_sgl_fused._plugin import backend

H200 = dict(device="cuda", capability=(9, 0))


def test_supports_what_the_readme_claims():
    for dtype in ("float32", "bfloat16", "float16"):
        for transform in ("none", "page_table", "ragged"):
            p = Problem(rows=4, n=1000, k=2048, dtype=dtype, transform=transform, row_starts=True, next_n=4,
                        compress_ratio=4, has_hint=True, return_values=True, **H200)
            assert checks.supports(p) is None


@pytest.mark.parametrize("facts,words", [
    (dict(dtype="float64"), "dtype"),
    (dict(transform="paged"), "transform"),
    (dict(device="cpu", capability=None), "TRITON_INTERPRET"),
    (dict(capability=(8, 0)), "sm_80"),
    (dict(capability=(10, 0)), "sm_100"),
    (dict(n=(1 << 30) + 1), "N="),
    (dict(k=(1 << 30) + 1), "k="),
    (dict(device="mps", capability=None), "CUDA"),
])
def test_refusals_carry_reasons(facts, words):
    base = dict(rows=2, n=100, k=8, dtype="float32", **H200)
    base.update(facts)
    reason = checks.supports(Problem(**base))
    assert isinstance(reason, str) and words in reason


def test_cpu_only_with_the_interpreter():
    p = Problem(rows=2, n=100, k=8, dtype="float32", device="cpu")
    assert checks.supports(p, interpreter=True) is None
    assert checks.supports(p, interpreter=False)


def test_supports_never_raises():
    class Weird:
        dtype = "float32"
        transform = "none"
        device = "cuda"
        capability = "nonsense"

    assert isinstance(checks.supports(Weird()), str)


def test_score_is_pure_and_follows_the_measured_tables():
    plain = Problem(rows=128, n=131072, k=2048, dtype="float32", **H200)
    fused = Problem(rows=128, n=131072, k=2048, dtype="float32", transform="page_table", **H200)
    assert checks.score(plain) == checks.score(plain) == checks.MEASURED["none"][(128, 131072)]
    assert checks.score(fused) == checks.MEASURED["page_table"][(128, 131072)]
    windows = Problem(rows=8, n=32768, k=2048, dtype="float32", transform="ragged", row_starts=True, **H200)
    assert checks.score(windows) == checks.MEASURED["ragged"][(8, 32768)]
    for transform in ("none", "page_table", "ragged"):  # positive far from the grid too: above reference
        assert checks.score(Problem(rows=3, n=5, k=2, dtype="float32", transform=transform, **H200)) > 0
        assert checks.score(Problem(rows=1 << 20, n=1 << 24, k=2048, dtype="float32", transform=transform)) > 0


def test_configs(monkeypatch):
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    assert not launch.pick_config(8, 8192, 512, 132).stream  # N >= 8k but too short to sample
    few = launch.pick_config(1, 8192, 2048, 132)
    many = launch.pick_config(4096, 8192, 2048, 132)
    assert not few.stream and not many.stream  # N < 8k: two passes
    assert launch.pick_config(8, 131072, 2048, 132).stream
    assert not launch.pick_config(8, 131072, 16384, 132).stream  # k above STREAM_MAX_K
    assert few.num_warps > many.num_warps and few.progs_per_sm < many.progs_per_sm
    assert launch.pick_config(4096, 131072, 2048, 132).progs_per_sm == 1  # ~220 registers: one per SM
    # The fast path wherever its bracket fits the candidate scratch (a bigger sample where needed) ...
    for rows, n, k in ((1, 8192, 2048), (4096, 8192, 2048), (128, 131072, 2048), (8, 1 << 20, 2048)):
        c = launch.pick_config(rows, n, k, 132)
        assert c.fast and launch.expected_candidates(n, k, c.sample) <= launch.cap_for(c, k)
        assert launch.fast_block(c) % launch.threads(c) == 0
    assert launch.pick_config(8, 1 << 20, 2048, 132).sample > launch.pick_config(8, 131072, 2048, 132).sample
    # ... else the exact paths alone, as before it.
    assert not launch.pick_config(8, 131072, 16384, 132).fast


def test_scratch_sizes(monkeypatch):
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    stream = launch.pick_config(8, 131072, 2048, 132)
    cap = launch.cap_for(stream, 2048)
    assert cap >= 2048 + stream.block  # a chunk always fits after a compaction
    assert launch.cap_for(launch.pick_config(8, 8192, 2048, 132), 2048) == max(launch.CAP, launch.FAST_CAP)
    assert launch.scratch_bytes(10, cap) == 10 * (2 * cap + 32) * 4
    # Bounded by the grid, never by rows or N: one scratch per stream serves every batch.
    assert launch.scratch_bytes(132 * 4, cap) < 64 << 20
    for rows in (1, 4096):  # the fast path's per-thread lists are capped too
        for n in (8192, 131072, 1 << 30):
            c = launch.pick_config(rows, n, 2048, 132)
            grid = min(rows, 132 * c.progs_per_sm)
            assert launch.scratch_bytes(grid, launch.cap_for(c, 2048), launch.slots_for(c, n), launch.threads(c)) \
                < 80 << 20


def test_environment_under_the_interpreter(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert backend.environment() is None
    monkeypatch.setenv("TRITON_INTERPRET", "0")
    reason = backend.environment()
    import torch

    assert (reason is None) == torch.cuda.is_available()


def test_entry_point_does_not_import_triton():
    code = ("import sys; from importlib.metadata import entry_points; "
            "ep = [e for e in entry_points(group='topk.backends') if e.name == 'sgl_fused'][0]; "
            "b = ep.load(); assert b.name == 'sgl_fused'; "
            "assert 'triton' not in sys.modules, 'triton imported'; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr


@pytest.mark.parametrize("rows", [1, 8, 128, 4096, 100000])
@pytest.mark.parametrize("n", [1000, 8192, 32768, 131072, 1 << 20, 1 << 30])
def test_pick_split_shapes(rows, n, monkeypatch):
    """Chunks are whole tiles, per-list counts fit 16 bits, the grid's second axis stays small,
    and the exact stream fallback always gets the scratch it needs."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    for k in (1, 2048, 16384):
        c = launch.pick_split(rows, n, k, 132)
        for elem_bytes in (2, 4):
            a, v, th = launch.tile(c, elem_bytes)
            assert a >= 1 and v * elem_bytes == 16
            assert c.chunk % (a * v * th) == 0
            assert c.chunk // th < 1 << 16
        assert -(-n // c.chunk) <= 2048
        if n >= launch.STREAM_MIN_RATIO * k and k <= launch.STREAM_MAX_K and n >= launch.STREAM_MIN_N:
            assert c.cap >= k + c.block


def test_pick_split_small_chunks(monkeypatch):
    """Calls of 16K+ columns whose 8192-column chunks would leave SMs idle take chunks of 1024 (at most one program
    per SM) or 2048 (at most two; session 24; 16-bit rows too since session 31, in tiles of as many columns); calls
    with a program per SM already and shorter rows keep theirs."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    def chunk(rows, n, elem_bytes=4, sms=132):
        c = launch.pick_split(rows, n, 2048, sms)
        a, v, th = launch.tile(c, elem_bytes)
        one_wave = rows * -(-n // c.chunk) <= sms  # SPLIT_ONE_WAVE_WARPS (session 25)
        assert c.chunk == a * v * th and c.warps == (4 if c.chunk < 8192 else 16 if one_wave else 8)
        return c.chunk

    assert chunk(1, 32768) == chunk(4, 32768) == chunk(1, 131072) == chunk(1, 20000) == 1024
    assert chunk(8, 32768) == chunk(16, 32768) == chunk(2, 131072) == chunk(1, 262144) == 2048
    assert chunk(32, 32768) == chunk(8, 131072) == chunk(16, 65536) == chunk(32, 131072) == 8192
    assert chunk(8, 32768, 2) == 2048 and chunk(1, 131072, 2) == 1024
    assert chunk(4, 3000) == chunk(2, 16384) == 4096  # up to 16K columns: not timed
    assert chunk(8, 32768, sms=264) == 1024 and chunk(8, 32768, sms=64) == 2048 and chunk(8, 32768, sms=32) == 8192
    for rows, n in ((1, 32768), (8, 32768), (2, 131072), (5, 20000)):  # at most 1 (1024) / 2 (2048) per SM
        c = chunk(rows, n)
        assert rows * -(-n // c) <= c // 1024 * 132


def test_pick_split_one_wave_warps(monkeypatch):
    """Filters in chunks of 8192 take 16 warps where the call has at most one program per SM (session 25), 8 where
    it has more."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    def warps(rows, n, sms=132):
        c = launch.pick_split(rows, n, 2048, sms)
        assert c.chunk == 8192 and c.chunk == 256 * c.r * c.warps
        return c.warps

    assert warps(8, 131072) == warps(16, 65536) == warps(32, 32768) == launch.SPLIT_ONE_WAVE_WARPS == 16
    assert warps(16, 131072) == warps(32, 131072) == warps(64, 32768) == warps(34, 32768) == 8
    assert warps(33, 32768) == 16  # 132 programs on 132 SMs
    assert warps(32, 32768, sms=128) == 16 and warps(32, 32768, sms=127) == 8


def test_pick_warp_page_two_tiles_ahead(monkeypatch):
    """The page table's warp configs of 2-12 rows per SM stream two tiles ahead (session 25), every transform's
    float32 all_cands rows of 2-6 per SM (session 34) and float32 rows of about one per SM of 16K-32K columns without
    the page table (session 36); the other identity transform configs, WARP_FEW_LONG_PAGE, the many-row configs, rows
    of at most 8K columns, 16-bit rows of WARP_FEW_LARGE and (session 28, its page table streamed beside the scores)
    about one row per SM of 16K-32K columns keep one."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    def ahead(rows, n, transform="page_table"):
        config = launch.pick_warp(rows, n, 2048, 132, transform)
        assert isinstance(config, launch.WarpConfig)
        return config.ahead

    assert ahead(512, 131072) == ahead(1024, 65536) == ahead(256, 32768) == 2
    assert ahead(300, 17000) == launch.WARP_PAGE_AHEAD == 2
    assert ahead(128, 32768) == ahead(150, 20000) == 1
    assert ahead(1024, 131072, "none") == ahead(1024, 131072, "ragged") == 1
    # session 53: rows short for their k (n < 48 k) at 2-12 per SM drop all_cands and stream two tiles ahead
    assert ahead(1024, 65536, "none") == ahead(1024, 65536, "ragged") == launch.WARP_REGIONS_MID_AHEAD == 2
    assert ahead(128, 32768, "none") == ahead(150, 20000, "ragged") == launch.WARP_FEW_LARGE_AHEAD_F32 == 2
    assert launch.pick_warp(128, 32768, 2048, 132, "none", 2) == launch.WARP_FEW_LARGE_16
    assert launch.WARP_FEW_LARGE_16.ahead == 1
    assert ahead(512, 131072, "none") == ahead(300, 65536, "ragged") == launch.WARP_ALL_CANDS_MID_AHEAD == 2
    assert ahead(512, 131072, "none") == 2 and launch.pick_warp(512, 131072, 1024, 132, "none", 2).ahead == 1
    assert ahead(512, 32768, "none") == 1
    assert ahead(128, 131072) == ahead(4096, 8192) == ahead(512, 8192) == ahead(1024, 8192) == 1


def test_pick_split_select_by_interpolation(monkeypatch):
    """The select by interpolation (``sbits=0``, with ``bisect``, 8 select warps) and the early filter tile on rows
    of SPLIT_SECANT_MIN_N+ columns (not many short rows), where they were timed faster (16-bit rows: session 31)."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    def secant(rows, n):
        c = launch.pick_split(rows, n, 2048, 132)
        assert (c.sbits == 0) == c.bisect == c.early and c.select_warps in (4, 8)
        return c.sbits == 0

    lo = launch.SPLIT_SECANT_MIN_N
    assert secant(1, lo) and secant(8, 131072) and secant(32, 131072) and secant(100, lo) and secant(1, 1 << 20)
    assert not secant(32, lo - 1) and not launch.pick_split(32, lo - 1, 2048, 132).bisect


def test_pick_split_sample(monkeypatch):
    """Rows over SPLIT_LARGE_SAMPLE_MIN_N columns sample 4096 keys (timed faster at 128K), others 1024 or 2048; the
    chunks and the candidate cap do not depend on the larger sample."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    pick = launch.pick_split
    assert pick(32, 131072, 2048, 132).sample == pick(8, 65537, 2048, 132).sample == 4096
    assert pick(32, 65536, 2048, 132).sample == pick(1, 32768, 2048, 132).sample == 2048
    assert pick(32, 16384, 2048, 132).sample == 1024
    big = pick(32, 131072, 2048, 132)
    monkeypatch.setattr(split_configs, "SPLIT_LARGE_SAMPLE_MIN_N", 1 << 30)  # where pick_split reads it
    small = pick(32, 131072, 2048, 132)
    assert small.sample == 2048 and (big.chunk, big.cap) == (small.chunk, small.cap)


def test_pick_split_one_block(monkeypatch):
    """The select copies the sure columns and runs the page-table pass over all k slots at once up to 16 per
    thread (session 23), and passes both to the kernel only where they apply."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    for rows, n, k in ((8, 32768, 2048), (1, 131072, 600), (4096, 16384, 2048), (2, 1 << 20, 16384)):
        c = launch.pick_split(rows, n, k, 132)
        assert c.page_kb == c.sure_kb == launch.late_block(c, k) <= 16 * 32 * c.select_warps
        assert c.page_kb >= k or c.page_kb == 16 * 32 * c.select_warps
        for t in (0, 1, 2):
            _, const = launch.split_constexprs(c, 32, 4, t, False, True)
            assert const["SURE_KB"] == c.sure_kb and ("PAGE_KB" in const) == (t == 1)


def test_pick_split_guess(monkeypatch):
    """The filter's bracket is guessed first (``guess``), with candidate chunks of 4096, on rows of 32K-128K columns
    that select by interpolation (timed faster at 32K and 128K), not on longer rows (1x256K slower, 1x1M even) or
    shorter ones (not timed)."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    pick = launch.pick_split
    for rows, n in ((32, 131072), (1, 65537), (8, 32768), (32, 65536)):
        c = pick(rows, n, 2048, 132)
        assert c.guess == launch.SPLIT_GUESS > 0 and c.cblock == 4096 and c.sbits == 0, c
    assert pick(8, 32767, 2048, 132).guess == pick(1, 131073, 2048, 132).guess == 0
    assert pick(1, 1 << 20, 2048, 132).guess == 0


def test_pick_warp_16bit(monkeypatch):
    """16-bit rows take float32's warp configs, below 16 warps with half the 16-byte runs per tile, so that a tile
    holds as many keys (session 31), and one tile ahead where float32's WARP_FEW_LARGE streams two (session 36); the
    resident picks keep their 16-bit config, and RESIDENT_WIDE is float32's alone. (``all_cands`` depends on the
    dtype on its own: ``test_pick_warp_all_cands``.)"""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    monkeypatch.setattr(launch, "all_cands_config", lambda config, *a: config)
    seen = 0
    for rows in (1, 128, 512, 1024, 4096):
        for n in (8192, 12288, 16384, 32768, 65536, 131072):
            for t in ("none", "page_table", "ragged"):
                wide, half = launch.pick_warp(rows, n, 2048, 132, t), launch.pick_warp(rows, n, 2048, 132, t, 2)
                if isinstance(wide, launch.WarpConfig):
                    same = wide.warps == 16
                    if wide == launch.WARP_FEW_LARGE:
                        wide = launch.WARP_FEW_LARGE_16
                    assert half == (wide if same else replace(wide, a=wide.a // 2)) and wide.a % 2 == 0, (rows, n, t)
                    seen += 1
                elif wide == launch.RESIDENT:
                    assert half == launch.RESIDENT_16
                elif wide == launch.RESIDENT_WIDE:  # 16-bit: the warp path from 0.9 rows per SM, else two launches
                    assert isinstance(half, launch.WarpConfig) == (rows >= 0.9 * 132), (rows, n, t, half)
                else:
                    assert half is None, (rows, n, t, wide, half)
    assert seen > 40


def test_pick_warp_all_cands(monkeypatch):
    """Every key above the bracket a candidate (``all_cands``, session 32) where it was timed faster: float32 rows of
    2-12 per SM of 64K+ columns and at least 48 k (session 53; not shorter rows) with chunks of 2048;
    about one row per SM of long rows in 16-bit or at k <= 1024 (chunks of 8192 / 4096). Never on short rows, 128x32K or
    float32 128x128K at k = 2048; its caps hold a tile of slack and k more. With it the page table of 2-12 rows per SM
    is applied as the select emits each slot, its first chunk's entries gathered early (session 34)."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    def pick(rows, n, k=2048, t="none", eb=4):
        return launch.pick_warp(rows, n, k, 132, t, eb)

    for rows, n, t, k in ((512, 131072, "none", 2048), (512, 131072, "ragged", 2048), (512, 131072, "page_table", 2048),
                          (1024, 131072, "none", 2048), (300, 98304, "ragged", 2048), (1024, 98304, "page_table", 2048),
                          (1024, 65536, "none", 1024), (512, 65536, "page_table", 512)):
        c = pick(rows, n, k, t=t)
        assert c.all_cands and c.pack_cands and c.cblock == 2048, (rows, n, t, c)
        assert not pick(rows, n, k, t=t, eb=2).all_cands
    for rows, n in ((512, 131072), (1024, 131072), (300, 98304)):  # neither streamed nor late (session 34)
        page = pick(rows, n, t="page_table")
        assert page.page_early and not page.late and not page.page_stream, (rows, n, page)
        assert not pick(rows, n, t="page_table", eb=2).all_cands  # 16-bit: regions (session 53), below
    assert pick(512, 131072, 1024, t="page_table", eb=2).page_stream  # 16-bit past 64 k (session 53: regions below)
    assert not pick(512, 131072, 1024, t="page_table", eb=2).late
    assert pick(128, 131072, k=512).cblock == 4096 and pick(128, 131072, k=512, t="page_table").all_cands
    assert pick(128, 131072, eb=2).all_cands and pick(128, 131072, eb=2, t="page_table").cblock == 8192
    for rows, n, k, t in ((256, 32768, 2048, "page_table"),
                          (256, 32768, 2048, "none"), (512, 32768, 2048, "ragged"),
                          (4096, 8192, 2048, "none"), (2048, 16384, 2048, "none"), (128, 32768, 2048, "none"),
                          (128, 131072, 2048, "none"), (1024, 16384, 2048, "none"), (1024, 8192, 256, "none")):
        assert not pick(rows, n, k, t).all_cands, (rows, n, k, t)
    c = pick(512, 131072)
    assert launch.warp_cap(c, 131072, 2048) >= launch.warp_cap(replace(c, all_cands=False), 131072, 2048) + 2048 + \
        c.a * 8 * 32 * c.warps - 32
    assert launch.warp_cap(launch.WarpConfig(), 1 << 26, 4096) <= launch.WARP_MAX_CAP


def test_pick_warp_regions_on_rows_short_for_k(monkeypatch):
    """Session 53: float32 rows of 2-12 per SM of 64K+ columns but under 48 k keep their candidates in regions per
    warp without ``all_cands``, two tiles ahead; their page table holds the sure entries through the select
    (``defer_sure``), the candidates' applied as it emits, the first chunk's gathered early. The same kernel serves
    the identity and ragged transforms (the flags the page table adds are off or inert there). 16-bit rows take it
    up to 64 k (they never took all_cands)."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    def pick(rows, n, k=2048, t="none", eb=4):
        return launch.pick_warp(rows, n, k, 132, t, eb)

    for rows, n, k in ((300, 65536, 2048), (512, 65536, 2048), (1024, 65536, 2048), (1500, 65536, 2048),
                       (512, 131072, 4096), (1024, 131072, 4096), (512, 98303, 2048)):
        for t in ("none", "ragged", "page_table"):
            c = pick(rows, n, k, t)
            assert not c.all_cands and c.warp_regions and c.pack_cands and c.cblock == 2048, (rows, n, k, t, c)
            assert c.ahead == launch.WARP_REGIONS_MID_AHEAD and c.longest_first and c.first_wave == 1
            page = t == "page_table"
            assert c.defer_sure == c.page_early == page and not c.late and not c.page_stream, (rows, n, k, t, c)
            assert c.maxnreg == (80 if rows > 6 * 132 else None)
        v2 = pick(rows, n, k)  # the page config with its table flags off (late_kb: only a late pass reads it)
        assert replace(pick(rows, n, k, "page_table"), defer_sure=False, page_early=False, late_kb=v2.late_kb) == v2
    assert pick(512, 98304).all_cands and pick(512, 98304, t="page_table").all_cands
    # 16-bit rows (never all_cands there) up to 64 k: the same regions configs, 16-bit tiles (a halved below 16 warps)
    for rows, n, k in ((300, 65536, 2048), (1024, 65536, 2048), (512, 131072, 2048), (1024, 65536, 1024)):
        for t in ("none", "ragged", "page_table"):
            c = pick(rows, n, k, t, eb=2)
            assert not c.all_cands and c.warp_regions and c.pack_cands and c.cblock == 2048 and c.a == 1, (rows, n, c)
            assert c.ahead == 2 and c.defer_sure == c.page_early == (t == "page_table") and not c.page_stream
    assert not pick(512, 131072, 1024, eb=2).warp_regions and pick(512, 131072, 1024, "page_table", eb=2).page_stream


def test_pick_warp_guess(monkeypatch):
    """The warp path guesses its bracket only on about one row per SM of 16K+ columns, where it was timed faster."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    assert launch.pick_warp(128, 32768, 2048, 132).guess == launch.WARP_FEW_LARGE_GUESS
    assert not launch.pick_warp(128, 32768, 2048, 132, "page_table").early_pivot  # measured even (session 33)
    assert launch.pick_warp(128, 131072, 2048, 132, "page_table").guess == 1.5
    assert launch.pick_warp(128, 65536, 2048, 132).guess == 1.5
    assert launch.pick_warp(1024, 65536, 2048, 132).guess == launch.pick_warp(4096, 8192, 2048, 132).guess == 0
    assert launch.pick_warp(512, 131072, 2048, 132, "page_table").guess == 0


def test_pick_warp(monkeypatch):
    """The warp path where it was timed faster (float32, ~1+ rows per SM), with the measured configs, the page
    table always late; the resident path for at most one row per SM of (4096, 8192] columns; the two-launch path
    elsewhere and under the interpreter. (The configs before ``all_cands``, which ``test_pick_warp_all_cands``
    checks.)"""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    monkeypatch.setattr(launch, "all_cands_config", lambda config, *a: config)
    pick = launch.pick_warp
    narrow = functools.partial(replace, bracket_bits=launch.WARP_NARROW_BRACKET_BITS)
    assert pick(2048, 16384, 2048, 132) == launch.WARP_MANY_SMALL and launch.WARP_MANY_SMALL.bracket_bits == 16
    assert pick(4096, 8192, 2048, 132) == narrow(launch.WARP_MANY_SMALL)
    assert pick(4096, 8192, 2048, 132, "page_table") == narrow(launch.WARP_MANY_SMALL_PAGE)
    assert pick(1024, 8192, 2048, 132) == launch.WARP_MID_NARROW_MANY_LF == replace(
        narrow(launch.WARP_MID, ahead=1), longest_first=True, first_wave=3)
    assert pick(512, 8192, 2048, 132) == launch.WARP_MID_NARROW_LF == replace(
        narrow(launch.WARP_MID, ahead=1), longest_first=True, first_wave=1)
    assert pick(150, 8192, 2048, 132) == narrow(launch.WARP_FEW)
    assert pick(4096, 16385, 2048, 132) == launch.WARP_MANY_LF and launch.WARP_MANY_SMALL.sample == 1024
    assert launch.WARP_MANY_LF == replace(launch.WARP_MANY, longest_first=True, first_wave=6)
    assert pick(4096, 65536, 2048, 132, "page_table") == launch.WARP_MANY_PAGE
    assert pick(1024, 8192, 2048, 132, "page_table") == launch.WARP_MID_PAGE_MANY_NARROW_LF == replace(
        narrow(launch.WARP_MID_PAGE_MANY, ahead=1), longest_first=True, first_wave=3)
    assert pick(512, 8192, 2048, 132, "page_table") == narrow(launch.WARP_MID_PAGE, ahead=1)
    assert pick(1024, 16384, 2048, 132, "page_table") == launch.WARP_MID_PAGE_MANY_LF
    assert launch.WARP_MID_PAGE_MANY == launch.WARP_MANY_PAGE
    assert pick(1024, 65536, 2048, 132) == launch.WARP_MID_LARGE_MANY
    assert pick(1024, 32768, 2048, 132) == launch.WARP_MID_LF == replace(launch.WARP_MID, longest_first=True,
                                                                       first_wave=1)
    assert pick(1024, 65536, 2048, 132, "page_table") == launch.WARP_MID_LARGE_PAGE_MANY
    assert pick(1024, 32768, 2048, 132, "page_table") == launch.WARP_MID_PAGE_MANY_LF
    # session 21: 80 registers for more than 6 rows per SM of 64K+ columns and for many short rows' page table
    assert launch.WARP_MID_LARGE_MANY.maxnreg == launch.WARP_MID_LARGE_PAGE_MANY.maxnreg == 80
    assert launch.WARP_MANY_SMALL_PAGE.maxnreg == 80 and launch.WARP_MANY_SMALL.maxnreg is None
    assert launch.WARP_MID_LARGE.maxnreg is None and launch.WARP_MID_LARGE_PAGE_MANY.sample == 4096
    assert pick(512, 131072, 2048, 132, "page_table") == pick(300, 65536, 2048, 132, "page_table")
    assert pick(512, 131072, 2048, 132, "page_table") == launch.WARP_MID_LARGE_PAGE  # session 28: 4096 keys
    assert launch.WARP_MID_LARGE_PAGE == replace(launch.WARP_MID_PAGE, sample=4096, longest_first=True, first_wave=1)
    assert pick(512, 32768, 2048, 132, "page_table") == launch.WARP_MID_PAGE_LF
    # session 50: 2-12 rows per SM of 64K+ columns past one program per SM longest first; many 8K rows in index order
    for rows, n in ((512, 131072), (1024, 65536), (300, 65536)):
        for transform in ("none", "page_table", "ragged"):
            c = pick(rows, n, 2048, 132, transform)
            assert c.longest_first and c.first_wave == 1 and c.order_pdl, (rows, n, transform)
    # session 51: so do 2-12 rows per SM of 16K-32K columns, the page table's 6-12 rows per SM past three programs per
    # SM; many rows of up to 16K columns and one row per SM keep index order (8K rows: session 52, below)
    for rows, n in ((512, 32768), (1024, 32768), (300, 16384), (1024, 16384), (300, 20000)):
        for transform in ("none", "page_table", "ragged"):
            c = pick(rows, n, 2048, 132, transform)
            many_page = transform == "page_table" and rows > 6 * 132
            assert c.longest_first and c.first_wave == (3 if many_page else 1) and c.order_pdl, (rows, n, transform)
    assert launch.WARP_MID_PAGE_MANY_LF == replace(launch.WARP_MANY_PAGE, longest_first=True, first_wave=3)
    assert not any(pick(rows, n, 2048, 132, t).longest_first for rows, n in ((4096, 8192), (2048, 16384),
                                                                            (128, 131072), (128, 32768))
                   for t in ("none", "page_table"))
    # session 52: 8K rows at 2-12 per SM too (the page table at 6-12 only: three programs per SM first there, as v2),
    # and more than 12 rows per SM of 16K+ columns without the page table, past six programs per SM
    for rows, n, t, first in ((300, 8192, "none", 1), (512, 8192, "ragged", 1), (1024, 8192, "none", 3),
                              (1500, 8192, "page_table", 3), (1024, 8192, "ragged", 3), (2048, 32768, "none", 6),
                              (4096, 65536, "ragged", 6), (2048, 16385, "none", 6)):
        c = pick(rows, n, 2048, 132, t)
        assert c.longest_first and c.first_wave == first and c.order_pdl, (rows, n, t)
        assert (c.bracket_bits == launch.WARP_NARROW_BRACKET_BITS) == (n <= 8192), (rows, n, t)
    assert not any(pick(rows, n, 2048, 132, "page_table").longest_first
                   for rows, n in ((300, 8192), (512, 8192), (2048, 32768), (4096, 65536)))
    # session 28: the page table streamed beside the scores on the short rows of many, 1 per SM of 16K-32K columns
    # and 2-12 rows per SM; one row per SM of other lengths and many rows of 16K+ columns keep the late pass
    for rows, n in ((4096, 8192), (2048, 16384), (128, 32768), (1024, 65536), (512, 131072), (512, 32768)):
        c = pick(rows, n, 2048, 132, "page_table")
        assert c.page_stream and not c.late and c.ahead == (1 if rows in (4096, 2048, 128) else 2), (rows, n)
    for rows, n in ((128, 65535), (4096, 65536)):
        c = pick(rows, n, 2048, 132, "page_table")
        assert c.late and not c.page_stream, (rows, n)
    # session 37: one row per SM of 64K+ columns applies the table as its select emits, the sure entries held through
    # it (defer_sure)
    for rows, n in ((128, 131072), (150, 65536)):
        c = pick(rows, n, 2048, 132, "page_table")
        assert c.defer_sure and c.page_early and not c.late and not c.page_stream and not c.all_cands, (rows, n)
    for rows, n in ((4096, 8192), (128, 32768), (1024, 65536)):
        assert not pick(rows, n, 2048, 132).page_stream
    assert pick(128, 131072, 2048, 132) == pick(128, 65536, 2048, 132, "ragged") == launch.WARP_FEW_LONG
    assert pick(133, 16384, 2048, 132, "ragged") == pick(128, 65535, 2048, 132) == launch.WARP_FEW
    assert pick(128, 131072, 2048, 132, "page_table") == launch.WARP_FEW_LONG_PAGE
    assert pick(128, 65535, 2048, 132, "page_table") == launch.WARP_FEW_PAGE
    assert launch.WARP_FEW_LONG.cblock == launch.WARP_FEW_LONG_PAGE.cblock == 4096  # session 21
    assert pick(128, 32768, 2048, 132) == pick(150, 16385, 2048, 132, "ragged") == launch.WARP_FEW_LARGE
    assert pick(128, 32768, 2048, 132, "page_table") == launch.WARP_FEW_LARGE_PAGE
    assert launch.WARP_FEW_LARGE.sample == launch.WARP_FEW_LARGE_SAMPLE == 4096
    assert pick(128, 32769, 2048, 132) == launch.WARP_FEW
    # every shipped warp config samples in runs of WARP_SAMPLE_RUN columns (session 26), but about one row per SM of
    # 16K+ columns: runs of 16 loaded as vectors (session 36)
    for rows, n, t in ((4096, 8192, "none"), (1024, 65536, "page_table"), (512, 131072, "page_table"),
                       (150, 8192, "none")):
        assert pick(rows, n, 2048, 132, t).sample_run == launch.WARP_SAMPLE_RUN == 8
    for rows, n, t in ((128, 32768, "none"), (128, 131072, "ragged"), (128, 32768, "page_table"),
                       (128, 131072, "page_table")):
        c = pick(rows, n, 2048, 132, t)
        assert (c.sample_run, c.sample_vec) == (launch.WARP_FEW_SAMPLE["sample_run"], True) == (16, True)
    # the candidate select by interpolation where it was timed faster (session 19)
    assert pick(4096, 8192, 2048, 132).sbits == pick(4096, 8192, 2048, 132, "page_table").sbits == 0
    assert pick(512, 131072, 2048, 132, "page_table").sbits == pick(128, 131072, 2048, 132, "page_table").sbits == 0
    assert pick(128, 65535, 2048, 132).sbits == pick(1024, 32768, 2048, 132).sbits == 1
    assert pick(128, 131072, 2048, 132).sbits == 0  # session 21
    assert pick(512, 131072, 2048, 132) == pick(512, 65536, 2048, 132, "ragged") == launch.WARP_MID_LARGE
    assert pick(1024, 65536, 2048, 132, "ragged") == launch.WARP_MID_LARGE_MANY
    assert launch.WARP_MID_LARGE.sample == 4096
    assert pick(512, 131072, 2048, 132, "page_table") == launch.WARP_MID_LARGE_PAGE
    assert pick(1024, 32768, 2048, 132, "page_table").sbits == 1
    # session 32: 128x32K's select two key bits a step (packed counts), a search that ends on k emitted at once
    assert pick(128, 32768, 2048, 132, "page_table").sbits == pick(128, 32768, 2048, 132).sbits == 2
    assert pick(128, 32768, 2048, 132, "page_table").emit_done and pick(128, 32768, 2048, 132).emit_done
    # at most one row per SM of (4096, 8192] columns, any dtype, k and transform: resident; longer rows not
    lo, hi = launch.RESIDENT_N
    for rows in (1, 8, 118, 132):
        for n in (lo + 1, 8000, hi):
            for t in ("none", "page_table", "ragged"):
                for elem in (4, 2):
                    want = launch.RESIDENT if elem == 4 else launch.RESIDENT_16
                    assert pick(rows, n, 2048, 132, t, elem) == want, (rows, n, t, elem)
            assert pick(rows, n, 1, 132) == pick(rows, n, 16384, 132) == launch.RESIDENT
        assert pick(rows, lo, 1024, 132) is None
        assert pick(rows, hi + 1024, 2048, 132) == pick(rows, 16384, 2048, 132, "page_table") == launch.RESIDENT_WIDE
        assert (pick(rows, hi + 1024, 2048, 132, "none", 2) is None) == (rows < 0.9 * 132)  # 16-bit: not resident
        assert (pick(rows, 16385, 2048, 132) is None) == (rows < 0.9 * 132)  # the two-launch path
    assert pick(133, hi, 2048, 132) == narrow(launch.WARP_FEW)
    assert launch.RESIDENT.warps == 16 and launch.RESIDENT_16.warps == 8  # session 24: float32 on 16 warps
    # the k-th key by interpolation, its first probes from the row's moments (session 23: 16-bit rows too)
    for c in (launch.RESIDENT, launch.RESIDENT_16, launch.RESIDENT_WIDE):
        assert c.secant and c.guess
    assert launch.RESIDENT_WIDE.warps == 16 and launch.resident_constexprs(launch.RESIDENT_WIDE, 16384, 32, 0,
                                                                               False)["A"] == 8
    for rows, n, k, elem in ((32, 131072, 2048, 4), (8, 32768, 2048, 4), (1, 16385, 4096, 4),  # few long rows
                             (4096, 4096, 2048, 4), (4096, 65536, 8192, 4),  # N < 4k, k above WARP_MAX_K
                             (65536, 8192, 2048, 4)):  # candidate scratch above 1 GiB
        assert pick(rows, n, k, 132, elem_bytes=elem) is None
    for rows in (1, 128, 512, 1024, 4096):
        for n in (8192, 16384, 32768, 65536, 131072):
            for t in ("none", "page_table", "ragged"):
                c = pick(rows, n, 2048, 132, t)
                if isinstance(c, launch.WarpConfig):  # the page table at the end, streamed or early, only with it
                    assert (c.late or c.page_stream or c.page_early) == (t == "page_table"), (rows, n, t, c)
                    assert c.late + c.page_stream + c.page_early <= 1, (rows, n, t, c)
                    assert not c.page_early or c.all_cands or c.defer_sure, (rows, n, t, c)
                    assert not c.defer_sure or (t == "page_table" and c.warp_regions and not c.all_cands)
                    assert c.bracket_bits == (12 if n <= launch.WARP_NARROW_BRACKET_MAX_N else 16), (rows, n, t, c)
                    assert c.cblock // (32 * c.warps) <= 8  # more per thread: 236-255 registers (NOTES.md)
                    assert 1024 <= launch.warp_cap(c, n, 2048) <= n
    for c in (launch.WARP_FEW, launch.WARP_MID, launch.WARP_MANY):
        assert launch.warp_cap(c, 8192, 2048) <= 8192 and launch.warp_cap(c, 131072, 2048) >= 2 * 1024
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert pick(4096, 8192, 2048, 132) is None


def test_late_block():
    """late_block takes all k slots in one block up to 16 per thread, never fewer than k / (16 x
    threads) blocks; the late pass defaults to blocks of ``block`` slots, an explicit late_kb wins;
    only the page table gets one."""
    W = launch.WarpConfig
    for warps in (1, 2, 4, 8, 16):
        for k in (1, 2, 37, 512, 600, 2048, 4095, 4096):
            kb = launch.late_block(W(warps), k)
            assert kb & (kb - 1) == 0 and kb <= 16 * 32 * warps
            assert kb >= k or kb == 16 * 32 * warps
            assert kb < 2 * k
    assert launch.late_block(W(4), 2048) == 2048 and launch.late_block(W(1), 4096) == 512
    c = W(4, block=512, late=True)
    assert launch.warp_constexprs(c, 32, 1, False, 2048)["LATE_KB"] == 512
    assert launch.warp_constexprs(replace(c, late_kb=2048), 32, 1, False, 2048)["LATE_KB"] == 2048
    all_k = replace(c, late_kb=launch.LATE_ALL_K)
    assert launch.warp_constexprs(all_k, 32, 1, False, 600)["LATE_KB"] == 1024 == launch.late_block(c, 600)
    assert launch.WARP_FEW_PAGE.late_kb == launch.WARP_MID_PAGE.late_kb == launch.LATE_ALL_K
    assert launch.WARP_MANY_PAGE.late_kb == 0  # not timed faster there (session 28: 2048x32K 206.9 -> 209.4)
    assert launch.WARP_MID_LARGE_PAGE_MANY.late_kb == 0
    # the page-stream configs' late pass (where the table cannot be streamed): all k at once (session 28)
    assert launch.WARP_MANY_SMALL_PAGE.late_kb == launch.WARP_FEW_LARGE_PAGE.late_kb == launch.LATE_ALL_K
    for t in (0, 2):
        const = launch.warp_constexprs(c, 32, t, False, 2048)
        assert not const["LATE"] and const["LATE_KB"] == 0
    assert launch.warp_constexprs(c, 16, 1, True, 100)["V"] == 8




def test_pick_split_page_stream(monkeypatch):
    """Two-launch calls of at most SPLIT_PAGE_STREAM_MAX_COLUMNS columns in all stream the page table beside the
    scores (session 28); larger calls keep the select's late pass; only the page table's builds
    read it (the flag is a constant of the page-table transform alone)."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    pick = launch.pick_split
    for rows, n in ((8, 32768), (32, 32768), (16, 131072), (1, 131072), (1, 1 << 20), (32, 131072)):
        assert pick(rows, n, 2048, 132).page_stream, (rows, n)
    for rows, n in ((64, 131072), (16, 1 << 20)):
        assert not pick(rows, n, 2048, 132).page_stream, (rows, n)
    # the page tile after the bracket exactly where the filter is 8192 columns on 8 warps (session 30), which lets
    # such calls stream up to SPLIT_PAGE_AFTER_MAX_COLUMNS
    for rows, n in ((16, 131072), (32, 131072), (1, 131072), (8, 32768), (32, 32768)):
        config = pick(rows, n, 2048, 132)
        assert config.page_after_bracket == ((config.chunk, config.warps) == (8192, 8)), (rows, n, config)
    assert pick(32, 131072, 2048, 132).page_after_bracket and not pick(8, 32768, 2048, 132).page_after_bracket
    assert 32 * 131072 > launch.SPLIT_PAGE_STREAM_MAX_COLUMNS and 64 * 131072 > launch.SPLIT_PAGE_AFTER_MAX_COLUMNS
    config = pick(8, 32768, 2048, 132)
    for transform, want in ((0, False), (1, True), (2, False)):
        f_const, s_const = launch.split_constexprs(config, 32, 4, transform, False, True)
        assert f_const["PSTREAM"] == s_const["PSTREAM"] == want


def test_picking_as_picks_another_transforms_kernel(monkeypatch):
    """``launch.picking_as(t)`` (the benchmark's same-kernel column): calls pick the kernel for ``t`` whatever their
    own transform, and only inside it; the backend's ``kernel_as`` is that context."""
    import torch

    from topk_core import sgl
    from topk_sgl_fused import _plugin

    seen = []
    monkeypatch.setattr(launch, "WARP", True)
    monkeypatch.setattr(launch, "pick_warp", lambda rows, n, k, sms, t="none", eb=4: seen.append(t))
    monkeypatch.setattr(launch, "sm_count", lambda device: 132)
    monkeypatch.setattr(launch, "launch_split", lambda call, config=None: None)  # no kernel: only the pick matters
    monkeypatch.setenv("TRITON_INTERPRET", "1")  # the backend is usable without a GPU
    x = torch.randn(2, 300)
    lens = torch.tensor([300, 200], dtype=torch.int32)
    with _plugin.backend.kernel_as("page_table"):
        sgl.fast_topk_v2(x, lens, 16, backend="sgl_fused")
    sgl.fast_topk_v2(x, lens, 16, backend="sgl_fused")
    assert seen == ["page_table", "none"] and launch.PICK_AS.get() is None
    with pytest.raises(ValueError, match="transform"), launch.picking_as("page"):
        pass


def test_defer_sure_picks(monkeypatch):
    """``defer_sure`` only where it was measured: float32 rows of 64K+ columns at about one per SM with the page
    table and k > 1024; their all_cands form (k <= 1024, 16-bit rows) keeps the late pass (session 37)."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    from topk_sgl_fused import launch

    for rows, n in ((128, 131072), (150, 65536), (132, 1 << 20)):
        for k, eb in ((2048, 4), (4096, 4), (1024, 4), (2048, 2)):
            c = launch.pick_warp(rows, n, k, 132, "page_table", eb)
            assert c.defer_sure == (k > 1024 and eb == 4), (rows, n, k, eb, c)
            assert c.late == (not c.defer_sure), (rows, n, k, eb, c)
            assert not getattr(launch.pick_warp(rows, n, k, 132, "none", eb), "defer_sure", False)
    assert not launch.pick_warp(512, 131072, 2048, 132, "page_table").defer_sure
    assert not launch.pick_warp(128, 32768, 2048, 132, "page_table").defer_sure
