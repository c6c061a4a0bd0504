"""Named shape sets. Each shape is one row of the results table."""

from __future__ import annotations

from dataclasses import dataclass

from ..protocol import Problem


@dataclass(frozen=True)
class Shape:
    rows: int
    n: int
    k: int = 2048
    dtype: str = "float32"
    next_n: int = 1

    @property
    def label(self) -> str:
        n = f"{self.n // 1024}K" if self.n % 1024 == 0 else str(self.n)
        extra = {"float32": "", "bfloat16": " bf16", "float16": " fp16"}[self.dtype]
        extra += "" if self.k == 2048 else f" k={self.k}"
        extra += "" if self.next_n == 1 else f" nn={self.next_n}"
        return f"{self.rows}x{n}{extra}"

    @property
    def nbytes(self) -> int:
        """Bytes of logits a one-read pass touches (the floor's numerator)."""
        return Problem(rows=self.rows, n=self.n, k=self.k, dtype=self.dtype).nbytes


K = 1024
GRIDS: dict[str, list[Shape]] = {
    # The table of ../shared/device/README.md: decode to prefill, fp32, k=2048 unless noted.
    "dsa": [Shape(1, 8 * K), Shape(1, 32 * K), Shape(1, 128 * K), Shape(8, 32 * K), Shape(8, 128 * K),
            Shape(32, 32 * K), Shape(32, 128 * K), Shape(128, 32 * K), Shape(128, 128 * K),
            Shape(512, 32 * K), Shape(512, 128 * K), Shape(4096, 8 * K), Shape(1024, 64 * K),
            Shape(128, 128 * K, dtype="bfloat16"), Shape(128, 128 * K, k=512)],
    # Low-latency decode, long rows and speculative decode.
    "decode": [Shape(1, 8 * K), Shape(1, 32 * K), Shape(1, 128 * K), Shape(8, 32 * K), Shape(8, 128 * K),
               Shape(32, 128 * K), Shape(1, 256 * K), Shape(1, 1024 * K), Shape(8, 64 * K, next_n=2),
               Shape(1, 128 * K, dtype="bfloat16"), Shape(1, 128 * K, k=512)],
    # A quick look (also what CPU runs).
    "small": [Shape(1, 8 * K), Shape(8, 32 * K), Shape(64, 16 * K, k=1024), Shape(16, 8 * K, dtype="bfloat16")],
    "cpu": [Shape(1, 4 * K, k=256), Shape(4, 16 * K, k=512), Shape(16, 8 * K, k=2048)],
}
