"""Dev (CPU): the SASS of a DSMEM exchange by st.async + mbarrier between two cluster CTAs.

Usage: python shared/dev/dsmem_exchange_sass.py
Question it answers (radix NOTES, session 5): can the register kernel's cluster exchanges avoid
the MEMBAR.ALL.GPU that every default cluster barrier carries? It compiles a toy kernel for
sm_90a (mbarrier init, relaxed cluster barrier, st.async to the peer, mbarrier wait) and prints
its synchronisation instructions. Nothing runs on a GPU.
"""

import os
import re

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
os.environ["CUTE_DSL_KEEP_PTX"] = "1"
import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402
import cutlass.memory  # noqa: E402
from cutlass import Int32, Int64  # noqa: E402
from cutlass.cute.runtime import make_fake_stream, make_ptr  # noqa: E402
from sass_tools import ptx_sass  # noqa: E402  (same folder)


class Exchange:
    """Each of two CTAs sends 128 words to the other's shared memory and waits for them."""

    def __repr__(self):
        return "DsmemExchangeProbe_v1"

    @cute.jit
    def __call__(self, out: cute.Pointer, stream):
        self.kernel(out).launch(grid=[2, 1, 1], block=[128, 1, 1], cluster=[2, 1, 1], stream=stream)

    @cute.kernel
    def kernel(self, out: cute.Pointer):
        tid, _, _ = cute.arch.thread_idx()
        rank, _, _ = cute.arch.block_idx()
        smem = cutlass.memory.SmemAllocator()
        buf = smem.allocate_tensor(Int32, cute.make_layout(256), byte_alignment=16)
        mbar = smem.allocate_tensor(Int64, cute.make_layout(1), byte_alignment=8)
        if tid == 0:
            cute.arch.mbarrier_init(mbar.iterator, 1)
            cute.arch.mbarrier_init_fence()
        cute.arch.cluster_arrive_relaxed()
        cute.arch.cluster_wait()
        if tid == 0:
            cute.arch.mbarrier_arrive_and_expect_tx(mbar.iterator, 128 * 4)
        peer = Int32(1) - rank
        cute.arch.store_async_dsmem(buf.iterator + tid, tid + rank * 1000, mbar.iterator, peer)
        cute.arch.mbarrier_wait(mbar.iterator, 0)
        g = cute.make_tensor(out + Int64(rank * 128), cute.make_layout(128))
        g[tid] = buf[tid]
        cute.arch.cluster_arrive_relaxed()
        cute.arch.cluster_wait()


def main():
    fn = cute.compile(Exchange(), make_ptr(Int32, 1 << 20, cute.AddressSpace.gmem, assumed_align=16),
                      make_fake_stream())
    _, sass = ptx_sass(fn.__ptx__)
    print("PTX:", *[ln.strip() for ln in fn.__ptx__.splitlines()
                    if re.search(r"st\.async|mbarrier|barrier\.cluster|fence", ln)], sep="\n  ")
    print("SASS:")
    for line in sass.splitlines():
        if re.search(r"MEMBAR|FENCE|CCTL|ERRBAR|SYNCS|STAS|UCGA|BAR", line):
            print(re.sub(r"/\* 0x[0-9a-f]+ \*/", "", line).rstrip())


if __name__ == "__main__":
    main()
