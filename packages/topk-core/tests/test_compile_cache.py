"""compile_cached's on-disk cache: key hashing, atomic writes, bad files rebuilt (fake codec, no GPU).

The last tests round-trip a real CuTe DSL build between processes on CPU (CUTE_DSL_ARCH);
they skip when cutlass is not installed.
"""

import logging
import os
import subprocess
import sys
import textwrap

import pytest

from topk_core.kernels import toolchain


class FakeCodec:
    """Stores a build's ``value`` attribute as bytes; counts loads."""

    def __init__(self, tag="fake-1"):
        self._tag = tag
        self.loads = 0

    def applies(self):
        return True

    def tag(self):
        return self._tag

    def dump(self, fn, symbol):
        return None if fn.value is None else fn.value.encode()

    def load(self, payload, symbol):
        self.loads += 1
        if payload.startswith(b"boom"):
            raise RuntimeError("cannot load")
        return Built(payload.decode())


class Built:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Built) and other.value == self.value


def counting_build(value="kernel-binary"):
    calls = []

    def build():
        calls.append(1)
        return Built(value)

    return build, calls


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh TOPK_CACHE_DIR and empty in-process caches (as in a new process)."""
    monkeypatch.setenv("TOPK_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("CUTE_DSL_CACHE_DIR", str(tmp_path / "dsl-own"))
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton"))
    for name in ("_compiled", "build_seconds", "load_seconds"):
        monkeypatch.setattr(toolchain, name, {})
    return tmp_path / "cute-dsl"


def new_process(monkeypatch):
    monkeypatch.setattr(toolchain, "_compiled", {})


KEY = ("test", "Kernel", 1, "float32", True, 512, "sm_90", "4.8.1")


def files(folder):
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_second_process_loads_from_disk(cache, monkeypatch):
    codec = FakeCodec()
    build, calls = counting_build()
    assert toolchain.compile_cached(KEY, build, codec=codec) == Built("kernel-binary")
    assert calls == [1] and KEY in toolchain.build_seconds and KEY not in toolchain.load_seconds
    assert toolchain.compile_cached(KEY, build, codec=codec) == Built("kernel-binary")  # memory
    assert calls == [1] and codec.loads == 0

    new_process(monkeypatch)
    assert toolchain.compile_cached(KEY, build, codec=codec) == Built("kernel-binary")
    assert calls == [1] and codec.loads == 1 and KEY in toolchain.load_seconds


def test_file_name_is_sha256_of_everything_that_shapes_code(cache):
    toolchain.compile_cached(KEY, counting_build()[0], codec=FakeCodec())
    (name,) = files(cache)
    source = toolchain.source_fingerprint(counting_build)
    assert name == toolchain.disk_name(KEY, "fake-1", source) + ".bin"
    assert len(name) == 64 + 4 and int(name[:64], 16) >= 0
    base = toolchain.disk_name(KEY, "t", "s")
    assert base == toolchain.disk_name(KEY, "t", "s")  # stable
    assert base != toolchain.disk_name(KEY[:-1] + ("4.8.2",), "t", "s")  # any key element
    assert base != toolchain.disk_name(KEY, "arch=sm_100a", "s")  # DSL settings, host
    assert base != toolchain.disk_name(KEY, "t", "edited")  # kernel source


def test_other_tag_or_key_does_not_share_a_file(cache, monkeypatch):
    build, calls = counting_build()
    toolchain.compile_cached(KEY, build, codec=FakeCodec("arch=sm_90a"))
    new_process(monkeypatch)
    toolchain.compile_cached(KEY, build, codec=FakeCodec("arch=sm_100a"))
    toolchain.compile_cached(KEY + ("x",), build, codec=FakeCodec("arch=sm_100a"))
    assert len(calls) == 3 and len(files(cache)) == 3


def test_source_edit_changes_the_fingerprint(tmp_path, monkeypatch):
    pkg = tmp_path / "fake_kernels_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "kernel.py").write_text("def build():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import fake_kernels_pkg.kernel as mod

    monkeypatch.setattr(toolchain, "_fingerprints", {})
    before = toolchain.source_fingerprint(mod.build)
    assert before == toolchain.source_fingerprint(mod.build)
    (pkg / "kernel.py").write_text("def build():\n    return 2\n")
    monkeypatch.setattr(toolchain, "_fingerprints", {})
    assert toolchain.source_fingerprint(mod.build) != before


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "empty", "wrong-key", "unloadable"])
def test_bad_file_is_ignored_and_rebuilt(cache, monkeypatch, caplog, damage):
    codec = FakeCodec()
    build, calls = counting_build()
    toolchain.compile_cached(KEY, build, codec=codec)
    (name,) = files(cache)
    path = cache / name
    data = path.read_bytes()
    if damage == "garbage":
        data = b"not a cache file at all"
    elif damage == "truncated":
        data = data[: len(data) - 3]
    elif damage == "flipped":
        data = data[:-1] + bytes([data[-1] ^ 1])
    elif damage == "empty":
        data = b""
    elif damage == "wrong-key":  # a well-formed file written for another key
        data = toolchain._pack({"format": toolchain.DISK_FORMAT, "key": repr(KEY[:-1]), "symbol": "s"}, b"other")
    else:  # a well-formed file the codec cannot load
        data = toolchain._pack({"format": toolchain.DISK_FORMAT, "key": repr(KEY), "symbol": "s"}, b"boom")
    path.write_bytes(data)

    new_process(monkeypatch)
    with caplog.at_level(logging.DEBUG, logger="topk_core"):
        assert toolchain.compile_cached(KEY, build, codec=codec) == Built("kernel-binary")
    assert calls == [1, 1]
    assert any("ignoring" in r.getMessage() and r.levelno == logging.DEBUG for r in caplog.records)
    assert not [r for r in caplog.records if r.levelno > logging.DEBUG]
    # The rebuild replaced the bad file: the next process loads it.
    new_process(monkeypatch)
    assert toolchain.compile_cached(KEY, build, codec=codec) == Built("kernel-binary")
    assert calls == [1, 1]


def test_unreadable_entry_is_ignored(cache, monkeypatch):
    build, calls = counting_build()
    toolchain.compile_cached(KEY, build, codec=FakeCodec())
    (name,) = files(cache)
    (cache / name).unlink()
    (cache / name).mkdir()  # reading it raises IsADirectoryError; storing over it fails too
    new_process(monkeypatch)
    assert toolchain.compile_cached(KEY, build, codec=FakeCodec()) == Built("kernel-binary")
    assert calls == [1, 1]


def test_write_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "sub" / "entry.bin"
    toolchain.write_atomic(path, b"old")
    assert path.read_bytes() == b"old" and os.listdir(path.parent) == ["entry.bin"]

    def fail(src, dst):
        assert open(src, "rb").read() == b"new contents"  # fully written before the rename
        raise OSError("disk full")

    monkeypatch.setattr(toolchain.os, "replace", fail)
    with pytest.raises(OSError):
        toolchain.write_atomic(path, b"new contents")
    assert path.read_bytes() == b"old" and os.listdir(path.parent) == ["entry.bin"]  # no temp left


def test_unwritable_cache_still_builds(cache, monkeypatch, caplog):
    monkeypatch.setattr(toolchain, "write_atomic", lambda path, data: (_ for _ in ()).throw(PermissionError(path)))
    build, calls = counting_build()
    with caplog.at_level(logging.DEBUG, logger="topk_core"):
        assert toolchain.compile_cached(KEY, build, codec=FakeCodec()) == Built("kernel-binary")
    assert calls == [1] and files(cache) == []
    assert any("could not store" in r.getMessage() for r in caplog.records)


def test_builds_the_codec_cannot_store_stay_in_memory(cache, monkeypatch):
    build, calls = counting_build(value=None)  # FakeCodec.dump -> None, like a Triton launcher
    toolchain.compile_cached(KEY, build, codec=FakeCodec())
    assert files(cache) == []
    new_process(monkeypatch)
    toolchain.compile_cached(KEY, build, codec=FakeCodec())
    assert calls == [1, 1]


def test_unstable_key_and_no_codec_stay_in_memory(cache):
    build, calls = counting_build()
    toolchain.compile_cached(("test", object()), build, codec=FakeCodec())  # repr holds an address
    toolchain.compile_cached(KEY, build, codec=None)
    assert calls == [1, 1] and files(cache) == []


def test_default_codec_skips_processes_without_cutlass(cache, monkeypatch):
    monkeypatch.delitem(sys.modules, "cutlass", raising=False)
    build, calls = counting_build()
    toolchain.compile_cached(KEY, build)
    assert calls == [1] and files(cache) == []


def test_importing_toolchain_does_not_import_cutlass():
    code = "import sys, topk_core.kernels.toolchain; print('cutlass' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


# --- real CuTe DSL build, CPU only (CUTE_DSL_ARCH picks the target) -----------------------

CUTE_SCRIPT = textwrap.dedent("""
    import os
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr
    from topk_core.kernels import toolchain

    @cute.kernel
    def fill(p: cute.Pointer, value: cutlass.Int32):
        tidx, _, _ = cute.arch.thread_idx()
        t = cute.make_tensor(p, cute.make_layout(32))
        t[tidx] = value

    @cute.jit
    def host(p: cute.Pointer, value: cutlass.Int32, stream: cuda.CUstream):
        fill(p, value).launch(grid=[1, 1, 1], block=[32, 1, 1], stream=stream)

    def build():
        if os.environ.get("FORBID_BUILD"):
            raise SystemExit("compiled although a cache file was expected")
        ptr = make_ptr(cutlass.Int32, 16, cute.AddressSpace.gmem, assumed_align=4)
        return cute.compile(host, ptr, cutlass.Int32(1), cuda.CUstream(0))

    key = ("test_compile_cache", "fill", 1, cutlass.__version__)
    fn = toolchain.compile_cached(key, build)
    ptr = make_ptr(cutlass.Int32, 4096, cute.AddressSpace.gmem, assumed_align=4)
    args, _ = fn.generate_execution_args(ptr, 7, cuda.CUstream(0))
    print(type(fn).__name__, len(args), "built" if key in toolchain.build_seconds else "loaded")
