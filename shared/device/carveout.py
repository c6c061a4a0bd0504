"""Dev (session 64): radix_filter's one-CTA-per-row launch with a named shared-memory carveout.

``preferred_smem_carveout`` is a percent of the SM's shared-memory maximum (228 KB on sm_90); the shipped launch
names 100 where ``min_ctas`` is set (the least L1) and none elsewhere (the driver's choice). Neither the CuTe DSL's
file cache nor topk's disk cache keys it, so callers must build these kernels with both caches off.
"""


def carved_launch_rows(percent: int):
    """A ``SampledFilter._launch_rows`` that names ``preferred_smem_carveout=percent`` (and ``min_ctas`` as shipped)."""

    def _launch_rows(self, kern, rows, stream, use_pdl: bool = False):
        more = dict(min_blocks_per_mp=self.min_ctas) if self.min_ctas > 0 else {}
        kern.launch(grid=[rows, 1, 1], block=[self.threads, 1, 1], stream=stream, use_pdl=use_pdl,
                    preferred_smem_carveout=percent, **more)

    return _launch_rows