""")


def run_cute(tmp_path, **extra):
    env = dict(os.environ, CUTE_DSL_ARCH="sm_90a", TOPK_CACHE_DIR=str(tmp_path), **extra)
    env.pop("CUTE_DSL_CACHE_DIR", None)
    script = tmp_path / "fill_kernel.py"  # the DSL reads the kernel's source from a file
    script.write_text(CUTE_SCRIPT)
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.strip().splitlines()[-1]


def test_cute_build_round_trips_between_processes(tmp_path):
    pytest.importorskip("cutlass")
    assert run_cute(tmp_path) == "CudaDialectJitCompiledFunction 3 built"
    (name,) = [p.name for p in (tmp_path / "cute-dsl").iterdir() if p.suffix == ".bin"]
    assert run_cute(tmp_path, FORBID_BUILD="1") == "CudaDialectJitCompiledFunction 3 loaded"

    path = tmp_path / "cute-dsl" / name
    header, payload = toolchain._unpack(path.read_bytes())
    half = toolchain._pack(header, payload[: len(payload) // 2])  # valid container, truncated object
    path.write_bytes(half)
    assert run_cute(tmp_path) == "CudaDialectJitCompiledFunction 3 built"
    assert path.read_bytes() != half
    assert run_cute(tmp_path, FORBID_BUILD="1") == "CudaDialectJitCompiledFunction 3 loaded"
